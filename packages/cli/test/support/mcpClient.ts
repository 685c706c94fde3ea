// The MCP SDK's own client on a spawned `session-state mcp`, for the end-to-end tests: connect over
// stdio, collect stderr and protocol errors, and read a tool answer's JSON.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { CLI_MAIN } from './runCli.js';

export interface Session {
  readonly client: Client;
  /** What the server wrote to stderr, and the protocol errors the client saw (a stray stdout line is one). */
  readonly stderr: () => string;
  readonly protocolErrors: Error[];
}

/** Spawns `session-state mcp <args>` and connects the SDK client to it. */
export async function connect(args: readonly string[]): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_MAIN, 'mcp', ...args], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const protocolErrors: Error[] = [];
  const client = new Client({ name: 'session-state-test', version: '0.0.0' });
  client.onerror = (error) => void protocolErrors.push(error);
  await client.connect(transport);
  return { client, stderr: () => stderr, protocolErrors };
}

/** The JSON of a tool answer, after checking its text block carries the same JSON. */
export function answerOf(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(JSON.parse(content[0]?.text ?? '')).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}


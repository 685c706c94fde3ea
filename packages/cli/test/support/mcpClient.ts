// The MCP SDK's own client on a spawned `session-state mcp`, for the end-to-end tests: connect over
// stdio (the 2025-11-25 handshake, or pinned to 2026-07-28), collect stderr, protocol errors and the
// resource notifications it receives, and read a tool answer's JSON.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { CLI_MAIN } from './runCli.js';

export interface Session {
  readonly client: Client;
  /** What the server wrote to stderr, and the protocol errors the client saw (a stray stdout line is one). */
  readonly stderr: () => string;
  readonly protocolErrors: Error[];
  /** The URIs of the `notifications/resources/updated` received, in order, and how many `list_changed`. */
  readonly updated: string[];
  readonly listChanged: () => number;
  /** Resolves once `updated` holds `count` entries (of `uri` only, when given), or rejects after `ms`. */
  readonly updates: (count: number, ms?: number, uri?: string) => Promise<string[]>;
}

/** Spawns `session-state mcp <args>` and connects the SDK client to it, on the 2025 handshake unless `modern`. */
export async function connect(args: readonly string[], { modern = false } = {}): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_MAIN, 'mcp', ...args], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const protocolErrors: Error[] = [];
  const client = new Client({ name: 'session-state-test', version: '0.0.0' }, modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  client.onerror = (error) => void protocolErrors.push(error);
  const updated: string[] = [];
  let listChanged = 0;
  client.setNotificationHandler('notifications/resources/updated', (notification) => void updated.push(notification.params.uri));
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    listChanged += 1;
  });
  await client.connect(transport);
  const updates = async (count: number, ms = 10_000, uri?: string): Promise<string[]> => {
    const seen = (): string[] => updated.filter((each) => uri === undefined || each === uri);
    for (const deadline = Date.now() + ms; seen().length < count; await new Promise((resolve) => setTimeout(resolve, 50))) {
      if (Date.now() > deadline) throw new Error(`expected ${count} resource updates within ${ms} ms, got ${JSON.stringify(updated)}`);
    }
    return seen();
  };
  return { client, stderr: () => stderr, protocolErrors, updated, listChanged: () => listChanged, updates };
}

/** The JSON of a tool answer that carries no notices, after checking its one text block carries the same JSON. */
export function answerOf(result: Awaited<ReturnType<Client['callTool']>>): Record<string, unknown> {
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(JSON.parse(content[0]?.text ?? '')).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

/** The notices a tool answer carries (none: an empty list), after checking they are where the docs say: `structuredContent.notices`, and their lines as a second text block after the answer's JSON. */
export function noticesOf(result: Awaited<ReturnType<Client['callTool']>>): { target: string; changesSince: number; text: string }[] {
  const { notices = [], ...answer } = result.structuredContent as { notices?: { target: string; changesSince: number; text: string }[] };
  const content = result.content as { type: string; text: string }[];
  expect(JSON.parse(content[0]?.text ?? '')).toEqual(answer);
  expect(content.slice(1)).toEqual(notices.length === 0 ? [] : [{ type: 'text', text: notices.map((notice) => notice.text).join('\n') }]);
  return notices;
}

/** The JSON text of a resource, read through the client. */
export async function readJson(session: Session, uri: string): Promise<unknown> {
  const { contents } = await session.client.readResource({ uri });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((contents[0] as { text: string }).text);
}

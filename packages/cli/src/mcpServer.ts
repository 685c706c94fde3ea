// The Model Context Protocol server of `session-state mcp`: the agent's tools (createAgentTools)
// served over stdio with the official SDK's low-level Server, whose ListTools and CallTool
// handlers take the tools' plain JSON Schemas as they are. Only the `mcp` command loads this file
// (and so the SDK), so every other command starts without it.
import { Writable, type Readable } from 'node:stream';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool, AgentToolErrorBody, AgentToolResult } from '@session-state/app';

import { packageVersion } from './toolCommand.js';

/** What the server needs: its tools, the protocol's two streams, and how the run is stopped. */
export interface McpServerOptions {
  readonly tools: readonly AgentTool[];
  /** The tools the server could offer but does not (`record` without --allow-write), and why. */
  readonly withheld: Readonly<Record<string, string>>;
  readonly stdin: Readable;
  /** Writes protocol text to stdout; nothing else may ever go there. */
  readonly write: (text: string) => void;
  /** Resolves when stdout's reader has gone. */
  readonly stdoutClosed: Promise<void>;
  /** Calls `stop` on Ctrl-C or SIGTERM; returns the function that stops listening. */
  readonly onInterrupt: (stop: () => void) => () => void;
}

/**
 * Serves `tools` over stdio until the client closes standard input, stdout's reader goes away, or
 * the process is interrupted; resolves once the server has closed. A tool call never fails the
 * server: handlers answer bad input and store failures as tool errors (`isError: true`).
 */
export async function serveMcp(options: McpServerOptions): Promise<void> {
  const { tools, withheld, stdin, write } = options;
  const byName = new Map<string, AgentTool>(tools.map((tool) => [tool.name, tool]));
  const server = new Server({ name: 'session-state', version: packageVersion() }, { capabilities: { tools: {} } });
  const listed = tools.map(({ name, description, inputSchema }): Tool => ({ name, description, inputSchema }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  // Calls still running when the input ends are answered before the server closes.
  const running = new Set<Promise<AgentToolResult>>();
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const tool = byName.get(name);
    if (tool === undefined) {
      // A tool error; the name itself is not echoed (it came from the model).
      const message = (Object.hasOwn(withheld, name) ? withheld[name] : undefined) ?? `no such tool; this server offers ${tools.map((each) => each.name).join(', ')}`;
      const body: AgentToolErrorBody = { error: { code: 'invalid_input', message } };
      return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true } satisfies CallToolResult;
    }
    const call = tool.handler(request.params.arguments ?? {});
    running.add(call);
    try {
      return await call;
    } finally {
      running.delete(call);
    }
  });

  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      write(String(chunk));
      done();
    },
  });
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const disposeInterrupt = options.onInterrupt(stop);
  stdin.once('end', stop);
  stdin.once('close', stop);
  void options.stdoutClosed.then(stop);
  server.onclose = stop;
  try {
    await server.connect(new StdioServerTransport(stdin, stdout));
    await stopped;
    await Promise.all(running);
    // The answers of those calls are written on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    disposeInterrupt();
    stdin.off('end', stop);
    stdin.off('close', stop);
    await server.close();
  }
}

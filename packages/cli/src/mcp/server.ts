// The Model Context Protocol server of `session-state mcp`: the agent's tools (createAgentTools) and the session-state
// resources, on the official SDK's low-level Server (it takes the tools' plain JSON Schemas as they are) behind
// `serveStdio`, which answers the 2025-11-25 handshake and the 2026-07-28 revision (`server/discover`,
// `subscriptions/listen`) alike; the notices a tool answer carries are confirmed once the wire wrote it. Only the `mcp`
// command loads this folder, and so the SDK.
import { Writable, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type RequestId, type Tool } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { AgentTool, AgentToolErrorBody, AgentToolResult, AgentTools, SessionStateAwareness } from '@session-state/app';

import type { RunContext } from '../output/io.js';
import { packageVersion } from '../toolCommand.js';
import { listedResources, orUnavailable, parseUri, readResource, RESOURCE_TEMPLATES } from './resources.js';
import { createSubscriptions } from './subscriptions.js';
import { createWire } from './wire.js';

const INSTRUCTIONS = [
  'session-state tells you when a human or another agent changed a session you watch or delegated to, and shows exactly what changed there.',
  'When a notice says "Reconcile before acting: session_status sessionKey "<target>" changesSince N.", call session_status with those arguments before you act on what you knew about that session.',
].join(' ');

/** How long the server waits, once its input ended, for the answers it still owes. */
const ANSWER_GRACE_MS = 10_000;

/** What the server needs: the facade and its tools, and the run whose streams carry the protocol and whose interrupt stops it. */
export interface McpServerOptions {
  readonly awareness: SessionStateAwareness;
  /** The tools, and the confirmation of the notices an answer carried, once it was written to stdout. */
  readonly agentTools: Pick<AgentTools, 'tools' | 'delivered'>;
  /** The tools the server could offer but does not (`record` without --allow-write), and why. */
  readonly withheld: Readonly<Record<string, string>>;
  /** The watcher the client reconciles for (--reader): its notices are a resource. */
  readonly reader: string | undefined;
  /** The sessions `watcher` watches, sorted: listed as resources beside its notices. */
  readonly watchedBy: (watcher: string) => Promise<readonly string[]>;
  /** Registers the listener the facade's wake calls when a notice is queued. */
  readonly onWake: (listener: () => void) => void;
  readonly stdin: Readable;
  /** Nothing but protocol text goes to its stdout; warnings go to its stderr. */
  readonly run: RunContext;
}

/**
 * Serves the tools and resources over stdio until the client closes standard input, stdout's reader goes away, or the
 * process is interrupted; every request received by then is answered first. A tool call never fails the server:
 * handlers answer bad input and store failures as tool errors (`isError: true`); an unknown tool is a protocol error.
 */
export async function serveMcp(options: McpServerOptions): Promise<void> {
  const { awareness, agentTools, withheld, reader, stdin } = options;
  const { io, out } = options.run;
  const tools = agentTools.tools;
  const byName = new Map<string, AgentTool>(tools.map((tool) => [tool.name, tool]));
  const listed = tools.map(({ name, description, inputSchema, outputSchema, annotations }): Tool => ({ name, description, inputSchema, outputSchema, annotations }));
  const watchedSessions = async (): Promise<readonly string[]> => (reader === undefined ? [] : options.watchedBy(reader));
  // The instance serving the connection (the SDK builds another when a 2026-07-28 probe turns out to be 2025 traffic).
  let server: Server | undefined;
  const subscriptions = createSubscriptions({
    awareness,
    reader,
    watchedSessions,
    updated: (uri) => void server?.sendResourceUpdated({ uri }).catch(() => undefined),
    listChanged: () => void server?.sendResourceListChanged().catch(() => undefined),
    warn: out.note,
  });
  // A notices_wait still waiting when the server stops answers at once.
  const stopping = new AbortController();
  // The answers of tool calls not yet written, and the confirmations of those written.
  const unwritten = new Map<RequestId, AgentToolResult<object>>();
  const confirming = new Set<Promise<void>>();
  /** The answer to `id` ended: written, its notices are confirmed, a turn later (a failed write is reported on the next turn). */
  const ended = (id: RequestId, written: boolean): void => {
    subscriptions.endListen(id);
    const answer = unwritten.get(id);
    unwritten.delete(id);
    if (answer === undefined || !written) return;
    const confirmed = new Promise<void>((resolve) => setImmediate(resolve)).then(() => (out.isClosed() ? undefined : agentTools.delivered(answer)));
    confirming.add(confirmed);
    void confirmed.finally(() => confirming.delete(confirmed));
  };
  options.onWake(() => subscriptions.poke());

  const build = (): Server => {
    const capabilities = { tools: {}, resources: { subscribe: true, listChanged: true } };
    const built = new Server({ name: 'session-state', version: packageVersion() }, { capabilities, instructions: INSTRUCTIONS });
    built.setRequestHandler('tools/list', () => ({ tools: listed }));
    built.setRequestHandler('tools/call', async (request, ctx) => {
      const { name } = request.params;
      const tool = byName.get(name);
      if (tool !== undefined) {
        const result = await tool.handler(request.params.arguments ?? {}, { signal: AbortSignal.any([ctx.mcpReq.signal, stopping.signal]) });
        unwritten.set(ctx.mcpReq.id, result);
        // The call may have recorded an event or acknowledged a notice.
        subscriptions.poke();
        return result;
      }
      // The name itself is not echoed (it came from the model).
      const reason = Object.hasOwn(withheld, name) ? withheld[name] : undefined;
      if (reason === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool; this server offers ${tools.map((each) => each.name).join(', ')}`);
      const body: AgentToolErrorBody = { error: { code: 'not_allowed', message: reason } };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body } satisfies CallToolResult;
    });
    built.setRequestHandler('resources/list', async () => ({ resources: listedResources(reader, await orUnavailable(watchedSessions)) }));
    built.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
    built.setRequestHandler('resources/read', async ({ params: { uri } }) => ({
      contents: [{ uri, mimeType: 'application/json', text: await readResource(awareness, parseUri(uri, reader)) }],
    }));
    built.setRequestHandler('resources/subscribe', async ({ params: { uri } }) => {
      await subscriptions.subscribe(uri);
      return {};
    });
    built.setRequestHandler('resources/unsubscribe', ({ params: { uri } }) => {
      subscriptions.unsubscribe(uri);
      return {};
    });
    server = built;
    return built;
  };

  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!out.isClosed()) io.stdout.write(String(chunk));
      done();
    },
  });
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const disposeInterrupt = io.onInterrupt(stop);
  stdin.once('end', stop);
  stdin.once('close', stop);
  void out.closed.then(stop);
  const wire = createWire(stdin, stdout, { listen: subscriptions.listen, ended }, stop);
  const handle = serveStdio(build, { transport: wire });
  try {
    await stopped;
    stopping.abort();
    // Bounded: a request the SDK itself chose not to answer must not keep the process alive (nor does the unref'd timer).
    await Promise.race([wire.answered(), sleep(ANSWER_GRACE_MS, undefined, { ref: false })]);
    // The last answer is written on the next turn of the event loop, and its notices confirmed after it.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all(confirming);
  } finally {
    disposeInterrupt();
    stdin.off('end', stop);
    stdin.off('close', stop);
    await subscriptions.close();
    await handle.close();
  }
}

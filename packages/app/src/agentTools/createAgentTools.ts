// The entry a gateway or the MCP server calls: the agent's tools over one facade, configured for
// the watcher whose model calls them and for whether writing is allowed.
import type { SessionStateAwareness } from '../api.js';
import { decodeAgentToolsOptions } from '../input/codecs.js';
import type { NamedAgentTool } from './agentTool.js';
import { recordTool } from './recordTool.js';
import { sessionStatusTool } from './sessionStatusTool.js';
import { sessionsListTool } from './sessionsListTool.js';
import { sessionsSendWatch, type SessionsSendWatch } from './sessionsSendWatch.js';

/** Who calls the tools and what they may do. */
export interface AgentToolsOptions {
  /**
   * The watcher session whose model calls these tools. With it, `session_status` reads that reach the head acknowledge its cursor
   * on the target (the notice about what it read is withdrawn); without it every read is read-only.
   */
  readonly reader?: string | undefined;
  /** Offer the `record` tool. Default false: the tools only read. */
  readonly allowWrite?: boolean | undefined;
}

/** The agent's tools: the ones to register as they are, and the watch part of the gateway's own `sessions_send`. */
export interface AgentTools {
  /** `session_status`, `sessions_list`, and `record` when `allowWrite`; `name` tells which answer `handler` resolves with. */
  readonly tools: readonly NamedAgentTool[];
  readonly sessionsSend: SessionsSendWatch;
}

/**
 * The agent's tools over `awareness`. Bad options throw an InvalidInputError here, at setup;
 * the handlers themselves never throw.
 *
 * @example
 * const { tools, sessionsSend } = createAgentTools(awareness, { reader: 'agent:main:main' });
 * for (const tool of tools) gateway.registerTool(tool.name, tool.description, tool.inputSchema, tool.handler);
 */
export function createAgentTools(awareness: SessionStateAwareness, options: AgentToolsOptions = {}): AgentTools {
  const { reader, allowWrite } = decodeAgentToolsOptions(options);
  const tools: NamedAgentTool[] = [sessionStatusTool(awareness, reader), sessionsListTool(awareness)];
  if (allowWrite === true) tools.push(recordTool(awareness));
  return { tools, sessionsSend: sessionsSendWatch(awareness) };
}

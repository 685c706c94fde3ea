// The entry a gateway or the MCP server calls: the agent's tools over one facade, configured for
// the watcher whose model calls them and for whether writing is allowed.
import { invalidInput } from '@session-state/domain';

import type { SessionStateAwareness } from '../api.js';
import { InvalidInputError } from '../errors/errors.js';
import { AgentToolsOptionsInput, decode } from '../input/codecs.js';
import type { AgentTool, AgentToolName, AgentToolResult, NamedAgentTool } from './agentTool.js';
import { noticeDelivery } from './noticeDelivery.js';
import { sessionStatusTool, sessionsListTool } from './readTools.js';
import { recordTool } from './recordTool.js';
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
  /**
   * With `reader`, for an agent no gateway prompts: offer `notices_wait`, and attach the reader's pending notices to every
   * other answer (`notices`, and their lines as a second text block), taken until `delivered(answer)` confirms them.
   */
  readonly notices?: boolean | undefined;
}

/** The agent's tools: the ones to register as they are, and the watch part of the gateway's own `sessions_send`. */
export interface AgentTools {
  /** `session_status`, `sessions_list`, `record` when `allowWrite`, `notices_wait` with `notices`; `name` tells which answer `handler` resolves with. */
  readonly tools: readonly NamedAgentTool[];
  readonly sessionsSend: SessionsSendWatch;
  /** With `notices`: call it from the facade's `wake` port, so a waiting `notices_wait` answers at once. */
  wake(watcherKey: string): void;
  /** With `notices`: the answer reached the model, so the notices it carries are confirmed (never rejects). */
  delivered(answer: AgentToolResult<object>): Promise<void>;
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
  const { reader, allowWrite, notices } = decode(AgentToolsOptionsInput, options, 'createAgentTools.options');
  if (notices === true && reader === undefined) throw new InvalidInputError(invalidInput('createAgentTools.options.notices', notices, 'true only with a reader'));
  const delivery = notices === true && reader !== undefined ? noticeDelivery(awareness, reader) : undefined;
  const carrying = <Name extends AgentToolName>(tool: AgentTool<Name>): AgentTool<Name> => delivery?.attachingTo(tool) ?? tool;
  const tools: NamedAgentTool[] = [carrying(sessionStatusTool(awareness, reader)), carrying(sessionsListTool(awareness))];
  if (allowWrite === true) tools.push(carrying(recordTool(awareness)));
  if (delivery !== undefined) tools.push(delivery.tool);
  return { tools, sessionsSend: sessionsSendWatch(awareness), wake: (key) => delivery?.wake(key), delivered: async (answer) => delivery?.delivered(answer) };
}

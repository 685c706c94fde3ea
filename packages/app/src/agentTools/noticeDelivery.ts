// Notices delivered in the tools' answers, for an agent outside a gateway: `notices_wait` (a long poll) and the
// watcher's pending notices attached to every other answer. Both take the notices (leased) and confirm them only once
// the caller says the answer reached the model (`delivered`): an answer lost on the way gives them back at the lease's end.
import type { Notice, SessionStateAwareness, TakenNotice } from '../api.js';
import { decode, NoticesWaitInput } from '../input/codecs.js';
import { agentTool, objectSchema, READS, type AgentTool, type AgentToolContext, type AgentToolName, type AgentToolResult } from './agentTool.js';
import { NOTICES, NOTICES_WAIT_OUTPUT } from './outputSchemas.js';

const DEFAULT_WAIT_SECONDS = 30;

const NOTICES_WAIT_SCHEMA = objectSchema([], {
  timeoutSeconds: { type: 'integer', minimum: 0, maximum: 300, description: `How long to wait, in seconds: default ${DEFAULT_WAIT_SECONDS}, at most 300; 0 only collects what is pending.` },
});

const DESCRIPTION = [
  'Wait for a notice: returns { notices } as soon as a human or another agent changes a session you watch (at once when notices are pending), or { notices: [] } when timeoutSeconds pass first.',
  'Each notice names the session_status call that reconciles it: make that call before you act on what you knew about that session.',
  "Call it when you are waiting on sessions you delegated to; the other tools' answers also carry pending notices (in notices, and as a second text block).",
].join(' ');

export function noticeDelivery(awareness: SessionStateAwareness, watcher: string) {
  // The notices each answer's JSON carries, taken and not yet confirmed.
  const carried = new WeakMap<object, readonly TakenNotice[]>();
  // The waits to end at the watcher's next wake.
  const waiting = new Set<() => void>();

  const take = async (): Promise<readonly TakenNotice[]> => (awareness.pending(watcher).length === 0 ? [] : awareness.take(watcher));
  const carrying = <Answer extends object>(answer: Answer, taken: readonly TakenNotice[]): Answer & { notices: Notice[] } => {
    const json = { ...answer, notices: taken.map(({ watcher: key, target, changesSince, text }) => ({ watcher: key, target, changesSince, text })) };
    carried.set(json, taken);
    return json;
  };
  /** Resolves at the watcher's next wake, after `ms`, or when `signal` aborts, whichever comes first. */
  const woken = async (ms: number, signal: AbortSignal | undefined): Promise<void> => {
    let done = (): void => undefined;
    await new Promise<void>((resolve) => {
      waiting.add((done = resolve));
      AbortSignal.any([AbortSignal.timeout(ms), ...(signal === undefined ? [] : [signal])]).addEventListener('abort', () => resolve());
    });
    waiting.delete(done);
  };

  const wait = async (input: unknown, context?: AgentToolContext): Promise<{ notices: Notice[] }> => {
    const { timeoutSeconds = DEFAULT_WAIT_SECONDS } = decode(NoticesWaitInput, input, 'notices_wait');
    const signal = context?.signal;
    const aborted = (): boolean => signal?.aborted === true;
    const deadline = Date.now() + timeoutSeconds * 1000;
    let taken = aborted() ? [] : await take();
    while (taken.length === 0 && !aborted() && Date.now() < deadline) {
      await woken(deadline - Date.now(), signal);
      if (!aborted()) taken = await take();
    }
    return carrying({}, taken);
  };

  /** Attaches the notices pending now to `answer`, taken; a failed take attaches none (the facade logged it). */
  const attach = async <Answer extends object>(answer: AgentToolResult<Answer>): Promise<AgentToolResult<Answer>> => {
    const taken = await take().catch(() => []);
    if (taken.length === 0) return answer;
    const lines = { type: 'text', text: taken.map((notice) => notice.text).join('\n') } as const;
    const [json] = answer.content;
    return answer.isError
      ? { isError: true, content: [json, lines], structuredContent: carrying(answer.structuredContent, taken) }
      : { isError: false, content: [json, lines], structuredContent: carrying(answer.structuredContent, taken) };
  };

  return {
    tool: agentTool({ name: 'notices_wait', description: DESCRIPTION, inputSchema: NOTICES_WAIT_SCHEMA, outputSchema: NOTICES_WAIT_OUTPUT, annotations: READS }, wait),
    /** `tool` whose answers carry the notices pending when they are built. */
    attachingTo: <Name extends AgentToolName>(tool: AgentTool<Name>): AgentTool<Name> => ({
      ...tool,
      outputSchema: { ...tool.outputSchema, properties: { ...tool.outputSchema.properties, notices: NOTICES } },
      handler: async (input, context) => attach(await tool.handler(input, context)),
    }),
    wake(watcherKey: string): void {
      if (watcherKey === watcher) for (const done of waiting) done();
    },
    async delivered(answer: AgentToolResult<object>): Promise<void> {
      const taken = carried.get(answer.structuredContent) ?? [];
      carried.delete(answer.structuredContent);
      if (taken.length > 0) await awareness.confirm(watcher, taken).catch(() => undefined);
    },
  };
}

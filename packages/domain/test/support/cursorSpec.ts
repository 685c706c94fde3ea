// Fixtures for cursor tests: the cursor decider of one watcher as a specification, its inputs in
// a compact form (a seed is a spawn-edge watch, an event is observed by the watcher), and the
// cursor events and cursors the tests expect.
import { decide, evolve, isCursorEvent, type Cursor, type CursorCommand, type CursorDecision, type CursorEvent, type CursorNotice, type CursorState, type EndReason } from '../../src/cursor/cursor.js';
import { sameCursor } from '../../src/cursor/plans.js';
import type { EventKind } from '../../src/input/eventKind.js';
import { asSequence, type Sequence } from '../../src/log/sequence.js';
import { noticeText, toNotice, type Notice } from '../../src/notice.js';
import { specificationFor, type Specification } from './specification.js';

export const WATCHER = 'agent:main:main';
export const TARGET = 'agent:main:subagent:child-7';
export const OTHER = 'agent:ops:main';

export const seq = (n: number): Sequence => asSequence(n);

/** A test input: the commands of `decide`, with a spawn edge as `seed` and a target event as `event`. */
export type CursorTestInput =
  | { readonly type: 'seed'; readonly at: Sequence }
  | { readonly type: 'event'; readonly sequence: Sequence; readonly kind: EventKind; readonly actorSessionKey?: string }
  | Exclude<CursorCommand, { readonly type: 'observe' }>;

/** The command a test input stands for, for the cursor of `watcher`. */
export function commandOf(watcher: string, input: CursorTestInput): CursorCommand {
  if (input.type === 'seed') return { type: 'watch', at: input.at, via: 'spawn' };
  if (input.type === 'event') return { ...input, type: 'observe', watcher };
  return input;
}

/**
 * What one input produced, in the planners' terms: the journalled cursor events, the cursor after
 * all decided events, whether its row changes, a drain's result, and the notice decide named.
 */
export interface CursorResult {
  readonly events: readonly CursorEvent[];
  readonly cursor: CursorState;
  readonly changed: boolean;
  readonly drain?: 'acked' | 'stale';
  readonly notice?: CursorNotice;
}

/** The result of a decision on `state` for `command`. */
export function resultOf(command: CursorCommand, state: CursorState, decision: CursorDecision = decide(command, state)): CursorResult {
  const cursor = decision.events.reduce(evolve, state);
  const events = decision.events.filter(isCursorEvent);
  const result: { -readonly [K in keyof CursorResult]: CursorResult[K] } = { events, cursor, changed: !sameCursor(state, cursor) };
  if (command.type === 'drain') result.drain = events.length > 0 ? 'acked' : 'stale';
  if (decision.notice !== undefined) result.notice = decision.notice;
  return result;
}

/** One step of the cursor of `watcher`. */
export const stepOf = (watcher: string, state: CursorState, input: CursorTestInput): CursorResult => resultOf(commandOf(watcher, input), state);

/** The cursor of `watcher` driven by decide and evolve, starting with no cursor. */
export function cursorSpec(watcher: string = WATCHER): Specification<CursorTestInput, CursorResult> {
  return specificationFor<CursorState, CursorTestInput, CursorResult>({
    initial: undefined,
    step: (state, input) => stepOf(watcher, state, input),
    stateAfter: (_state, step) => step.cursor,
  });
}

/** The queue's notice a result asks for on the pair. */
/** The notice a step names, with the text the queue builds for it from its target and acked. */
export const noticeOf = (watcher: string, target: string, result: { readonly notice?: CursorNotice } | undefined): (Notice & { readonly text: string }) | undefined =>
  result?.notice === undefined ? undefined : { ...toNotice(watcher, target, result.notice), text: noticeText(target, result.notice.acked) };

/** The notice a cursor holds, as the owner's re-read after a signal offers it. */
export const heldNoticeOf = (watcher: string, target: string, cursor: Cursor): ReturnType<typeof noticeOf> => noticeOf(watcher, target, decide({ type: 'reread' }, cursor));

export const seed = (at: number): CursorTestInput => ({ type: 'seed', at: seq(at) });

export const event = (sequence: number, kind: EventKind, actorSessionKey?: string): CursorTestInput => ({
  type: 'event',
  sequence: seq(sequence),
  kind,
  ...(actorSessionKey !== undefined ? { actorSessionKey } : {}),
});

/** A notifying event by someone other than the watcher. */
export const foreign = (sequence: number, kind: EventKind = 'human_direct_message'): CursorTestInput =>
  event(sequence, kind, OTHER);

export const drain = (notified: number): CursorTestInput => ({ type: 'drain', notified: seq(notified) });

export const restartScan: CursorTestInput = { type: 'restartScan' };

export const end = (reason: EndReason): CursorTestInput => ({ type: 'end', reason });

/** The watcher's own status read from `since` that reached the head `through`. */
export const read = (since: number, through: number): CursorTestInput => ({ type: 'read', since: seq(since), through: seq(through) });

export const idle = (acked: number): Cursor => ({ status: 'idle', acked: seq(acked) });

export const pending = (acked: number, notified: number, material: number): Cursor => ({
  status: 'pending',
  acked: seq(acked),
  notified: seq(notified),
  material: seq(material),
});

export const started = (at: number, via: 'spawn' | 'watch' | 'ambient' = 'spawn'): CursorEvent => ({ type: 'watch_started', via, at: seq(at) });
export const raised = (acked: number, notified: number): CursorEvent => ({ type: 'notice_raised', acked: seq(acked), notified: seq(notified) });
export const acknowledged = (acked: number): CursorEvent => ({ type: 'notice_acknowledged', acked: seq(acked) });
export const reopened = (acked: number, notified: number): CursorEvent => ({ type: 'notice_reopened', acked: seq(acked), notified: seq(notified) });
export const recovered = (acked: number, notified: number): CursorEvent => ({ type: 'notice_recovered', acked: seq(acked), notified: seq(notified) });
export const ended = (reason: EndReason): CursorEvent => ({ type: 'watch_ended', reason });
export const noticeRead = (acked: number, notified: number): CursorEvent => ({ type: 'notice_read', acked: seq(acked), notified: seq(notified) });

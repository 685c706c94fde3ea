// Plans one append: the stored event, the cursor rows it moves or seeds, their journal and notices.
import { notifies, toWatermarks, type Watermarks } from '../cursor/cursor.js';
import { stepPair } from '../cursor/plans.js';
import type { CursorJournalRecord } from '../cursor/journal.js';
import type { StoredEvent } from './event.js';
import type { Notice } from '../notice.js';
import type { Payload } from '../input/payload.js';
import type { AppendCommand } from '../input/recordInput.js';
import { ZERO, type Sequence } from './sequence.js';
import type { SessionKey } from '../input/sessionKey.js';

/** A durable cursor row: the pair, its watermarks, and when a watermark was last written. */
export interface CursorRow extends Watermarks {
  readonly watcher: SessionKey;
  readonly target: SessionKey;
  readonly touchedAt: number;
}

export interface AppendPlan {
  readonly event: StoredEvent;
  /** Rows to upsert, each with `touchedAt` = the append time. */
  readonly cursorWrites: readonly CursorRow[];
  /** Journal entries to append in the same transaction, in order. */
  readonly journal: readonly CursorJournalRecord[];
  readonly notices: readonly Notice[];
}

export interface AppendPlanInput {
  readonly command: AppendCommand;
  /** The sequence the store assigned; it must exceed the session's head. */
  readonly sequence: Sequence;
  readonly appendedAt: number;
  /** Every cursor whose target is `command.sessionKey`. */
  readonly cursorsOnTarget: readonly CursorRow[];
  /** For a spawn edge: the parent whose cursor on this session is seeded at the event. */
  readonly seedWatcher?: SessionKey;
  /** The session's head before the event, where a named watcher's new cursor starts: needed when `command.watchers` is given. */
  readonly headBefore?: Sequence;
  /** The event's `occurredAt` when the store already built it (the default is derived from `appendedAt`). */
  readonly occurredAt?: string;
  /** The store's own copy of the command's payload, for the event (the default is the command's). */
  readonly payload?: Payload;
}

/** The event a command becomes once the store has given it a sequence. */
export function toStoredEvent(
  command: AppendCommand,
  sequence: Sequence,
  appendedAt: number,
  occurredAt: string = command.occurredAt ?? new Date(appendedAt).toISOString(),
  payload: Payload | undefined = command.payload,
): StoredEvent {
  const event: { -readonly [K in keyof StoredEvent]: StoredEvent[K] } = {
    sessionKey: command.sessionKey,
    sequence,
    kind: command.kind,
    actorType: command.actorType,
    summary: command.summary,
    occurredAt,
    appendedAt,
  };
  if (command.actorSessionKey !== undefined) event.actorSessionKey = command.actorSessionKey;
  if (payload !== undefined) event.payload = payload;
  if (command.dedupeKey !== undefined) event.dedupeKey = command.dedupeKey;
  return event;
}

/** Plans one append: every cursor on the target observes the event (a named watcher without one first watches at `headBefore`); a spawn edge seeds the parent's cursor. */
export function planAppend(input: AppendPlanInput): AppendPlan {
  const { command, sequence, appendedAt, seedWatcher } = input;
  const { kind, actorSessionKey } = command;
  const event = toStoredEvent(command, sequence, appendedAt, input.occurredAt, input.payload);
  const plan = { event, cursorWrites: [] as CursorRow[], journal: [] as CursorJournalRecord[], notices: [] as Notice[] };
  const named = command.watchers === undefined ? undefined : new Set(command.watchers);
  const observe = (row: CursorRow, started: readonly CursorJournalRecord[] = []): void => {
    const step = stepPair(row, row, { type: 'observe', watcher: row.watcher, sequence, kind, ...(actorSessionKey !== undefined ? { actorSessionKey } : {}) }, appendedAt);
    if (step.write !== undefined) plan.cursorWrites.push(step.write);
    plan.journal.push(...started, ...step.journal);
    if (step.notice !== undefined) plan.notices.push(step.notice);
  };
  let seedRow: CursorRow | undefined;
  for (const row of input.cursorsOnTarget) {
    named?.delete(row.watcher);
    if (row.watcher === seedWatcher) seedRow = row;
    else observe(row);
  }
  for (const watcher of named ?? []) {
    if (!notifies(watcher, command)) continue;
    const start = stepPair({ watcher, target: command.sessionKey }, undefined, { type: 'watch', at: input.headBefore ?? ZERO, via: 'watch' }, appendedAt);
    if (start.write !== undefined) observe(start.write, start.journal);
  }
  if (seedWatcher !== undefined) {
    const seed = stepPair({ watcher: seedWatcher, target: command.sessionKey }, seedRow, { type: 'watch', at: sequence, via: 'spawn' }, appendedAt);
    if (seed.after !== undefined) plan.cursorWrites.push({ watcher: seedWatcher, target: command.sessionKey, ...toWatermarks(seed.after), touchedAt: appendedAt });
    plan.journal.push(...seed.journal);
  }
  return plan;
}

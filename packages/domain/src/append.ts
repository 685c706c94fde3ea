// Plans one append: the stored event, the cursor rows it moves (or seeds), their journal entries
// and the notices it asks for. Every store adapter calls it inside its own transaction, so the
// rules live once.
import { fromWatermarks, noticeFor, stepCursor, toWatermarks, type Cursor, type CursorCommand, type Watermarks } from './cursor';
import { journalRecords, type CursorJournalRecord } from './cursorJournal';
import type { StoredEvent } from './event';
import { noticeTextMemo, type Notice } from './notice';
import type { Payload } from './payload';
import type { AppendCommand } from './recordInput';
import type { Sequence } from './sequence';
import type { SessionKey } from './sessionKey';

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
  /**
   * Journal entries to append in the same transaction, in order: a `notice_raised` per idle
   * cursor the event notifies, and for a spawn edge the seeded watch (`watch_started` via
   * spawn, after a `watch_ended` replaced when the parent had a cursor). A pending cursor whose
   * material the event raises gets none.
   */
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
  /** The event's `occurredAt` when the store already built it (the default is derived from `appendedAt`). */
  readonly occurredAt?: string;
}

/**
 * The event a command becomes once the store has given it a sequence. A store that keeps its own
 * copy of the payload, or has the default `occurredAt` string at hand, passes them in.
 */
export function toStoredEvent(
  command: AppendCommand,
  sequence: Sequence,
  appendedAt: number,
  occurredAt: string = command.occurredAt ?? new Date(appendedAt).toISOString(),
  payload: Payload | undefined = command.payload,
): StoredEvent {
  // Built by assignment rather than conditional spreads: this runs once per append (hot path).
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

const NO_JOURNAL: readonly CursorJournalRecord[] = [];

type ObserveCommand = Extract<CursorCommand, { readonly type: 'observe' }>;

export function planAppend(input: AppendPlanInput): AppendPlan {
  const { command, sequence, appendedAt } = input;
  const event = toStoredEvent(command, sequence, appendedAt, input.occurredAt);
  const cursorWrites: CursorRow[] = [];
  const notices: Notice[] = [];
  let journal: CursorJournalRecord[] | undefined;
  let seedRow: CursorRow | undefined;
  // Every notice of this plan is on one target, and watchers raised by the same event share acked.
  const textOf = noticeTextMemo();
  for (const row of input.cursorsOnTarget) {
    if (row.watcher === input.seedWatcher) {
      seedRow = row;
      continue;
    }
    const before = fromWatermarks(row);
    // Built by assignment, as the rest of this loop: it runs once per watcher on the target.
    const observe: { -readonly [K in keyof ObserveCommand]: ObserveCommand[K] } = { type: 'observe', watcher: row.watcher, sequence, kind: command.kind };
    if (command.actorSessionKey !== undefined) observe.actorSessionKey = command.actorSessionKey;
    const step = stepCursor(observe, before);
    if (step.changed && step.cursor !== undefined) {
      const moved = toWatermarks(step.cursor);
      cursorWrites.push({ watcher: row.watcher, target: row.target, acked: moved.acked, notified: moved.notified, material: moved.material, touchedAt: appendedAt });
    }
    if (step.events.length > 0) (journal ??= []).push(...journalRecords(row.watcher, row.target, before, step.events, appendedAt));
    const notice = noticeFor(row.watcher, row.target, step, textOf);
    if (notice !== undefined) notices.push(notice);
  }
  if (input.seedWatcher !== undefined) {
    const before: Cursor | undefined = seedRow === undefined ? undefined : fromWatermarks(seedRow);
    const step = stepCursor({ type: 'watch', at: sequence, via: 'spawn' }, before);
    // A spawn-edge watch always leaves a cursor (decide starts one whatever was there).
    if (step.cursor !== undefined) {
      cursorWrites.push({ watcher: input.seedWatcher, target: command.sessionKey, ...toWatermarks(step.cursor), touchedAt: appendedAt });
    }
    (journal ??= []).push(...journalRecords(input.seedWatcher, command.sessionKey, before, step.events, appendedAt));
  }
  return { event, cursorWrites, journal: journal ?? NO_JOURNAL, notices };
}

// Plans one append: the stored event, the cursor rows it moves (or seeds), their journal entries
// and the notices it asks for. Every store adapter calls it inside its own transaction, so the
// rules live once.
import { fromWatermarks, materialOrAcked, noticeFor, notifiedOf, stepCursor, toWatermarks, type Cursor, type CursorCommand, type Watermarks } from '../cursor/cursor.js';
import { journalRecords, type CursorJournalRecord } from '../cursor/journal.js';
import type { StoredEvent } from './event.js';
import { noticeTextMemo, type Notice, type NoticeTextOf } from '../notice.js';
import type { Payload } from '../input/payload.js';
import type { AppendCommand } from '../input/recordInput.js';
import type { Sequence } from './sequence.js';
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
  /** The store's own copy of the command's payload, for the event (the default is the command's). */
  readonly payload?: Payload;
  /**
   * Builds the notices' texts (noticeText by default, through a memo per plan). A store passes
   * one memo it keeps for its life (noticeTextRecent), so a record on a target whose watchers
   * stay pending reuses the text the last one built.
   */
  readonly noticeText?: NoticeTextOf;
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
const NO_CURSOR_WRITES: readonly CursorRow[] = Object.freeze([]);
const NO_NOTICES: readonly Notice[] = Object.freeze([]);

type ObserveCommand = { -readonly [K in keyof Extract<CursorCommand, { readonly type: 'observe' }>]: Extract<CursorCommand, { readonly type: 'observe' }>[K] };

// The loop below runs once per watcher on the target per append: it builds no array until it
// has something to put in it (most appends move one or two rows and raise one or two notices),
// no watermark object per moved row, and one observe command per plan.
export function planAppend(input: AppendPlanInput): AppendPlan {
  const { command, sequence, appendedAt } = input;
  const event = toStoredEvent(command, sequence, appendedAt, input.occurredAt, input.payload);
  let cursorWrites: CursorRow[] | undefined;
  let notices: Notice[] | undefined;
  let journal: CursorJournalRecord[] | undefined;
  let seedRow: CursorRow | undefined;
  // Every notice of this plan is on one target, and watchers raised by the same event share acked.
  let textOf = input.noticeText;
  // One command for every watcher of the plan, its watcher set per row: stepCursor only reads it.
  let observe: ObserveCommand | undefined;
  const rows = input.cursorsOnTarget;
  // Indexed, not for…of: no iterator object per plan.
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i] as CursorRow;
    if (row.watcher === input.seedWatcher) {
      seedRow = row;
      continue;
    }
    const before = fromWatermarks(row);
    if (observe === undefined) {
      observe = { type: 'observe', watcher: row.watcher, sequence, kind: command.kind };
      if (command.actorSessionKey !== undefined) observe.actorSessionKey = command.actorSessionKey;
    } else observe.watcher = row.watcher;
    const step = stepCursor(observe, before);
    const moved = step.cursor;
    if (step.changed && moved !== undefined) {
      const write: CursorRow = { watcher: row.watcher, target: row.target, acked: moved.acked, notified: notifiedOf(moved), material: materialOrAcked(moved), touchedAt: appendedAt };
      if (cursorWrites === undefined) cursorWrites = [write];
      else cursorWrites.push(write);
    }
    if (step.events.length > 0) (journal ??= []).push(...journalRecords(row.watcher, row.target, before, step.events, appendedAt));
    if (step.notice !== undefined) {
      const notice = noticeFor(row.watcher, row.target, step, (textOf ??= noticeTextMemo())) as Notice;
      if (notices === undefined) notices = [notice];
      else notices.push(notice);
    }
  }
  if (input.seedWatcher !== undefined) {
    const before: Cursor | undefined = seedRow === undefined ? undefined : fromWatermarks(seedRow);
    const step = stepCursor({ type: 'watch', at: sequence, via: 'spawn' }, before);
    // A spawn-edge watch always leaves a cursor (decide starts one whatever was there).
    if (step.cursor !== undefined) {
      (cursorWrites ??= []).push({ watcher: input.seedWatcher, target: command.sessionKey, ...toWatermarks(step.cursor), touchedAt: appendedAt });
    }
    (journal ??= []).push(...journalRecords(input.seedWatcher, command.sessionKey, before, step.events, appendedAt));
  }
  return { event, cursorWrites: cursorWrites ?? NO_CURSOR_WRITES, journal: journal ?? NO_JOURNAL, notices: notices ?? NO_NOTICES };
}

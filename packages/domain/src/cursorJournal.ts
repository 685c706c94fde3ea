// The cursor journal: each cursor event a store operation decides, stored with its pair, its
// clock time and the cursor's watermarks after it, so the cursor row is a snapshot that replay
// can rebuild and an operator can read (`explainPair`). Also the stored-row shape every adapter
// writes and reads back.
import * as E from 'fp-ts/Either';

import { CursorEvent, evolve, toWatermarks, type CursorState, type Watermarks } from './cursor';
import type { CorruptRowSink } from './ports/corruptRow.port';
import { asSequence, isSequence } from './sequence';
import type { SessionKey } from './sessionKey';

// --- entries -------------------------------------------------------------------------------

/**
 * One entry a planner asks a store to append (in the same transaction as the cursor row). The
 * watermarks are the cursor's AFTER the event; for `watch_ended`, the ones it had when it ended.
 */
export interface CursorJournalRecord extends Watermarks {
  readonly watcher: SessionKey;
  readonly target: SessionKey;
  readonly event: CursorEvent;
  /** The clock time of the operation (the `now` or `appendedAt` it was given). */
  readonly recordedAt: number;
}

/** A stored entry: the record and its position, which orders the whole journal (append order). */
export interface CursorJournalEntry extends CursorJournalRecord {
  readonly position: number;
}

/**
 * The records of `events` decided for one pair whose cursor was `before`: each carries the
 * watermarks after folding it (the last ones before a `watch_ended`).
 */
export function journalRecords(
  watcher: SessionKey,
  target: SessionKey,
  before: CursorState,
  events: readonly CursorEvent[],
  recordedAt: number,
): CursorJournalRecord[] {
  const records: CursorJournalRecord[] = [];
  let state = before;
  for (const event of events) {
    const after = evolve(state, event);
    const shown = after ?? state;
    // A watch_ended on a pair without a cursor is never decided; zeros keep the type total.
    const w = shown === undefined ? { acked: asSequence(0), notified: asSequence(0), material: asSequence(0) } : toWatermarks(shown);
    records.push({ watcher, target, event, acked: w.acked, notified: w.notified, material: w.material, recordedAt });
    state = after;
  }
  return records;
}

// --- the stored row -------------------------------------------------------------------------

/**
 * The column order of a journal insert (`cursor_journal` without its position): the event's
 * type, `reason` (watch_ended) and `via` (watch_started) or null, the watermarks after the
 * event, and the clock time. Every other event field is one of the watermarks (see
 * `eventOfColumns`), so nothing else is stored.
 */
export type CursorJournalValues = [
  watcher: string,
  target: string,
  type: string,
  reason: string | null,
  via: string | null,
  acked: number,
  notified: number,
  material: number,
  recordedAt: number,
];

/** The column order of a journal select: the position, then CursorJournalValues. */
export type StoredCursorJournalValues = [position: number, ...values: CursorJournalValues];

/** A record as the values of one insert, in CursorJournalValues order. */
export function cursorJournalValues(record: CursorJournalRecord): CursorJournalValues {
  const { event } = record;
  return [
    record.watcher,
    record.target,
    event.type,
    event.type === 'watch_ended' ? event.reason : null,
    event.type === 'watch_started' ? event.via : null,
    record.acked,
    record.notified,
    record.material,
    record.recordedAt,
  ];
}

/** The event a row stores, rebuilt from its columns (unchecked: the codec decides). */
function eventOfColumns(type: unknown, reason: unknown, via: unknown, acked: unknown, notified: unknown, material: unknown): unknown {
  switch (type) {
    case 'watch_started':
      return { type, via, at: acked };
    case 'notice_raised':
    case 'notice_reopened':
    case 'notice_recovered':
      return { type, acked, notified };
    case 'notice_acknowledged':
      return { type, acked };
    case 'material_kept':
      return { type, material };
    case 'watch_ended':
      return { type, reason };
    default:
      return { type };
  }
}

type CheckedRow = { readonly ok: true; readonly entry: CursorJournalEntry } | { readonly ok: false; readonly reason: string };

function checkJournalRow(row: readonly unknown[]): CheckedRow {
  const [position, watcher, target, type, reason, via, acked, notified, material, recordedAt] = row;
  if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 1) return { ok: false, reason: 'position is not a positive integer' };
  if (typeof watcher !== 'string' || typeof target !== 'string') return { ok: false, reason: 'watcher or target is not text' };
  if (!isSequence(acked) || !isSequence(notified) || !isSequence(material)) return { ok: false, reason: 'a watermark is not a non-negative integer' };
  if (!(acked <= notified && notified <= material)) return { ok: false, reason: 'watermarks are out of order' };
  if (typeof recordedAt !== 'number' || !Number.isFinite(recordedAt)) return { ok: false, reason: 'recorded_at is not a number' };
  const event = CursorEvent.decode(eventOfColumns(type, reason, via, acked, notified, material));
  if (E.isLeft(event)) return { ok: false, reason: 'not a known cursor event with its fields' };
  return {
    ok: true,
    entry: {
      position,
      watcher: watcher as SessionKey,
      target: target as SessionKey,
      event: event.right,
      acked: asSequence(acked),
      notified: asSequence(notified),
      material: asSequence(material),
      recordedAt,
    },
  };
}

/**
 * Why a stored journal row (StoredCursorJournalValues) cannot be used, or undefined when it is
 * sound: a positive integer position, text pair, watermarks in order, a numeric clock time, and
 * a known event type with its fields. The reason names no stored value.
 */
export function storedJournalProblem(row: readonly unknown[]): string | undefined {
  const checked = checkJournalRow(row);
  return checked.ok ? undefined : checked.reason;
}

/**
 * A stored journal row as an entry, or undefined after reporting it to `sink` (naming the
 * operation and the failed check) when `storedJournalProblem` refuses it.
 */
export function decodeStoredJournalEntry(sink: CorruptRowSink, operation: string, row: readonly unknown[]): CursorJournalEntry | undefined {
  const checked = checkJournalRow(row);
  if (checked.ok) return checked.entry;
  sink.onCorruptRow({ operation, table: 'cursor_journal', reason: checked.reason });
  return undefined;
}

/** The sound rows of a journal select, in order; each corrupt one is reported to `sink` and left out. */
export function decodeStoredJournalEntries(sink: CorruptRowSink, operation: string, rows: readonly (readonly unknown[])[]): CursorJournalEntry[] {
  const entries: CursorJournalEntry[] = [];
  for (const row of rows) {
    const entry = decodeStoredJournalEntry(sink, operation, row);
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

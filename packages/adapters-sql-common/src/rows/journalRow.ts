// A cursor journal entry as a SQL row: one insert's named values, and a stored row read back with the checks both adapters share.
import { asSequence, CursorEvent, lease, watchClass, type CorruptRowSink, type CursorJournalEntry, type CursorJournalRecord, type SessionKey } from '@session-state/domain';

import { storedLeaseProblem, storedWatermarksProblem } from './storedRow.js';

/** The named values of a journal insert: the event's type, `reason` and `via` or null, the watermarks and class (1: ambient) after it, the time. */
export interface JournalParams {
  readonly watcher: string;
  readonly target: string;
  readonly type: string;
  readonly reason: string | null;
  readonly via: string | null;
  readonly acked: number;
  readonly notified: number;
  readonly material: number;
  readonly recordedAt: number;
  readonly takenUntil: number | null;
  readonly ambient: number;
}

export function journalParams(record: CursorJournalRecord): JournalParams {
  const { event } = record;
  const reason = event.type === 'watch_ended' ? event.reason : null;
  const via = event.type === 'watch_started' ? event.via : null;
  return { watcher: record.watcher, target: record.target, type: event.type, reason, via, acked: record.acked, notified: record.notified, material: record.material, recordedAt: record.recordedAt, takenUntil: record.takenUntil ?? null, ambient: record.ambient === true ? 1 : 0 };
}

/** The event a row stores, rebuilt from its columns (unchecked: the codec decides, and refuses an unknown type). */
function eventOfColumns(type: unknown, reason: unknown, via: unknown, acked: unknown, notified: unknown, material: unknown, takenUntil: unknown): unknown {
  if (type === 'watch_started') return { type, via, at: acked };
  if (type === 'notice_acknowledged') return { type, acked };
  if (type === 'notice_taken') return { type, acked, notified, material, until: takenUntil };
  if (type === 'lease_expired' || type === 'watch_promoted') return { type };
  if (type === 'material_kept') return { type, material };
  if (type === 'watch_ended') return { type, reason };
  return { type, acked, notified };
}

type CheckedRow = { readonly ok: true; readonly entry: CursorJournalEntry } | { readonly ok: false; readonly reason: string };

/** The entry a stored journal row holds, or why it cannot be used (position, pair, watermarks in order, time, a known event). */
function checkJournalRow(row: readonly unknown[]): CheckedRow {
  const [position, watcher, target, type, reason, via, acked, notified, material, recordedAt, takenUntil, ambient] = row;
  if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 1) return { ok: false, reason: 'position is not a positive integer' };
  const problem = storedWatermarksProblem([watcher, target, acked, notified, material]);
  if (problem !== undefined) return { ok: false, reason: problem };
  if (typeof recordedAt !== 'number' || !Number.isFinite(recordedAt)) return { ok: false, reason: 'recorded_at is not a number' };
  const leaseProblem = storedLeaseProblem(takenUntil);
  if (leaseProblem !== undefined) return { ok: false, reason: leaseProblem };
  const event = CursorEvent.decode(eventOfColumns(type, reason, via, acked, notified, material, takenUntil));
  if (event._tag === 'Left') return { ok: false, reason: 'not a known cursor event with its fields' };
  const pair = { watcher: watcher as SessionKey, target: target as SessionKey };
  const watermarks = { acked: asSequence(acked as number), notified: asSequence(notified as number), material: asSequence(material as number), ...lease(takenUntil as number | null), ...watchClass(ambient) };
  return { ok: true, entry: { position, ...pair, event: event.right, ...watermarks, recordedAt } };
}

/** A stored journal row as an entry, or undefined after reporting a refused row to `sink`. */
export function decodeStoredJournalEntry(sink: CorruptRowSink, operation: string, row: readonly unknown[]): CursorJournalEntry | undefined {
  const checked = checkJournalRow(row);
  if (checked.ok) return checked.entry;
  sink.onCorruptRow({ operation, table: 'cursor_journal', reason: checked.reason });
  return undefined;
}

/** The sound rows of a journal select, in order; each corrupt one is reported to `sink` and left out. */
export function decodeStoredJournalEntries(sink: CorruptRowSink, operation: string, rows: readonly (readonly unknown[])[]): CursorJournalEntry[] {
  return rows.flatMap((row) => decodeStoredJournalEntry(sink, operation, row) ?? []);
}

// A cursor journal entry as a SQL row: the named values of its insert, laid out in the select's
// column order, read back unchanged; a corrupt row is refused and reported, never its content.
import { describe, expect, test } from '@jest/globals';
import { asSequence, journalRecords, type CorruptRowInfo, type CursorEvent, type CursorJournalEntry, type SessionKey } from '@session-state/domain';

import { JOURNAL_FIELDS } from '../src/sql/tables.js';
import { decodeStoredJournalEntry, journalParams } from '../src/rows/journalRow.js';

const W = 'agent:main:main' as SessionKey;
const T = 'agent:main:subagent:child-7' as SessionKey;
const T0 = Date.UTC(2026, 10, 29, 10);
const seq = asSequence;

/** One event of every type, in an order a pair can live through. */
const HISTORY: readonly CursorEvent[] = [
  { type: 'watch_started', via: 'watch', at: seq(2) },
  { type: 'notice_raised', acked: seq(2), notified: seq(4) },
  { type: 'notice_reopened', acked: seq(4), notified: seq(7) },
  { type: 'material_kept', material: seq(10) },
  { type: 'notice_recovered', acked: seq(4), notified: seq(10) },
  { type: 'notice_acknowledged', acked: seq(10) },
  { type: 'watch_ended', reason: 'expired' },
];

/** A pair's journal as the planners would write it, with positions from 1. */
function journalOf(events: readonly CursorEvent[]): CursorJournalEntry[] {
  return journalRecords(W, T, undefined, events, T0).map((record, i) => ({ ...record, position: i + 1 }));
}

/** The row a journal select gives for a stored entry: its position, then its insert's values, in JOURNAL_FIELDS order. */
function storedRowOf(entry: CursorJournalEntry): unknown[] {
  const params: Record<string, unknown> = { ...journalParams(entry), position: entry.position };
  return JOURNAL_FIELDS.map((field) => params[field]);
}

describe('stored journal rows', () => {
  test('every event survives journalParams, laid out in JOURNAL_FIELDS order, and decodeStoredJournalEntry unchanged', () => {
    const sink = { onCorruptRow: (info: CorruptRowInfo) => reports.push(info) };
    const reports: CorruptRowInfo[] = [];
    for (const entry of journalOf(HISTORY)) {
      expect(decodeStoredJournalEntry(sink, 'readCursorJournal', storedRowOf(entry))).toStrictEqual(entry);
    }
    expect(reports).toStrictEqual([]);
  });

  test.each([
    [[0, W, T, 'watch_started', null, 'spawn', 3, 3, 3, T0, null], 'position is not a positive integer'],
    [[1, W, 7, 'watch_started', null, 'spawn', 3, 3, 3, T0, null], 'watcher or target is not text'],
    [[1, W, T, 'notice_raised', null, null, 5, 3, 3, T0, null], 'watermarks are out of order'],
    [[1, W, T, 'notice_raised', null, null, -1, 3, 3, T0, null], 'a watermark is not a non-negative integer'],
    [[1, W, T, 'notice_raised', null, null, 3, 5, 5, 'x', null], 'recorded_at is not a number'],
    [[1, W, T, 'notice_exploded', null, null, 3, 5, 5, T0, null], 'not a known cursor event with its fields'],
    [[1, W, T, 'watch_started', null, 'teleport', 3, 3, 3, T0, null], 'not a known cursor event with its fields'],
    [[1, W, T, 'watch_ended', 'bored', null, 3, 3, 3, T0, null], 'not a known cursor event with its fields'],
    [[1, W, T, 'notice_taken', null, null, 3, 5, 5, T0, null], 'not a known cursor event with its fields'],
    [[1, W, T, 'notice_taken', null, null, 3, 5, 5, T0, 'soon'], 'taken_until is not a number'],
  ])('a corrupt row %j is refused and reported: %s', (row, reason) => {
    const reports: CorruptRowInfo[] = [];
    expect(decodeStoredJournalEntry({ onCorruptRow: (info) => reports.push(info) }, 'readCursorJournal', row)).toBeUndefined();
    expect(reports).toStrictEqual([{ operation: 'readCursorJournal', table: 'cursor_journal', reason }]);
  });

});

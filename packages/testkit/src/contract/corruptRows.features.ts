// The corrupt-row policy: a stored row a store cannot decode (a damaged file, a hand-edited
// database) is never used and never thrown: the operation skips it, reports it through
// `onCorruptRow` by table, sequence and reason (never its content), and goes on with the sound rows.
// A harness without `corrupt` is not checked here.
import { expect } from 'expect';

import type { CorruptRowInfo, StateStore } from '@session-state/domain';

import { CORRUPT_CONTENT, corruptReason, type RowDamage } from '../stores.js';
import { heldNotices, restartScanAll, T0, key, A, B, command, foreign, request, appendMany, readAll, seqs, type Suite } from './fixtures.js';

const WATCHER = key('agent:w:main');
const OTHER = key('agent:o:main');

export function describeCorruptRows(s: Suite): void {
  const { describe, test } = s.runner;
  const { store } = s;

  /** How the test's harness damages a row, and what its stores reported; undefined when it cannot damage rows. */
  function damaging(): { readonly corrupt: (row: RowDamage) => Promise<void>; readonly reports: CorruptRowInfo[] } | undefined {
    const harness = s.harness();
    return harness.corrupt === undefined || harness.corruptRows === undefined ? undefined : { corrupt: harness.corrupt.bind(harness), reports: harness.corruptRows };
  }

  /** `count` changes to A, their sequences; then each damage at its index. */
  async function damagedEvents(count: number, damages: readonly (readonly [number, 'kind' | 'actor' | 'payload' | 'payloadText'])[]) {
    const on = damaging();
    if (on === undefined) return undefined;
    const events = await store.append(Array.from({ length: count }, (_, i) => request(A, { ...foreign(B), summary: `change ${i}`, payload: { n: i } })));
    const sequences = events.map((outcome) => (outcome.type === 'appended' ? outcome.event.sequence : Number.NaN));
    for (const [at, damage] of damages) await on.corrupt({ kind: 'event', sequence: sequences[at] as number, damage });
    return { ...on, sequences, without: (gone: readonly number[]) => sequences.filter((_, i) => !gone.includes(i)) };
  }

  describe('corrupt rows are skipped and reported, never used', () => {
    test('events with an unknown kind or actor type or a payload that is no JSON object are skipped by readChanges, reported by sequence and reason, never by content; a page is still full', async () => {
      const damages = [[1, 'payloadText'], [3, 'kind'], [4, 'actor'], [6, 'payload']] as const;
      const on = await damagedEvents(8, damages);
      if (on === undefined) return;
      const page = await store.readChanges(A, 0 as never, 200);
      expect(seqs(page.events)).toEqual(on.without([1, 3, 4, 6]));
      expect(page.head.head).toBe(on.sequences[7]);
      const expected = damages.map(([at, damage]) => ({ operation: 'readChanges', table: 'events', sequence: on.sequences[at], reason: corruptReason({ kind: 'event', sequence: 0, damage }) }));
      expect(on.reports.splice(0)).toEqual(expected);
      expect(JSON.stringify(expected)).not.toContain(CORRUPT_CONTENT);
    });

    test('skipped rows never cut a page short: each page holds `limit` sound events, hasMore is exact, and paging reaches the end with no skip and no repeat', async () => {
      const on = await damagedEvents(12, [0, 2, 3, 6].map((at) => [at, 'kind'] as const));
      if (on === undefined) return;
      const pages: { count: number; hasMore: boolean }[] = [];
      expect(seqs(await readAll(store, A, 0, 3, pages))).toEqual(on.without([0, 2, 3, 6]));
      expect(pages).toEqual([{ count: 3, hasMore: true }, { count: 3, hasMore: true }, { count: 2, hasMore: false }]);
      expect(JSON.stringify(on.reports)).not.toContain(CORRUPT_CONTENT);
    });

    test('a page whose only rows are corrupt is empty with hasMore false, not an endless loop; the unreadable rows are still retained (earliestRetained)', async () => {
      const on = await damagedEvents(3, [0, 1, 2].map((at) => [at, 'kind'] as const));
      if (on === undefined) return;
      expect(await store.readChanges(A, 0 as never, 2)).toEqual({ head: { head: on.sequences[2], pruneWatermark: 0 }, events: [], hasMore: false, earliestRetained: on.sequences[0] });
    });

    test('a duplicate whose stored event is corrupt fails that request alone, reported, without content', async () => {
      const on = damaging();
      if (on === undefined) return;
      const deduped = { command: command(A, { kind: 'compacted', actorType: 'system', summary: 'c', dedupeKey: 'k1' }), appendedAt: T0 };
      const [first] = await store.append([deduped]);
      const sequence = first?.type === 'appended' ? first.event.sequence : -1;
      await on.corrupt({ kind: 'event', sequence, damage: 'payloadText' });
      const [again] = await store.append([{ ...deduped, appendedAt: T0 + 1 }]);
      expect(again?.type).toBe('failed');
      expect(JSON.stringify(again)).not.toContain(CORRUPT_CONTENT);
      expect(on.reports.map((r) => [r.operation, r.table, r.sequence])).toEqual([['append', 'events', sequence]]);
      const [retried, other] = await store.append([{ ...deduped, appendedAt: T0 + 2 }, request(B)]);
      expect([retried?.type, other?.type]).toEqual(['failed', 'appended']);
      expect((await store.readHeads([A]))[0]?.head).toBe(sequence);
    });
  });

  describe('a cursor row whose watermarks are not sequences, or not in order', () => {
    /** WATCHER and OTHER watch A, with `changes` foreign changes after; then WATCHER's cursor is damaged. */
    async function damagedCursor(damage: Extract<RowDamage, { kind: 'cursor' }>['damage'], changes: number) {
      const on = damaging();
      if (on === undefined) return undefined;
      for (const watcher of [WATCHER, OTHER]) await store.watch({ watcher, target: A, now: T0 });
      if (changes > 0) await appendMany(store, A, changes);
      await on.corrupt({ kind: 'cursor', watcher: WATCHER, target: A, damage });
      return on.reports;
    }
    const watchers = (rows: readonly { readonly watcher: string }[] | undefined) => rows?.map((row) => row.watcher);
    const noticesOf = async (call: Promise<readonly { type: string; notices?: readonly { watcher: string }[] }[]>) => watchers((await call)[0]?.notices);
    const staleDrain = (s2: StateStore) => s2.drain({ watcher: WATCHER, acks: [{ target: A, notified: 1 as never }], now: T0 + 2 });

    test('is reported and skipped by listCursors, append, drain and the restart scan; sound rows still work', async () => {
      const reports = await damagedCursor('acked', 0);
      if (reports === undefined) return;
      expect(watchers(await store.listCursors())).toEqual([OTHER]);
      expect(await noticesOf(store.append([request(A, foreign(B))]))).toEqual([OTHER]);
      expect(await staleDrain(store)).toEqual([{ target: A, result: 'stale' }]);
      expect(watchers(await restartScanAll(store, T0 + 3))).toEqual([OTHER]);
      expect(reports.length).toBeGreaterThanOrEqual(3);
      expect(reports.every((info) => info.table === 'cursors' && info.reason === corruptReason({ kind: 'cursor', watcher: WATCHER, target: A, damage: 'acked' }))).toBe(true);
      expect(new Set(reports.map((info) => info.operation))).toEqual(new Set(['listCursors', 'append', 'drain']));
    });

    test('with watermarks out of order (notified above material) is reported once by each of listCursors, scanPending (held notices, then the restart scan), append and drain', async () => {
      const reports = await damagedCursor('order', 1);
      if (reports === undefined) return;
      expect(watchers(await store.listCursors())).toEqual([OTHER]);
      expect(watchers(await heldNotices(store))).toEqual([OTHER]);
      expect(watchers(await restartScanAll(store, T0 + 1))).toEqual([OTHER]);
      expect(await noticesOf(store.append([request(A, foreign(B))]))).toEqual([OTHER]);
      expect(await staleDrain(store)).toEqual([{ target: A, result: 'stale' }]);
      expect(reports).toEqual(['listCursors', 'scanPending', 'scanPending', 'append', 'drain'].map((operation) => ({ operation, table: 'cursors', reason: 'watermarks are out of order' })));
    });

    for (const [damage, scans] of [['notified', [() => restartScanAll(store, T0 + 3)]], ['material', [() => heldNotices(store), () => heldNotices(store, undefined, [A])]]] as const) {
      test(`a corrupt pending row (${damage}) is reported by ${damage === 'notified' ? 'the restart scan' : 'the held notices of scanPending (full and on targets)'}, never turned into a notice; sound rows still give theirs`, async () => {
        const reports = await damagedCursor(damage, 1);
        if (reports === undefined) return;
        for (const scan of scans) expect(watchers(await scan())).toEqual([OTHER]);
        expect(reports).toEqual(scans.map(() => ({ operation: 'scanPending', table: 'cursors', reason: expect.any(String) })));
      });
    }
  });

  test('a journal entry with watermarks out of order is skipped and reported by readCursorJournal; the sound entries still read', async () => {
    const on = damaging();
    if (on === undefined) return;
    for (const watcher of [WATCHER, OTHER]) await store.watch({ watcher, target: A, now: T0 });
    const [bad, good] = await store.readCursorJournal();
    await on.corrupt({ kind: 'journal', position: bad?.position ?? 0 });
    expect(await store.readCursorJournal()).toEqual([good]);
    expect(on.reports).toEqual([{ operation: 'readCursorJournal', table: 'cursor_journal', reason: 'watermarks are out of order' }]);
  });
}

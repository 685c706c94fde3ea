// The contract of append: sequences and heads, dedupe keys, onlyIfWatched, a batch's isolation,
// and what a reopened or closed store answers.
import { expect } from 'expect';

import { historyGap, isStoreError, type AppendCommand, type SessionKey, type StateStore, type StoredEvent } from '@session-state/domain';

import { heldNotices, T0, MINUTE, DAY, A, B, C, D, CHILD, command, foreign, request, expectAppended, append, appendMany, watchAll, headOf, readAll, asRead, seqs, rejection, pruneAll, type Suite } from './fixtures.js';

export function describeAppend(s: Suite): void {
  const { describe, test } = s.runner;
  const { store, reopened } = s;
  describe('append and the head', () => {
    test('sequences strictly increase per session and each append raises the head to its sequence; a session with no events has no head row and reads as version 0 with no events', async () => {
      const outcomes = await store.append([request(A), request(B), request(A), request(A), request(B)]);
      const events = outcomes.map((outcome) => expectAppended(outcome).event);
      for (const sessionKey of [A, B]) {
        const own = seqs(events.filter((event) => event.sessionKey === sessionKey));
        own.forEach((sequence, i) => expect(sequence).toBeGreaterThan(i === 0 ? 0 : (own[i - 1] as number)));
        expect(await headOf(store, sessionKey)).toEqual({ head: own[own.length - 1], pruneWatermark: 0 });
        expect(seqs(await readAll(store, sessionKey))).toEqual(own);
      }
      expect(await store.readHeads([C])).toEqual([]);
      expect(await store.readChanges(C, 0 as StoredEvent['sequence'], 200)).toEqual({ head: { head: 0, pruneWatermark: 0 }, events: [], hasMore: false, earliestRetained: 0 });
    });

    test('the stored event keeps every field of the command, and readChanges returns its public fields; occurredAt defaults to the append time, as ISO', async () => {
      const spec = { kind: 'run_failed', actorType: 'agent', actorSessionKey: A, summary: 'child run failed', payload: { outcome: 'timeout', n: [1, 'x', null] }, dedupeKey: 'run-terminal:r1' } as const;
      const { event } = await append(store, B, { ...spec, occurredAt: '2026-11-29T09:00:00Z' }, T0 + 5);
      expect(event).toMatchObject({ ...spec, sessionKey: B, occurredAt: '2026-11-29T09:00:00.000Z', appendedAt: T0 + 5 });
      const defaulted = (await append(store, B, {}, T0 + 7)).event;
      expect(defaulted.occurredAt).toBe(new Date(T0 + 7).toISOString());
      expect(await readAll(store, B)).toEqual(asRead(event, defaulted));
    });

    test('the head never decreases when every row is pruned, and the next sequence continues above it', async () => {
      const events = await appendMany(store, B, 3);
      const head = (events[2] as StoredEvent).sequence;
      await pruneAll(store, T0, DAY, 0);
      expect(await readAll(store, B)).toEqual([]);
      expect(await headOf(store, B)).toEqual({ head, pruneWatermark: head });
      const next = await append(store, B);
      expect(next.event.sequence).toBeGreaterThan(head);
      expect(await headOf(store, B)).toEqual({ head: next.event.sequence, pruneWatermark: head });
    });

    test('deleteSession keeps the head as a tombstone and a recreated session continues above its old version', async () => {
      const events = await appendMany(store, B, 4);
      const head = (events[3] as StoredEvent).sequence;
      const result = await store.deleteSession(B, T0);
      expect(result.eventsDeleted).toBe(4);
      expect(await store.readHeads([B])).toEqual([{ sessionKey: B, head, pruneWatermark: head }]);
      expect(await readAll(store, B)).toEqual([]);

      const again = await append(store, B);
      expect(again.event.sequence).toBeGreaterThan(head);
      const atOld = await store.readChanges(B, head, 200);
      expect(seqs(atOld.events)).toEqual([again.event.sequence]);
      expect(historyGap(atOld.head, head)).toBe(false);
      const fromZero = await store.readChanges(B, 0 as StoredEvent['sequence'], 200);
      expect(historyGap(fromZero.head, 0 as StoredEvent['sequence'])).toBe(true);
      expect(seqs(fromZero.events)).toEqual([again.event.sequence]);
    });

    test('readHeads returns rows (tombstones included) only for keys that have a head; without keys every head row, ordered by session key', async () => {
      await append(store, D);
      const a = await append(store, A);
      await appendMany(store, B, 2);
      await store.deleteSession(B, T0);
      const rows = [...(await store.readHeads([A, B, C, A]))].sort((x, y) => (x.sessionKey < y.sessionKey ? -1 : 1));
      expect(rows.map((row) => row.sessionKey)).toEqual([A, B]);
      expect(rows[0]).toEqual({ sessionKey: A, head: a.event.sequence, pruneWatermark: 0 });
      expect(rows[1]?.head).toBeGreaterThan(a.event.sequence);
      expect(rows[1]?.pruneWatermark).toBe(rows[1]?.head);
      const every = await store.readHeads();
      expect(every.map((row) => row.sessionKey)).toEqual([D, A, B].sort());
      expect(every).toEqual(await store.readHeads([D, A, B].sort() as SessionKey[]));
    });

    test('readHeads of more keys than one SQL statement binds (repeats, unknown keys, quotes) returns each known key once, in the order first given', async () => {
      const known = [A, B, C];
      for (const k of known) await append(store, k);
      const unknown = Array.from({ length: 1200 }, (_, i) => `agent:none${i}:"main"` as SessionKey);
      const keys = [C, ...unknown.slice(0, 700), A, C, ...unknown.slice(700), B, A];
      const rows = await store.readHeads(keys);
      expect(rows.map((row) => row.sessionKey)).toEqual([C, A, B]);
      expect(rows).toEqual(await Promise.all([C, A, B].map(async (k) => (await store.readHeads([k]))[0])));
    });
  });

  describe('dedupe keys', () => {
    test('a duplicate returns the existing event: no head bump, no new row, no cursor move (a retried spawn edge’s seed included)', async () => {
      await store.watch({ watcher: A, target: B, now: T0 });
      const first = await append(store, B, { ...foreign(), dedupeKey: 'compacted:op-1' });
      const cursorsBefore = await store.listCursors();
      const headBefore = await headOf(store, B);
      const [again] = await store.append([request(B, { ...foreign(D), summary: 'different', dedupeKey: 'compacted:op-1' }, T0 + MINUTE)]);
      expect(again).toEqual({ type: 'duplicate', event: first.event });
      expect(await headOf(store, B)).toEqual(headBefore);
      expect(await store.listCursors()).toEqual(cursorsBefore);
      expect(seqs(await readAll(store, B))).toEqual([first.event.sequence]);

      const spawn = { kind: 'child_spawned' as const, actorType: 'agent' as const, actorSessionKey: A, dedupeKey: 'child-spawned:run-1' };
      await append(store, CHILD, spawn, T0, A);
      await append(store, CHILD, foreign(), T0 + 1);
      const pending = await store.listCursors();
      const [retry] = await store.append([request(CHILD, spawn, T0 + 2, A)]);
      expect(retry?.type).toBe('duplicate');
      expect(await store.listCursors()).toEqual(pending);
    });

    test('a duplicate inside the same batch returns the event the batch just wrote; dedupe keys are unique across the whole store, not per session', async () => {
      const [first, second] = await store.append([request(B, { dedupeKey: 'k' }), request(B, { dedupeKey: 'k', summary: 'again' })]);
      const written = expectAppended(first).event;
      expect(second).toEqual({ type: 'duplicate', event: written });
      expect(await store.append([request(C, { dedupeKey: 'k' })])).toEqual([{ type: 'duplicate', event: written }]);
      expect(await store.readHeads([C])).toEqual([]);
    });

    test('a dedupe key is reusable once its event is pruned or its session deleted', async () => {
      const first = await append(store, B, { dedupeKey: 'k1' });
      await pruneAll(store, T0, DAY, 0);
      const reused = await append(store, B, { dedupeKey: 'k1' });
      expect(reused.event.sequence).toBeGreaterThan(first.event.sequence);

      await append(store, C, { dedupeKey: 'k2' });
      await store.deleteSession(C, T0);
      const [afterDelete] = await store.append([request(C, { dedupeKey: 'k2' })]);
      expect(afterDelete?.type).toBe('appended');
    });
  });

  describe('onlyIfWatched and batches', () => {
    test('onlyIfWatched writes nothing while no cursor targets the session, and appends once one does', async () => {
      const [skipped] = await store.append([request(B, { onlyIfWatched: true })]);
      expect(skipped).toEqual({ type: 'skipped', reason: 'unwatched' });
      expect([await store.readHeads([B]), await readAll(store, B)]).toEqual([[], []]);

      await store.watch({ watcher: A, target: B, now: T0 });
      const [written] = await store.append([request(B, { onlyIfWatched: true })]);
      expect(written?.type).toBe('appended');
    });

    test('one failing request in a batch fails alone and leaves no trace', async () => {
      // An actor key with an unpaired surrogate cannot be stored exactly by any adapter
      // (SQLite and PostgreSQL would keep U+FFFD), so every store refuses the request.
      const good = command(B, { dedupeKey: 'good' });
      const bad: AppendCommand = { ...command(D, { dedupeKey: 'bad' }), actorSessionKey: 'agent:\uD83D:main' as SessionKey };
      await store.watch({ watcher: A, target: D, now: T0 });
      const cursorsBefore = await store.listCursors();
      const outcomes = await store.append([{ command: good, appendedAt: T0 }, { command: bad, appendedAt: T0 }, { command: command(C), appendedAt: T0 }]);
      expect(outcomes.map((outcome) => outcome.type)).toEqual(['appended', 'failed', 'appended']);
      const failed = outcomes[1];
      expect(failed?.type === 'failed' && isStoreError(failed.error) && failed.error.operation).toBe('append');
      expect(await store.readHeads([D])).toEqual([]);
      expect(await store.listCursors()).toEqual(cursorsBefore);
      // The failed request registered no dedupe key; later calls work normally.
      const [retry] = await store.append([request(D, { dedupeKey: 'bad' })]);
      expect(retry?.type).toBe('appended');
      expect(seqs(await readAll(store, B))).toEqual([expectAppended(outcomes[0]).event.sequence]);
    });
  });

  describe('reopen and close', () => {
    test('a reopened store (the same one, when not durable) sees exactly what was committed, the cursor journal included', async () => {
      await watchAll(store, [[A, B], [C, D]]);
      await append(store, B, { ...foreign(), payload: { channel: 'telegram' }, dedupeKey: 'd1' }, T0 + 1);
      await append(store, B, foreign(), T0 + 2);
      await appendMany(store, C, 3, T0 + 3);
      await appendMany(store, D, 2, T0 + 4);
      await pruneAll(store, T0 + 4, DAY, 5);
      await store.deleteSession(D, T0);
      await append(store, C, { dedupeKey: 'kept' }, T0 + 5);
      const snapshot = async (s: StateStore) => ({
        heads: [...(await s.readHeads([A, B, C, D]))].sort((x, y) => (x.sessionKey < y.sessionKey ? -1 : 1)),
        events: [await readAll(s, B), await readAll(s, C), await readAll(s, D)],
        cursors: await s.listCursors(),
        journal: await s.readCursorJournal(),
      });
      const before = await snapshot(store);
      const after = await reopened();
      expect(await snapshot(after)).toEqual(before);

      // Sequences continue above every head, and dedupe keys still hold.
      const maxHead = Math.max(...before.heads.map((row) => row.head));
      const next = await append(after, D);
      expect(next.event.sequence).toBeGreaterThan(maxHead);
      const [dup] = await after.append([request(B, { dedupeKey: 'kept' })]);
      expect(dup?.type).toBe('duplicate');
      // The pruned event's key is free again after the reopen too.
      const [reused] = await after.append([request(B, { dedupeKey: 'd1' })]);
      expect(reused?.type).toBe('appended');
    });

    test('after close, methods reject with a StoreError naming the operation', async () => {
      await append(store, B);
      await store.close();
      s.closedByTest();
      for (const [operation, call] of [['readHeads', () => store.readHeads([B])], ['append', () => store.append([request(B)])], ['scanPending', () => heldNotices(store)]] as const) {
        const error = await rejection(call());
        expect(isStoreError(error) && error.operation).toBe(operation);
      }
    });
  });
}

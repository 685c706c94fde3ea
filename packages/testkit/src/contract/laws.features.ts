// The contract's laws, checked by property tests over random operation histories on fresh stores.
import { expect } from 'expect';
import fc from 'fast-check';

import { historyGap, planScan, type CursorRow, type EventKind, type SessionEvent, type SessionKey, type StoredEvent } from '@session-state/domain';

import { heldNotices, restartScanAll, onFreshStore, PROPERTY_RUNS, PROPERTY_TIMEOUT_MS, T0, MINUTE, DAY, A, B, C, D, CHILD, request, expectAppended, headOf, readAll, seqs, seqOf, pruneAll, replayMismatch, type RecordSpec, type Suite } from './fixtures.js';

export function describeLaws(s: Suite): void {
  const { describe, test } = s.runner;
  const { factory } = s;
  describe('laws', () => {
    const sessionsOf = [B, C, D] as const;
    /** A prune's fields: a clock step in minutes, an age limit, a row cap and a batch size, each within the given bounds. */
    const pruneFields = (dtMin: number, dtMax: number, maxRows: number, batchSize: number) => ({ dt: fc.integer({ min: dtMin, max: dtMax }), maxAgeMs: fc.integer({ min: 0, max: 60 }), maxRows: fc.nat(maxRows), batchSize: fc.integer({ min: 1, max: batchSize }) });
    const opArb = fc.oneof(
      { arbitrary: fc.record({ type: fc.constant('append' as const), session: fc.nat(2), dt: fc.integer({ min: -60, max: 60 }), count: fc.integer({ min: 1, max: 3 }) }), weight: 5 },
      { arbitrary: fc.record({ type: fc.constant('prune' as const), ...pruneFields(-60, 60, 8, 5) }), weight: 2 },
      { arbitrary: fc.record({ type: fc.constant('delete' as const), session: fc.nat(2) }), weight: 1 },
    );

    test('head and prune watermark laws: heads never fall, the watermark is the highest sequence ever removed, historyGap is exact, earliestRetained is the lowest retained sequence (0 when none) from any since, fresh rows survive age pruning', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { maxLength: 25 }), (ops) =>
          onFreshStore(factory, async (s) => {
            let now = T0;
            const appended = new Map<SessionKey, StoredEvent[]>(sessionsOf.map((k) => [k, []]));
            const removedSeqs = new Map<SessionKey, number[]>(sessionsOf.map((k) => [k, []]));
            for (const op of ops) {
              const retainedBefore = new Map<SessionKey, SessionEvent[]>();
              for (const k of sessionsOf) retainedBefore.set(k, await readAll(s, k));
              if (op.type === 'append') {
                now += op.dt * MINUTE;
                const k = sessionsOf[op.session] as SessionKey;
                const before = await headOf(s, k);
                const outcomes = await s.append(Array.from({ length: op.count }, () => request(k, {}, now)));
                let previous: number = before.head;
                for (const outcome of outcomes) {
                  const event = expectAppended(outcome).event;
                  expect(event.sequence).toBeGreaterThan(previous);
                  previous = event.sequence;
                  appended.get(k)?.push(event);
                }
              } else if (op.type === 'prune') {
                now += op.dt * MINUTE;
                const rowsBefore = [...retainedBefore.values()].reduce((n, events) => n + events.length, 0);
                const batch = await s.prune({ now, maxAgeMs: op.maxAgeMs * MINUTE, maxRows: op.maxRows, batchSize: op.batchSize });
                expect(batch.eventsDeleted).toBeLessThanOrEqual(op.batchSize);
                if (rowsBefore <= op.maxRows) {
                  // Nothing was over the cap, so only rows appended before the cutoff may go.
                  const cutoff = now - op.maxAgeMs * MINUTE;
                  for (const k of sessionsOf) {
                    const kept = new Set(seqs(await readAll(s, k)));
                    const retained = new Set(seqs(retainedBefore.get(k) ?? []));
                    for (const event of appended.get(k) ?? []) {
                      if (retained.has(event.sequence) && event.appendedAt >= cutoff) expect(kept.has(event.sequence)).toBe(true);
                    }
                  }
                }
              } else {
                await s.deleteSession(sessionsOf[op.session] as SessionKey, T0);
              }
              for (const k of sessionsOf) {
                const retained = await readAll(s, k);
                const keptNow = new Set(seqs(retained));
                for (const event of retainedBefore.get(k) ?? []) if (!keptNow.has(event.sequence)) removedSeqs.get(k)?.push(event.sequence);
                const all = appended.get(k) ?? [];
                const removed = removedSeqs.get(k) ?? [];
                const head = await headOf(s, k);
                // Retained = appended minus removed, in order; the head is the highest ever assigned and the
                // watermark the highest ever removed (so neither falls: both sets only grow).
                expect(seqs(retained)).toEqual(seqs(all).filter((sequence) => !removed.includes(sequence)));
                expect(head.head).toBe(all.length === 0 ? 0 : Math.max(...seqs(all)));
                expect(head.pruneWatermark).toBe(removed.length === 0 ? 0 : Math.max(...removed));
                // readChanges reads the same head; historyGap(since) holds exactly when some
                // removed event lies above since (checked at 0, on both sides of the watermark and above the head).
                for (const since of new Set([0, head.pruneWatermark, Math.max(0, head.pruneWatermark - 1), head.head + 1])) {
                  const page = await s.readChanges(k, since as StoredEvent['sequence'], 200);
                  expect(page.head).toEqual(head);
                  expect(page.earliestRetained).toBe(retained[0]?.sequence ?? 0);
                  expect(historyGap(page.head, since as StoredEvent['sequence'])).toBe(removed.some((sequence) => sequence > since));
                }
              }
            }
          })),
        { numRuns: PROPERTY_RUNS },
      );
    }, PROPERTY_TIMEOUT_MS);

    const cast = [A, B, C, CHILD] as const;
    const castIndex = fc.nat(cast.length - 1);
    const historyOpArb = fc.oneof(
      {
        weight: 12,
        arbitrary: fc.record({
          type: fc.constant('append' as const),
          session: castIndex,
          // The last index is "nobody named" (a human); the others are agents of the cast.
          actor: fc.nat(cast.length),
          kind: fc.constantFrom<EventKind>('human_direct_message', 'goal_changed', 'upstream_missing', 'run_completed'),
          dt: fc.integer({ min: -2, max: 5 }),
          // A watcher the record names (it gets a cursor when it has none and the event notifies it).
          named: castIndex,
        }, { requiredKeys: ['type', 'session', 'actor', 'kind', 'dt'] }),
      },
      // Ambient watches among them: a later explicit watch promotes one.
      { weight: 3, arbitrary: fc.record({ type: fc.constant('watch' as const), watcher: castIndex, target: castIndex, ambient: fc.boolean() }, { requiredKeys: ['type', 'watcher', 'target'] }) },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('spawn' as const), parent: castIndex, child: castIndex }) },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('drain' as const), watcher: castIndex, stale: fc.boolean() }) },
      // A take leased for 1-3 minutes: appends move the clock on, so later takes meet running and ended leases.
      { weight: 1, arbitrary: fc.record({ type: fc.constant('take' as const), watcher: castIndex, stale: fc.boolean(), lease: fc.integer({ min: 1, max: 3 }) }) },
      { weight: 1, arbitrary: fc.constant({ type: 'restart' as const }) },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('reset' as const), watcher: castIndex }) },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('unwatch' as const), watcher: castIndex, target: castIndex }) },
      {
        weight: 2,
        // A reader's status that reached the head, possibly an older one (lag: changes recorded after the read).
        arbitrary: fc.record({ type: fc.constant('read' as const), watcher: castIndex, target: castIndex, fromZero: fc.boolean(), lag: fc.nat(2) }),
      },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), session: castIndex }) },
      { weight: 2, arbitrary: fc.record({ type: fc.constant('prune' as const), ...pruneFields(-5, 10, 6, 4), untilDone: fc.boolean() }) },
    );

    type HistoryOp = typeof historyOpArb extends fc.Arbitrary<infer T> ? T : never;
    // A counterexample kept: a row-cap run in batches of one passed B -> CHILD's watch_started while the journal was within its
    // cap, then the material_kept it journalled put the journal over it, and the next window took the pair's notice_raised.
    const journalGapHistory: HistoryOp[] = [
      { type: 'watch', watcher: 1, target: 3 },
      { type: 'append', session: 3, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'append', session: 3, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'append', session: 0, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'spawn', parent: 0, child: 1 },
      { type: 'watch', watcher: 0, target: 0 },
      { type: 'append', session: 0, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'append', session: 0, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'append', session: 0, actor: 1, kind: 'human_direct_message', dt: 0 },
      { type: 'prune', dt: 0, maxAgeMs: 0, maxRows: 5, batchSize: 1, untilDone: true },
      { type: 'prune', dt: 0, maxAgeMs: 0, maxRows: 0, batchSize: 1, untilDone: false },
      { type: 'read', watcher: 0, target: 0, fromZero: false, lag: 0 },
      { type: 'append', session: 0, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'restart' },
      { type: 'watch', watcher: 0, target: 0 },
      { type: 'append', session: 0, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'append', session: 0, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'append', session: 0, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'append', session: 0, actor: 0, kind: 'human_direct_message', dt: 0 },
      { type: 'drain', watcher: 0, stale: false },
    ];

    test('replaying the cursor journal from empty gives the live cursor rows, their class and the same notices: after any history of appends (naming watchers), explicit and ambient watches (promotions), spawns, drains, takes (leases running and ended), restarts, resets, unwatches, reader acknowledgements, deletes and prunes, every live cursor replays from its journal and its target’s retained events to exactly its row, and the held notices and every restart scan’s notices are planScan’s of the replayed cursors', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(historyOpArb, { minLength: 10, maxLength: 40, size: 'large' }), (ops) =>
          onFreshStore(factory, async (s, h) => {
            let now = T0;
            // The live cursors as the journal and retained log alone rebuild them; a final restart checks every run's restart scan.
            let replayed: CursorRow[] = [];
            for (const op of [...ops, { type: 'restart' } as const]) {
              switch (op.type) {
                case 'append': {
                  now += op.dt * MINUTE;
                  const actor = cast[op.actor];
                  const spec: RecordSpec = actor === undefined ? { kind: op.kind, actorType: 'human' } : { kind: op.kind, actorType: 'agent', actorSessionKey: actor };
                  await s.append([request(cast[op.session] as SessionKey, { ...spec, ...(op.named !== undefined ? { watchers: [cast[op.named] as SessionKey] } : {}) }, now)]);
                  break;
                }
                case 'watch':
                  await s.watch({ watcher: cast[op.watcher] as SessionKey, target: cast[op.target] as SessionKey, now, ...(op.ambient === true ? { ambient: true } : {}) });
                  break;
                case 'spawn': {
                  const parent = cast[op.parent] as SessionKey;
                  await s.append([request(cast[op.child] as SessionKey, { kind: 'child_spawned', actorType: 'agent', actorSessionKey: parent }, now, parent)]);
                  break;
                }
                case 'drain':
                case 'take': {
                  const watcher = cast[op.watcher] as SessionKey;
                  const held = await heldNotices(s, (w) => w === watcher);
                  const acks = held.map((notice) => ({ target: notice.target as SessionKey, notified: (op.stale ? notice.notified + 1 : notice.notified) as StoredEvent['sequence'] }));
                  await s.drain({ watcher, acks, now, ...(op.type === 'take' ? { takenUntil: now + op.lease * MINUTE } : {}) });
                  break;
                }
                case 'restart':
                  s = await h.reopen();
                  expect(await restartScanAll(s, now)).toEqual(planScan({ cursors: replayed, raise: { now } }).notices);
                  break;
                case 'reset':
                  await s.resetWatcher(cast[op.watcher] as SessionKey, now);
                  break;
                case 'unwatch':
                  await s.unwatch(cast[op.watcher] as SessionKey, cast[op.target] as SessionKey, now);
                  break;
                case 'read': {
                  const watcher = cast[op.watcher] as SessionKey;
                  const target = cast[op.target] as SessionKey;
                  const [row] = await s.listCursors({ watcher, target });
                  const retained = await readAll(s, target);
                  const [head] = await s.readHeads([target]);
                  const lagged = retained[retained.length - 1 - op.lag];
                  const through = lagged === undefined ? (head?.head ?? seqOf(0)) : seqOf(lagged.sequence);
                  await s.acknowledgeRead({ watcher, target, since: op.fromZero ? seqOf(0) : (row?.acked ?? seqOf(0)), through, now });
                  break;
                }
                case 'delete':
                  await s.deleteSession(cast[op.session] as SessionKey, now);
                  break;
                case 'prune':
                  now += op.dt * MINUTE;
                  if (op.untilDone) await pruneAll(s, now, op.maxAgeMs * MINUTE, op.maxRows, op.batchSize);
                  else await s.prune({ now, maxAgeMs: op.maxAgeMs * MINUTE, maxRows: op.maxRows, batchSize: op.batchSize });
                  break;
                default: {
                  const unreachable: never = op;
                  throw new Error(`unknown op ${JSON.stringify(unreachable)}`);
                }
              }
              const mismatches: string[] = [];
              replayed = [];
              for (const row of await s.listCursors()) {
                const mismatch = await replayMismatch(s, row, replayed);
                if (mismatch !== undefined) mismatches.push(mismatch);
              }
              const held = planScan({ cursors: replayed }).notices;
              expect({ after: op, mismatches, held: await heldNotices(s) }).toEqual({ after: op, mismatches: [], held });
            }
          })),
        { numRuns: PROPERTY_RUNS, examples: [[journalGapHistory]] },
      );
    }, PROPERTY_TIMEOUT_MS);

    test('paging with nextSince from any point returns every retained event after it once, in order, with hasMore false only on the last page', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.boolean(), { maxLength: 60 }),
          fc.integer({ min: 1, max: 20 }),
          fc.nat(80),
          fc.nat(10),
          (sessionOfEach, limit, sinceSeed, pruneTo) =>
            onFreshStore(factory, async (s) => {
              const outcomes = await s.append(sessionOfEach.map((isB) => request(isB ? B : C)));
              await pruneAll(s, T0, DAY, Math.max(pruneTo, sessionOfEach.length - pruneTo));
              const retained = await readAll(s, B, 0, 200);
              const since = sinceSeed % (outcomes.length + 2);
              const expected = seqs(retained).filter((sequence) => sequence > since);
              const pages: { count: number; hasMore: boolean }[] = [];
              const seen = seqs(await readAll(s, B, since, limit, pages));
              let read = 0;
              for (const page of pages) {
                read += page.count;
                expect({ count: page.count <= limit, hasMore: page.hasMore }).toEqual({ count: true, hasMore: read < expected.length });
              }
              expect(seen).toEqual(expected);
            }),
        ),
        { numRuns: PROPERTY_RUNS },
      );
    }, PROPERTY_TIMEOUT_MS);
  });
}

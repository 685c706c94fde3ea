// drainThenAppend: a drain and then a batch of appends in one transaction, with the outcomes,
// cursor rows and journal the two calls one after the other give; the drain's own failure rolls
// back only it, an append's only itself.
import type { AppendOutcome, AppendRequest, DrainAck, StateStore } from '@session-state/domain';
import { dropSchema, pgUrl, uniqueSchema } from '@session-state/testkit';

import { openPostgresStore } from '../src/index.js';
import { humanTurn, key, request } from './support/commands.js';

const W = key('agent:w:main');
const T1 = key('agent:t1:main');
const T2 = key('agent:t2:main');
const NOW = Date.UTC(2026, 10, 30, 12);

const schemas: string[] = [];
const stores: StateStore[] = [];

async function openFresh(): Promise<StateStore> {
  const schema = uniqueSchema('dta');
  schemas.push(schema);
  const store = await openPostgresStore({ connectionString: pgUrl(), schema, maxConnections: 2 });
  stores.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});

/** W watches T1 and T2, and each has a pending notice: the acks of both. */
async function givenPendingNotices(store: StateStore): Promise<DrainAck[]> {
  await store.watch({ watcher: W, target: T1, now: NOW });
  await store.watch({ watcher: W, target: T2, now: NOW });
  const outcomes = await store.append([request(humanTurn(T1), NOW), request(humanTurn(T2), NOW)]);
  return outcomes.flatMap((o) => (o.type === 'appended' ? o.notices.map((n) => ({ target: key(n.target), notified: n.notified })) : []));
}

/** The batch after the drain: a change on a drained target (its cursor reopens as idle → pending again) and one on T2 again. */
const batch = (): AppendRequest[] => [request(humanTurn(T1), NOW + 1), request(humanTurn(T2), NOW + 2)];

const strip = (outcomes: readonly AppendOutcome[]): unknown[] => outcomes.map((o) => (o.type === 'appended' ? { type: o.type, sequence: o.event.sequence, notices: o.notices } : o));

test('a drain then appends in one call has the outcomes, cursors and journal of the two calls in turn', async () => {
  const apart = await openFresh();
  const together = await openFresh();
  const acksApart = await givenPendingNotices(apart);
  const acksTogether = await givenPendingNotices(together);
  expect(acksTogether).toEqual(acksApart);
  expect(acksApart).toHaveLength(2);

  const drainedApart = await apart.drain(W, acksApart, NOW + 1);
  const appendedApart = await apart.append(batch());
  const joined = await together.drainThenAppend?.({ watcher: W, acks: acksTogether, now: NOW + 1 }, batch());

  expect(joined?.drained).toEqual({ ok: true, outcomes: drainedApart });
  expect(strip(joined?.appended ?? [])).toEqual(strip(appendedApart));
  // The drain ran first: both cursors were acknowledged, so the appends raised new first notices.
  expect(appendedApart.every((o) => o.type === 'appended' && o.notices.length === 1 && o.notices[0]?.reason === 'first')).toBe(true);
  expect(await together.listCursors()).toEqual(await apart.listCursors());
  const journal = async (store: StateStore): Promise<unknown[]> => (await store.readCursorJournal()).map(({ position: _position, ...entry }) => entry);
  expect(await journal(together)).toEqual(await journal(apart));
});

test("the drain's own failure rolls back only the drain: the appends commit and the notices stay pending", async () => {
  const store = await openFresh();
  const acks = await givenPendingNotices(store);
  const before = await store.listCursors();
  // A clock reading past bigint: the drain's write fails inside the transaction.
  const joined = await store.drainThenAppend?.({ watcher: W, acks, now: 1e300 }, batch());

  expect(joined?.drained.ok).toBe(false);
  expect(joined?.appended.map((o) => o.type)).toEqual(['appended', 'appended']);
  const after = await store.listCursors();
  // Not acknowledged: acked and notified as before, material raised by the appends.
  expect(after.map((c) => [c.target, c.acked, c.notified])).toEqual(before.map((c) => [c.target, c.acked, c.notified]));
  expect(after.every((c, i) => c.material > (before[i]?.material ?? Infinity))).toBe(true);
});

test("an append's own failure fails only that append: the drain and the other append commit", async () => {
  const store = await openFresh();
  const acks = await givenPendingNotices(store);
  const bad = request(humanTurn(T2), 1e300);
  const joined = await store.drainThenAppend?.({ watcher: W, acks, now: NOW + 1 }, [request(humanTurn(T1), NOW + 1), bad]);

  expect(joined?.drained.ok).toBe(true);
  expect(joined?.appended.map((o) => o.type)).toEqual(['appended', 'failed']);
  const cursors = await store.listCursors();
  const t1 = cursors.find((c) => c.target === T1);
  const t2 = cursors.find((c) => c.target === T2);
  // T2 was acknowledged and nothing more arrived; T1 was acknowledged, then its new change reopened it.
  expect(t2 && t2.acked === t2.material).toBe(true);
  expect(t1 && t1.material > t1.acked).toBe(true);
});

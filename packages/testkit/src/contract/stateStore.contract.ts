// The StateStore contract: the storage behaviour of SPEC sections 2-7 stated once in feature files,
// run against every adapter by a two-line `*.contract.test.ts` that passes its own factory. This
// file registers them all, and holds the reads and the round trips of what a store keeps.
import { expect } from 'expect';

import { decodeRecordInput, historyGap, type AppendCommand, type AppendRequest, type Notice, type SessionKey, type StateStore, type StoredEvent } from '@session-state/domain';

import type { StoreHarness } from '../stores.js';
import { describeAppend } from './append.features.js';
import { describeCorruptRows } from './corruptRows.features.js';
import { describeCursors } from './cursors.features.js';
import { describeDelivery } from './delivery.features.js';
import { A, B, C, DAY, T0, append, appendMany, command, expectAppended, foreign, globalTestRunner, headOf, key, pairOf, pruneAll, readAll, request, seqs, type StateStoreFactory, type Suite, type TestRunner } from './fixtures.js';
import { describeJournal } from './journal.features.js';
import { describeLaws } from './laws.features.js';
import { describePrune } from './prune.features.js';
import { describeRestartScan } from './restartScan.features.js';
import { describeWatchClasses } from './watchClasses.features.js';

/** The stored event holding `dedupeKey`, as a duplicate append of it answers. */
async function storedByDedupeKey(store: StateStore, sessionKey: SessionKey, dedupeKey: string): Promise<StoredEvent> {
  const [outcome] = await store.append([request(sessionKey, { dedupeKey })]);
  if (outcome?.type !== 'duplicate') throw new Error(`expected a duplicate outcome, got ${outcome?.type}`);
  return outcome.event;
}

/**
 * Registers the StateStore contract for one adapter. `factory` gives each test fresh state; `runner` declares the tests.
 *
 * @example describeStateStoreContract('memory', memoryKind.open);
 */
export function describeStateStoreContract(name: string, factory: StateStoreFactory, runner: TestRunner = globalTestRunner()): void {
  runner.describe(`StateStore contract: ${name}`, () => {
    let harness: StoreHarness | undefined;
    let current: StateStore | undefined;
    const live = (): StoreHarness => {
      if (harness === undefined) throw new Error('no store outside a test');
      return harness;
    };
    const suite: Suite = {
      runner,
      factory,
      // Forwards every call to whichever store is current.
      store: new Proxy({} as StateStore, {
        get: (_, name) => {
          const value = ((current ?? live().store) as unknown as Record<string | symbol, unknown>)[name];
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current ?? live().store) : value;
        },
      }),
      harness: live,
      reopened: async () => (current = await live().reopen()),
      closedByTest: () => {
        current = undefined;
      },
    };
    runner.beforeEach(async () => {
      harness = await factory();
      current = harness.store;
    });
    runner.afterEach(async () => {
      await current?.close();
      await harness?.cleanup();
      harness = current = undefined;
    });
    for (const features of [describeAppend, describeReads, describeCursors, describeDelivery, describeRestartScan, describePrune, describeJournal, describeCorruptRows, describeWatchClasses, describeLaws]) features(suite);
  });
}

// Odd but well-formed text: the last BMP non-character, an astral pair, a combining mark, the
// largest code point, and a long run of them.
const ODD = 'U+FFFF \uFFFF emoji \u{1F600}\u{1F469}\u200D\u{1F4BB} e\u0301 \u{10FFFF} \u2028';
const LONG = `${ODD} ${'x\u{1F600}\uFFFF'.repeat(25_000)}`; // a summary far past decodeRecordInput's bound

function describeReads(s: Suite): void {
  const { describe, test } = s.runner;
  const { store, reopened } = s;
  describe('readChanges', () => {
    test('the prune watermark is exact at the boundary: asked at it there is no gap, one below there is; since above the head returns no events and no gap; reading never creates or moves a cursor', async () => {
      const events = await appendMany(store, B, 5);
      await pruneAll(store, T0, DAY, 2);
      await store.watch({ watcher: A, target: B, now: T0 });
      events.push((await append(store, B, foreign())).event);
      const cursors = await store.listCursors();
      const watermark = (events[2] as StoredEvent).sequence;
      const retained = seqs(events.slice(3));

      const atWatermark = await store.readChanges(B, watermark, 200);
      expect(atWatermark.head.pruneWatermark).toBe(watermark);
      expect(historyGap(atWatermark.head, watermark)).toBe(false);
      expect(seqs(atWatermark.events)).toEqual(retained);

      const below = (watermark - 1) as StoredEvent['sequence'];
      const belowPage = await store.readChanges(B, below, 200);
      expect(historyGap(belowPage.head, below)).toBe(true);
      expect(seqs(belowPage.events)).toEqual(retained);

      const above = ((events[5] as StoredEvent).sequence + 10) as StoredEvent['sequence'];
      const abovePage = await store.readChanges(B, above, 200);
      expect([abovePage.events, abovePage.hasMore, historyGap(abovePage.head, above)]).toEqual([[], false, false]);
      await store.readHeads([A, B, C]);
      expect(await store.listCursors()).toEqual(cursors);
    });

    test('earliestRetained is the lowest retained sequence whatever since and limit: the first event, the first after a prune, 0 once the session is deleted (its head stays)', async () => {
      const events = await appendMany(store, B, 4);
      const [first, , third, last] = seqs(events) as [number, number, number, number];
      for (const since of [0, first, last + 5]) expect((await store.readChanges(B, since as StoredEvent['sequence'], 1)).earliestRetained).toBe(first);
      await pruneAll(store, T0, DAY, 2);
      expect((await store.readChanges(B, 0 as StoredEvent['sequence'], 200)).earliestRetained).toBe(third);
      await store.deleteSession(B, T0);
      const deleted = await store.readChanges(B, 0 as StoredEvent['sequence'], 200);
      expect([deleted.head.head, deleted.earliestRetained]).toEqual([last, 0]);
    });

    test('paging with nextSince reaches the head with no skip, no repeat, and exact hasMore (false when a page ends exactly at the last retained event)', async () => {
      // Interleave another session so the sequences of B are not contiguous.
      const batch = Array.from({ length: 900 }, (_, i) => request(i % 2 === 0 ? B : C, { summary: `change ${i}` }));
      const all = (await store.append(batch)).map((outcome) => expectAppended(outcome).event);
      const expected = seqs(all.filter((event) => event.sessionKey === B));
      const pages: { count: number; hasMore: boolean }[] = [];
      const seen = seqs(await readAll(store, B, 0, 200, pages));
      expect(pages).toEqual([{ count: 200, hasMore: true }, { count: 200, hasMore: true }, { count: 50, hasMore: false }]);
      expect(seen).toEqual(expected);
      expect(seen[seen.length - 1]).toBe((await headOf(store, B)).head);
      const exact = await store.readChanges(B, 0 as StoredEvent['sequence'], 450);
      expect([seqs(exact.events), exact.hasMore, (await store.readChanges(B, 0 as StoredEvent['sequence'], 449)).hasMore]).toEqual([expected, false, true]);
    });
  });

  describe('keys and payloads round-trip exactly, or are refused', () => {
    // Well-formed keys beyond ASCII: an astral pair, U+FFFD itself, combining marks, CJK.
    const UNICODE_KEYS = ['agent:\u{1F600}:main', 'agent:\uFFFD:main', 'agent:e\u0301:subagent:\u5B50', 'agent:a:main-\u{10FFFF}'].map(key);
    // What SQLite and PostgreSQL would store as U+FFFD: a lone high, a lone low, a reversed pair.
    const ILL_FORMED = ['agent:\uD83D:main', 'agent:\uDE00:main', 'agent:\uDE00\uD83D:main'];

    test('well-formed unicode session, actor and dedupe keys come back exactly as given, and each is its own key', async () => {
      for (const [i, sessionKey] of UNICODE_KEYS.entries()) {
        const actor = UNICODE_KEYS[(i + 1) % UNICODE_KEYS.length] as SessionKey;
        await store.watch({ watcher: actor, target: sessionKey, now: T0 });
        await append(store, sessionKey, { actorType: 'agent', actorSessionKey: actor, dedupeKey: `dedupe:${sessionKey}` });
      }
      const reread = await reopened();
      for (const [i, sessionKey] of UNICODE_KEYS.entries()) {
        const [event] = await readAll(reread, sessionKey);
        expect(event?.actorSessionKey).toBe(UNICODE_KEYS[(i + 1) % UNICODE_KEYS.length]);
        // The dedupe key finds the stored event again, which names its session.
        const stored = await storedByDedupeKey(reread, sessionKey, `dedupe:${sessionKey}`);
        expect([stored.sessionKey, stored.sequence, stored.dedupeKey]).toEqual([sessionKey, event?.sequence, `dedupe:${sessionKey}`]);
      }
      expect((await reread.readHeads()).map((row) => row.sessionKey).sort()).toEqual([...UNICODE_KEYS].sort());
      expect((await reread.listCursors()).map(pairOf).sort()).toEqual(UNICODE_KEYS.map((k, i) => `${UNICODE_KEYS[(i + 1) % UNICODE_KEYS.length]} -> ${k}`).sort());
    });

    for (const raw of ILL_FORMED) test(`a key with an unpaired surrogate (${JSON.stringify(raw)}) is refused by every write, naming it, and nothing is stored`, async () => {
      const bad = raw as SessionKey; // past the type, as a JavaScript caller would pass it
      await append(store, key('agent:\uFFFD:main'), { dedupeKey: 'dedupe:\uFFFD' }); // what the bad keys would collide with
      await store.watch({ watcher: A, target: B, now: T0 });
      const heads = await store.readHeads();
      const cursors = await store.listCursors();
      const base = command(B);
      const requests: AppendRequest[] = [
        { command: { ...base, sessionKey: bad }, appendedAt: T0 },
        { command: { ...base, actorSessionKey: bad }, appendedAt: T0 },
        { command: { ...base, dedupeKey: raw.replace('agent:', 'dedupe:') as typeof base.dedupeKey }, appendedAt: T0 },
        { command: base, appendedAt: T0, seedWatcher: bad },
        { command: { ...base, watchers: [A, bad] }, appendedAt: T0 },
      ];
      for (const refused of requests) {
        const [outcome] = await store.append([refused]);
        expect(outcome?.type).toBe('failed');
      }
      const read = { since: 0 as Notice['notified'], through: 1 as Notice['notified'], now: T0 };
      for (const [operation, call] of [
        ['watch', () => store.watch({ watcher: bad, target: A, now: T0 })],
        ['watch', () => store.watch({ watcher: A, target: bad, now: T0 })],
        ['drain', () => store.drain({ watcher: bad, acks: [{ target: A, notified: 1 as Notice['notified'] }], now: T0 })],
        ['resetWatcher', () => store.resetWatcher(bad, T0)],
        ['unwatch', () => store.unwatch(bad, A, T0)],
        ['acknowledgeRead', () => store.acknowledgeRead({ watcher: bad, target: A, ...read })],
        ['acknowledgeRead', () => store.acknowledgeRead({ watcher: A, target: bad, ...read })],
        ['deleteSession', () => store.deleteSession(bad, T0)],
      ] as const) await expect(call()).rejects.toMatchObject({ _tag: 'StoreError', operation });
      expect(await store.readHeads()).toEqual(heads);
      expect(await store.listCursors()).toEqual(cursors);
      expect(await readAll(store, key('agent:\uFFFD:main'))).toHaveLength(1);
    });

    test('the payload stored is the one decoded: a caller mutating its object afterwards changes nothing, a getter is read once and its later answers are never stored', async () => {
      const given: Record<string, unknown> = { outcome: 'error', note: 'as validated', nested: { n: 1 } };
      const mutated = command(A, { kind: 'run_failed', actorType: 'system', payload: given });
      let reads = 0;
      const getter = command(A, {
        payload: {
          get channel(): string {
            reads += 1;
            return reads === 1 ? 'telegram' : 'y'.repeat(10_000);
          },
        },
      });
      // What group commit allows: the caller's turn goes on before the batch is written.
      given['outcome'] = 'not an outcome';
      given['note'] = 'x'.repeat(1_000_000);
      (given['nested'] as { n: number }).n = 2;
      delete given['outcome'];
      (await store.append([mutated, getter].map((c) => ({ command: c, appendedAt: T0 })))).forEach(expectAppended);
      const events = await readAll(await reopened(), A);
      expect(events.map((event) => event.payload)).toEqual([{ outcome: 'error', note: 'as validated', nested: { n: 1 } }, { channel: 'telegram' }]);
      expect(reads).toBe(1);
    });
  });

  // A NUL is the hazard: PostgreSQL cannot store one and node:sqlite of some Node releases cut text at it on read.
  describe('text round-trips exactly on every driver, or is refused alike', () => {
    test('odd code points and a very long summary, in summary, payload (escapes, nesting, key order, numbers) and dedupe key, come back exactly as decoded after a reopen', async () => {
      const payload = {
        z: 'last key first',
        odd: ODD,
        emoji: '\u{1F600} \uFFFD e\u0301 \u5B50',
        escapes: 'quote " backslash \\ tab \t newline \n \u0001 \u2028 escaped \\u0000 stays text',
        nested: { list: [1, -0, 1.5e-7, 2 ** 53 - 1, true, null, { deep: ['\u{10FFFF}', ODD] }] },
        10: 'integer-like key',
        'key with \u{1F600}': 'value',
      };
      const commands = [command(A, { summary: ODD, payload, dedupeKey: `dedupe:${ODD.replace(/[\s\u2028]/gu, '_')}` })];
      // Past decodeRecordInput (which bounds a summary), as a direct caller of the port may pass it.
      commands.push({ ...command(A), summary: LONG } as AppendCommand);
      const outcomes = await store.append(commands.map((c) => ({ command: c, appendedAt: T0 })));
      expect(outcomes.map((o) => o.type)).toEqual(['appended', 'appended']);
      const written = expectAppended(outcomes[0]).event;
      const events = await readAll(await reopened(), A, 0, 10);
      expect(events.map((e) => e.summary)).toEqual([commands[0]?.summary, LONG]);
      expect(events[0]?.payload).toEqual(commands[0]?.payload);
      expect([JSON.stringify(events[0]?.payload), JSON.stringify(written.payload)]).toEqual([commands[0]?.payloadJson, commands[0]?.payloadJson]);
      expect((await storedByDedupeKey(store, A, commands[0]?.dedupeKey as string)).sequence).toBe(events[0]?.sequence);
    });

    test('a NUL is refused alike: decodeRecordInput turns one in a summary into a space and refuses one in a payload or dedupe key; the port refuses a raw one', async () => {
      expect(command(A, { summary: 'a\u0000b' }).summary).toBe('a b');
      for (const input of [{ payload: { v: 'a\u0000b' } }, { dedupeKey: 'a\u0000b' }]) {
        expect(decodeRecordInput({ kind: 'human_direct_message', actorType: 'human', summary: 's', sessionKey: A, ...input })._tag).toBe('Left');
      }
      const base = command(A, { payload: { v: 1 } });
      const outcomes = await store.append([
        { command: { ...base, summary: 'before\u0000after' } as AppendCommand, appendedAt: T0 },
        { command: { ...base, payloadJson: '{"v":"a\u0000b"}' } as AppendCommand, appendedAt: T0 },
      ]);
      expect(outcomes.map((o) => o.type)).toEqual(['failed', 'failed']);
      expect(await readAll(store, A, 0, 10)).toEqual([]);
      expect(await store.readHeads([A])).toEqual([]);
    });
  });
}

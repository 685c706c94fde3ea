// Issue 12 items 1, 2, 7 and 14: what `record` accepts is stored exactly as it was checked, on
// every store; a key that a store could not keep exactly (an unpaired surrogate) is refused at
// the boundary; a huge input costs work in proportion to the caps (a 200-character summary, a
// 4 KiB payload), not to what the caller sent; and no rejected value's text reaches an error.
import { decodeRecordInput, SUMMARY_SCAN_LIMIT } from '@session-state/domain';
import { STORE_KINDS, storeMatrix, type StoreHarness } from '@session-state/testkit';

import { createSessionStateAwareness, InvalidInputError, type SessionStateAwareness } from '../../src/index.js';
import { recordingLogger, type RecordingLogger } from '../support/harness.js';
import { noticeTexts } from '../support/noticeTexts.js';

const MEMORY = STORE_KINDS[0] as (typeof STORE_KINDS)[number];

const W = 'agent:main:main';
const T = 'agent:main:subagent:c1';
const TURN = { sessionKey: T, kind: 'human_direct_message', actorType: 'human', summary: 'human turn' } as const;

/** The stored events of T after `since`, as `status` returns them. */
async function eventsOf(awareness: SessionStateAwareness, sessionKey = T) {
  return (await awareness.status(sessionKey, { changesSince: 0 })).stateChanges?.events ?? [];
}

describe.each(storeMatrix)('record input integrity on the %s store', (_name, kind) => {
  let opened: StoreHarness;
  let awareness: SessionStateAwareness;
  let logger: RecordingLogger;

  beforeEach(async () => {
    opened = await kind.open();
    logger = recordingLogger();
    awareness = await createSessionStateAwareness({ store: opened.store, logger });
  });
  afterEach(async () => {
    await awareness.close();
    await opened.cleanup();
  });

  // --- item 1: keys and text that round-trip exactly ---------------------------------------------

  test.each([
    ['record.sessionKey', { ...TURN, sessionKey: 'agent:\uD83D:main' }],
    ['record.actorSessionKey', { ...TURN, actorType: 'agent', actorSessionKey: 'agent:main:\uDE00' }],
    ['record.dedupeKey', { ...TURN, dedupeKey: 'turn:\uD83D' }],
    ['record.payload.name', { ...TURN, payload: { name: 'cut emoji \uD83D' } }],
    ['record.payload.k\uDE00', { ...TURN, payload: { 'k\uDE00': 1 } }],
    ['record.payload.list.0', { ...TURN, payload: { list: ['nul \u0000 inside'] } }],
  ])('an unpaired surrogate or NUL in %s is an InvalidInputError naming it, and nothing is stored', async (field, input) => {
    const result = await awareness.record(input as never);
    expect(result.ok).toBe(false);
    const error = (result as { error: unknown }).error;
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe(field);
    expect(await eventsOf(awareness, T)).toEqual([]);
    expect(await eventsOf(awareness, 'agent:\uFFFD:main')).toEqual([]);
    expect(await eventsOf(awareness, 'agent:main:main')).toEqual([]);
  });

  test.each([
    ['childSpawned.childKey', (a: SessionStateAwareness) => a.childSpawned({ parentKey: W, childKey: 'agent:main:subagent:\uD83D' })],
    ['childSpawned.dedupeKey', (a: SessionStateAwareness) => a.childSpawned({ parentKey: W, childKey: T, dedupeKey: '\uDE00' })],
    ['sent.deliveredTo', (a: SessionStateAwareness) => a.sent({ senderKey: W, deliveredTo: 'agent:main:\uDE00\uD83D', watch: true })],
    ['status.sessionKey', (a: SessionStateAwareness) => a.status('agent:\uD83D:main')],
    ['drain.watcherKey', (a: SessionStateAwareness) => a.drain('agent:\uD83D:main')],
    ['sessionDeleted.sessionKey', (a: SessionStateAwareness) => a.sessionDeleted('agent:\uD83D:main')],
  ])('an unpaired surrogate in %s is rejected with an InvalidInputError naming it', async (field, call) => {
    await expect((async () => call(awareness))()).rejects.toMatchObject({ name: 'InvalidInputError', field });
  });

  test('well-formed unicode keys round-trip exactly and stay distinct from U+FFFD', async () => {
    const emoji = 'agent:\u{1F600}:main';
    const replacement = 'agent:\uFFFD:main';
    await awareness.record({ ...TURN, sessionKey: emoji, dedupeKey: 'turn:\u{1F600}' });
    await awareness.record({ ...TURN, sessionKey: replacement, dedupeKey: 'turn:\uFFFD' });
    const rows = await awareness.list([emoji, replacement]);
    expect(rows.map((row) => [row.sessionKey, row.stateVersion])).toEqual([
      [emoji, 1],
      [replacement, 2],
    ]);
  });

  test('a summary with an unpaired surrogate is stored well-formed (U+FFFD), the same as record returned it', async () => {
    const result = await awareness.record({ ...TURN, summary: 'display name \uD83D cut' });
    expect(result.ok && 'event' in result && result.event.summary).toBe('display name \uFFFD cut');
    expect((await eventsOf(awareness)).map((event) => event.summary)).toEqual(['display name \uFFFD cut']);
  });

  test('the 199-code-point cut never splits a surrogate pair', async () => {
    const summary = `${'x'.repeat(198)}${'\u{1F600}'.repeat(5)}`;
    const result = await awareness.record({ ...TURN, summary });
    const stored = result.ok && 'event' in result ? result.event.summary : '';
    expect(stored).toBe(`${'x'.repeat(198)}\u{1F600}…`);
    expect(Array.from(stored)).toHaveLength(200);
  });

  // --- item 2: what is stored is what was validated ---------------------------------------------

  test('mutating the payload right after record (before the batch is written) changes nothing stored', async () => {
    const payload: Record<string, unknown> = { channel: 'telegram', outcome: 'timeout' };
    const pending = awareness.record({ ...TURN, kind: 'run_failed', actorType: 'system', payload });
    payload['channel'] = 'x'.repeat(1_000_000); // would be 1 MB, far over the cap
    delete payload['outcome']; // a run_failed without its outcome
    const result = await pending;
    expect(result.ok).toBe(true);
    expect((await eventsOf(awareness)).map((event) => event.payload)).toEqual([{ channel: 'telegram', outcome: 'timeout' }]);
  });

  test('a getter is read once: its later answers never reach the store', async () => {
    let reads = 0;
    const input = {
      ...TURN,
      payload: {
        get note(): string {
          reads += 1;
          return reads === 1 ? 'first answer' : 'y'.repeat(100_000);
        },
      },
    };
    let summaryReads = 0;
    Object.defineProperty(input, 'summary', {
      enumerable: true,
      get: () => {
        summaryReads += 1;
        return summaryReads === 1 ? 'the summary checked' : '';
      },
    });
    const result = await awareness.record(input);
    expect(result.ok).toBe(true);
    expect((await eventsOf(awareness)).map((event) => [event.summary, event.payload])).toEqual([['the summary checked', { note: 'first answer' }]]);
    expect(reads).toBe(1);
    expect(summaryReads).toBe(1);
  });

  test('childSpawned reads each field once: a key getter cannot swap in an unchecked key after validation', async () => {
    let reads = 0;
    const input = { childKey: T, summary: ' spawned\nby a getter ' };
    Object.defineProperty(input, 'parentKey', {
      enumerable: true,
      get: () => {
        reads += 1;
        return reads === 1 ? W : 'not a key at all';
      },
    });
    const result = await awareness.childSpawned(input as never);
    expect(result.ok && 'event' in result && result.event.actorSessionKey).toBe(W);
    expect(reads).toBe(1);
  });
});

// --- item 7: work in proportion to the caps ---------------------------------------------------------

/** An object whose property reads are counted (a Proxy's get trap). */
function countingObject<T extends object>(target: T): { readonly value: T; reads(): number } {
  let reads = 0;
  const value = new Proxy(target, {
    get(t, key, receiver) {
      if (typeof key === 'string') reads += 1;
      return Reflect.get(t, key, receiver) as unknown;
    },
  });
  return { value, reads: () => reads };
}

describe('a huge input is handled in work bounded by the caps, not by its size', () => {
  test('a payload of 100,000 entries is refused before any of its values is read', () => {
    const big = countingObject(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, 'v'.repeat(100)])));
    const decoded = decodeRecordInput({ ...TURN, payload: big.value });
    expect(decoded._tag).toBe('Left');
    expect(decoded._tag === 'Left' && decoded.left.field).toBe('record.payload');
    // Old: every value read twice (the check, then JSON.stringify), 200,000 reads.
    expect(big.reads()).toBe(0);
  });

  test('a payload is refused as soon as it passes 4 KiB: the entries after that point are never read', () => {
    const read: string[] = [];
    const payload: Record<string, unknown> = {};
    for (let i = 0; i < 40; i += 1) {
      Object.defineProperty(payload, `k${i}`, {
        enumerable: true,
        get: () => {
          read.push(`k${i}`);
          return 'v'.repeat(200);
        },
      });
    }
    const decoded = decodeRecordInput({ ...TURN, payload });
    expect(decoded._tag === 'Left' && decoded.left.field).toBe('record.payload');
    // Each entry is about 210 bytes, so the 20th passes 4096 bytes; none after it is read, none twice.
    expect(read.length).toBeLessThanOrEqual(20);
    expect(new Set(read).size).toBe(read.length);
  });

  test('an array of a million items in a payload is refused without reading its items', () => {
    const list = countingObject(new Array<number>(1_000_000).fill(1));
    const decoded = decodeRecordInput({ ...TURN, payload: { list: list.value } });
    expect(decoded._tag === 'Left' && decoded.left.field).toBe('record.payload');
    expect(list.reads()).toBeLessThan(10); // `length` and the like, no items
  });

  test(`a 50-million-character summary is normalised from its first ${SUMMARY_SCAN_LIMIT} units only`, () => {
    const huge = `${'word '.repeat(10_000_000)}`;
    // Every string method the normalisation calls must see at most the examined prefix (and the ellipsis).
    const seen: number[] = [];
    const spies = (['replace', 'trim', 'slice'] as const).map((method) => {
      const original = String.prototype[method] as (...args: unknown[]) => unknown;
      return jest.spyOn(String.prototype, method).mockImplementation(function (this: string, ...args: unknown[]) {
        seen.push(this.length);
        return original.apply(this, args);
      } as never);
    });
    const arrayFrom = jest.spyOn(Array, 'from');
    let decoded: ReturnType<typeof decodeRecordInput>;
    try {
      decoded = decodeRecordInput({ ...TURN, summary: huge });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const fromLengths = arrayFrom.mock.calls.map(([arg]) => (typeof arg === 'string' ? arg.length : 0));
    arrayFrom.mockRestore();
    expect(decoded._tag).toBe('Right');
    expect(decoded._tag === 'Right' && decoded.right.summary).toBe(`${'word '.repeat(40)}`.slice(0, 199) + '…');
    // `slice` is called on the whole string once, to take the prefix (O(1) in V8); nothing else sees it.
    expect(seen.filter((length) => length > SUMMARY_SCAN_LIMIT + 1)).toEqual([huge.length]);
    expect(Math.max(0, ...fromLengths)).toBeLessThanOrEqual(SUMMARY_SCAN_LIMIT + 1);
  });

  test('a summary with no visible character in its examined prefix is refused as empty, described by its size', () => {
    const decoded = decodeRecordInput({ ...TURN, summary: `${' '.repeat(SUMMARY_SCAN_LIMIT + 10)}late text` });
    expect(decoded._tag === 'Left' && decoded.left.message).toBe(
      `invalid record.summary: expected a non-empty one-line summary, got a string of ${SUMMARY_SCAN_LIMIT + 19} characters`,
    );
  });
});

// --- item 14: no content in errors ------------------------------------------------------------------

describe('a rejected value is described by type and size, never echoed', () => {
  const SECRET = 'hunter2';
  const pasted = `my password is ${SECRET}`;

  test.each([
    ['a message pasted as the session key', { ...TURN, sessionKey: pasted }, 'a string of 22 characters'],
    ['a message pasted as the kind', { ...TURN, kind: pasted }, 'a string of 22 characters'],
    ['a blank summary', { ...TURN, summary: `\n${' '.repeat(5)}` }, 'a string of 6 characters'],
    ['a secret-looking token as the run_failed outcome', { ...TURN, kind: 'run_failed', actorType: 'system', payload: { outcome: SECRET } }, 'a string of 7 characters'],
    ['a payload value with a NUL', { ...TURN, payload: { note: `${SECRET}\u0000` } }, 'a string of 8 characters'],
    ['an oversized payload', { ...TURN, payload: { a: SECRET.repeat(600), b: 1 } }, 'an object with 2 keys'],
    ['the whole input as a string', pasted, 'a string of 22 characters'],
    ['the whole input as an array', [pasted], 'an array of 1 item'],
  ])('%s', async (_label, input, described) => {
    const logger = recordingLogger();
    const opened = await MEMORY.open();
    const awareness = await createSessionStateAwareness({ store: opened.store, logger });
    try {
      const result = await awareness.record(input as never);
      const error = (result as unknown as { error: InvalidInputError }).error;
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error.message).toContain(`got ${described}`);
      expect(error.value).toBe(described);
      expect(error.message).not.toContain(SECRET);
      expect(JSON.stringify(logger.entries)).not.toContain(SECRET);
    } finally {
      await awareness.close();
      await opened.cleanup();
    }
  });

  test('a facade method given a pasted message as a key describes it', async () => {
    const opened = await MEMORY.open();
    const awareness = await createSessionStateAwareness({ store: opened.store });
    try {
      await expect(awareness.status(pasted)).rejects.toThrow('got a string of 22 characters');
      await expect(awareness.status(pasted)).rejects.not.toThrow(SECRET);
      expect(() => noticeTexts(awareness.pending(pasted))).toThrow('got a string of 22 characters');
    } finally {
      await awareness.close();
      await opened.cleanup();
    }
  });

  test('a short identifier-like value is described too, never quoted: any caller string may be content', async () => {
    const decoded = decodeRecordInput({ ...TURN, kind: 'goal-changed' });
    expect(decoded._tag === 'Left' && decoded.left.message).toContain('got a string of 12 characters');
  });
});

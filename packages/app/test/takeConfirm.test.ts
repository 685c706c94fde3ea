// take and confirm through the facade, on every store: a taken notice is not handed out again while its lease runs,
// comes back when the lease ends (with a wake) or at a restart, and confirm acknowledges exactly what was taken.
import { noticeTextOf, storeMatrix } from '@session-state/testkit';

import { InvalidInputError } from '../src/index.js';
import { CHILD, humanTurn, OTHER_CHILD, openFixture, PARENT, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

const LEASE_MS = 60_000;

describe.each(storeMatrix)('take and confirm on the %s store', (_name, kind) => {
  let f: Fixture;
  beforeEach(async () => {
    f = await openFixture(kind, { leaseMs: LEASE_MS });
  });
  afterEach(async () => {
    await f.dispose();
  });

  /** The parent watches the child (a spawn edge at `seeded`) and a human turn gives it one notice. */
  const oneNotice = async (child = CHILD): Promise<number> => {
    const spawned = await f.awareness.childSpawned({ parentKey: PARENT, childKey: child });
    if (!spawned.ok) throw spawned.error;
    await f.awareness.record(humanTurn(child));
    return spawned.event.sequence;
  };

  test('take hands out the notices not taken, with their frozen watermarks, without acknowledging; while taken, pending and take give nothing', async () => {
    const seeded = await oneNotice();
    const [taken, ...rest] = await f.awareness.take(PARENT);
    expect(rest).toEqual([]);
    expect(taken).toEqual({ watcher: PARENT, target: CHILD, changesSince: seeded, text: noticeTextOf(CHILD, seeded), notified: seeded + 1 });
    expect(f.awareness.pending(PARENT)).toEqual([]);
    expect(await f.awareness.take(PARENT)).toEqual([]);
    expect(await f.awareness.drain(PARENT)).toEqual([]);
    expect(f.awareness.metrics()).toMatchObject({ noticesTaken: 1, noticesConfirmed: 0 });
  });

  test('confirm acknowledges exactly what was taken; a change after the take reopens one notice at confirm, with a wake', async () => {
    const seeded = await oneNotice();
    await oneNotice(OTHER_CHILD);
    const taken = await f.awareness.take(PARENT);
    expect(taken.map((notice) => notice.target)).toEqual([CHILD, OTHER_CHILD]);
    await f.awareness.record(humanTurn(CHILD));
    const wakesBefore = f.wakes.length;
    expect(await f.awareness.confirm(PARENT, taken)).toEqual({ confirmed: 2 });
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([noticeTextOf(CHILD, seeded + 1)]);
    expect(f.wakes.slice(wakesBefore)).toEqual([PARENT]);
    expect(await f.awareness.confirm(PARENT, taken)).toEqual({ confirmed: 0 });
  });

  test('a notice taken and never confirmed comes back when the lease ends (one wake) and at a restart', async () => {
    await oneNotice();
    const [taken] = await f.awareness.take(PARENT);
    const wakesBefore = f.wakes.length;
    f.clock.advance(LEASE_MS);
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([taken?.text]);
    expect((await f.awareness.take(PARENT)).map((notice) => notice.text)).toEqual([taken?.text]);
    f = await f.restart();
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([taken?.text]);
    expect(f.wakes).toEqual([PARENT]);
    expect(wakesBefore).toBeGreaterThan(0);
  });

  test('confirm after a reader read to the head acknowledges nothing, reopens nothing and wakes nobody', async () => {
    const seeded = await oneNotice();
    await f.awareness.record(humanTurn(CHILD));
    const taken = await f.awareness.take(PARENT);
    await f.awareness.status(CHILD, { changesSince: seeded, reader: PARENT });
    const wakesBefore = f.wakes.length;
    expect(await f.awareness.confirm(PARENT, taken)).toEqual({ confirmed: 0 });
    expect(f.awareness.pending(PARENT)).toEqual([]);
    expect(f.wakes.length).toBe(wakesBefore);
  });

  test('confirm refuses anything but the notices take returned, naming the field, and changes nothing', async () => {
    await oneNotice();
    const taken = await f.awareness.take(PARENT);
    for (const bad of [undefined, [{ target: CHILD }], [{ target: 'has space', notified: 1 }], [{ target: CHILD, notified: -1 }]]) {
      const error = await f.awareness.confirm(PARENT, bad as never).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).field).toMatch(/^confirm\.taken/);
    }
    expect(await f.awareness.confirm(PARENT, taken)).toEqual({ confirmed: 1 });
  });
});

describe('the lease wake', () => {
  test('a lease that ends unconfirmed wakes the watcher once, on a real timer', async () => {
    const [memory] = storeMatrix;
    const f = await openFixture(memory![1], { leaseMs: 20 });
    try {
      await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
      await f.awareness.record(humanTurn(CHILD));
      await f.awareness.take(PARENT);
      const wakesBefore = f.wakes.length;
      f.clock.advance(20);
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(f.wakes.slice(wakesBefore)).toEqual([PARENT]);
    } finally {
      await f.dispose();
    }
  });
});

describe('the notice link', () => {
  test('noticeLink puts an Open link before the instruction; nothing returned, or a throw (logged), keeps the default text', async () => {
    const [memory] = storeMatrix;
    const link = (target: string): string | undefined => (target === CHILD ? `/chat/${encodeURIComponent(target)}` : target === OTHER_CHILD ? undefined : (() => { throw new Error('no route'); })());
    const f = await openFixture(memory![1], { noticeLink: link });
    try {
      for (const child of [CHILD, OTHER_CHILD, 'agent:main:subagent:child-9']) {
        await f.awareness.childSpawned({ parentKey: PARENT, childKey: child });
        await f.awareness.record(humanTurn(child));
      }
      const [linked, plain, failed] = f.awareness.pending(PARENT);
      expect(linked?.text).toBe(
        `Session "${CHILD}" changed (other actor). Open: [session](</chat/${encodeURIComponent(CHILD)}>) Reconcile before acting: session_status sessionKey "${CHILD}" changesSince ${linked?.changesSince}.`,
      );
      expect(plain?.text).toBe(noticeTextOf(OTHER_CHILD, plain?.changesSince ?? -1));
      expect(failed?.text).toBe(noticeTextOf('agent:main:subagent:child-9', failed?.changesSince ?? -1));
      expect(f.logger.entries).toContainEqual({ level: 'warn', message: 'noticeLink threw; the notice has no link', fields: expect.objectContaining({ operation: 'noticeLink' }) });
    } finally {
      await f.dispose();
    }
  });
});

// Storage failures through the facade, on every store: reported (a failed result or a rejection
// naming the operation), logged without content, leaving no trace, and the next call works.
import { faultStore, faultStoreOption, INJECTED_FAILURE, storeMatrix, type FaultStore, type StoreKind } from '@session-state/testkit';

import { createSessionStateAwareness, StoreOperationError } from '../src/index.js';
import { CHILD, humanTurn, openFixture, PARENT, PEER, recordingLogger, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

const SECRET_SUMMARY = 'human asked about the merger plan';
const SECRET_PAYLOAD = 'payload-value-never-logged';

describe.each(storeMatrix)('storage failures on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  let faults: FaultStore;
  beforeEach(async () => {
    const faulty = faultStoreOption();
    f = await openFixture(kind, { wrap: faulty.wrap });
    faults = faulty.faults();
  });
  afterEach(async () => {
    await f.dispose();
  });

  test.each(['reject', 'throw'] as const)('a failing append (%s) returns { ok: false }, logs no content, and the next record works', async (how) => {
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    const versionBefore = (await f.awareness.status(CHILD)).stateVersion;
    faults.failNext('append', 1, how);

    const failed = await f.awareness.record(humanTurn(CHILD, { summary: SECRET_SUMMARY, payload: { note: SECRET_PAYLOAD } }));

    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error).toBeInstanceOf(StoreOperationError);
    expect(failed.error.message).toContain('record');
    expect(f.logger.entries).toEqual([
      expect.objectContaining({ level: 'error', fields: expect.objectContaining({ operation: 'record', sessionKey: CHILD, kind: 'human_direct_message' }) }),
    ]);
    const logged = JSON.stringify(f.logger.entries);
    expect(logged).toContain(INJECTED_FAILURE);
    expect(logged).not.toContain(SECRET_SUMMARY);
    expect(logged).not.toContain(SECRET_PAYLOAD);
    // No trace: no head bump, no notice.
    expect((await f.awareness.status(CHILD)).stateVersion).toBe(versionBefore);
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);

    const next = await f.awareness.record(humanTurn(CHILD));
    expect(next.ok).toBe(true);
    expect(noticeTexts(f.awareness.pending(PARENT))).toHaveLength(1);
    expect(f.awareness.metrics().appendFailures).toBe(1);
  });

  test('a failing drain rejects naming drain, consumes nothing, and the next drain delivers', async () => {
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.record(humanTurn(CHILD));
    const queued = noticeTexts(f.awareness.pending(PARENT));
    faults.failNext('drain');

    const failure = await f.awareness.drain(PARENT).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StoreOperationError);
    expect((failure as StoreOperationError).operation).toBe('drain');
    expect((failure as Error).message).toMatch(/drain/);
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual(queued);

    expect(noticeTexts(await f.awareness.drain(PARENT))).toEqual(queued);
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
  });

  test('a failing childSpawned store write returns { ok: false } and seeds nothing', async () => {
    faults.failNext('append');
    const result = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    expect(result.ok).toBe(false);
    await f.awareness.record(humanTurn(CHILD));
    expect(noticeTexts(f.awareness.pending(PARENT))).toEqual([]);
  });

  test.each([
    ['sent', 'watch', (f: Fixture) => f.awareness.sent({ senderKey: PARENT, deliveredTo: PEER, watch: true })],
    ['status', 'readHeads', (f: Fixture) => f.awareness.status(PEER)],
    ['status', 'readChanges', (f: Fixture) => f.awareness.status(PEER, { changesSince: 0 })],
    ['list', 'readHeads', (f: Fixture) => f.awareness.list([PEER])],
    ['watched', 'listCursors', (f: Fixture) => f.awareness.watched(PARENT)],
    ['watched', 'readHeads', (f: Fixture) => f.awareness.watched(PARENT)],
    ['sessionReset', 'resetWatcher', (f: Fixture) => f.awareness.sessionReset(PARENT)],
    ['sessionDeleted', 'deleteSession', (f: Fixture) => f.awareness.sessionDeleted(PEER)],
    ['prune', 'prune', (f: Fixture) => f.awareness.prune()],
  ] as const)('%s rejects naming itself when the store fails (%s), then works again', async (operation, method, call) => {
    faults.failNext(method);
    const failure = await call(f).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StoreOperationError);
    expect((failure as StoreOperationError).operation).toBe(operation);
    expect((failure as Error).message).toContain(operation);
    expect(f.logger.entries.some((e) => e.level === 'error' && e.fields['operation'] === operation)).toBe(true);
    await call(f); // the facade keeps working
  });

  test('a throwing wake port is logged and the notice stays queued', async () => {
    const g = await openFixture(kind, {
      wake: () => {
        throw new Error('wake broke');
      },
    });
    try {
      await g.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
      await g.awareness.record(humanTurn(CHILD));
      expect(noticeTexts(g.awareness.pending(PARENT))).toHaveLength(1);
      expect(g.wakes).toEqual([PARENT]);
      expect(g.logger.entries).toEqual([expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ operation: 'wake' }) })]);
    } finally {
      await g.dispose();
    }
  });
});

describe('the restart scan', () => {
  test('a failing restart scan rejects createSessionStateAwareness naming restartScan', async () => {
    const faults = faultStore({} as never);
    const store = faults.store;
    faults.failNext('scanPending');
    await expect(createSessionStateAwareness({ store, logger: recordingLogger() })).rejects.toThrow(/restartScan/);
  });
});

describe('a broken clock port', () => {
  test('record neither throws nor rejects: it returns { ok: false }, logs, and writes nothing', async () => {
    const { createMemoryStore } = await import('@session-state/adapters-memory');
    const logger = recordingLogger();
    let broken = false;
    const awareness = await createSessionStateAwareness({
      store: createMemoryStore(),
      logger,
      clock: {
        now: () => {
          if (broken) throw new Error('clock unavailable');
          return 1_000;
        },
      },
    });
    broken = true;
    let result: Awaited<ReturnType<typeof awareness.record>> | undefined;
    expect(() => {
      void awareness.record(humanTurn(PEER)).then((r) => {
        result = r;
      });
    }).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(result?.ok).toBe(false);
    expect(logger.entries).toEqual([expect.objectContaining({ level: 'error', fields: expect.objectContaining({ operation: 'record' }) })]);
    broken = false;
    expect((await awareness.status(PEER)).stateVersion).toBe(0);
    await awareness.close();
  });
});

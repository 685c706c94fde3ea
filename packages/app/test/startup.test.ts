// What creating the facade runs (`options.startup`): by default the restart scan and a background
// prune; either can be turned off, so a caller that records one event and exits reads and writes
// nothing else.
import { createManualClock } from '@session-state/adapters-memory';
import type { CursorRow, StateStore } from '@session-state/domain';
import { faultStore, storeMatrix, type FaultStore, type StoreHarness, type StoreKind } from '@session-state/testkit';

import { createSessionStateAwareness, InvalidInputError, type SessionStateAwarenessOptions } from '../src/index.js';
import { SCAN_PAGE_ROWS } from '../src/startup.js';
import { CHILD, humanTurn, PARENT, recordingLogger, START } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

const HOUR = 60 * 60 * 1000;

/** The store, wrapped so the test can count the calls the facade made to each operation. */
function counted(inner: StateStore): { store: StateStore; faults: FaultStore } {
  const faults = faultStore(inner);
  return { store: faults.store, faults };
}

describe.each(storeMatrix)('start-up options on the %s store', (_name, kind: StoreKind) => {
  let stores: StoreHarness;
  const clock = createManualClock(START);
  const open = (store: StateStore, startup?: SessionStateAwarenessOptions['startup']) =>
    createSessionStateAwareness({ store, clock, logger: recordingLogger(), retention: { maxRows: 1 }, ...(startup !== undefined ? { startup } : {}) });

  /** Leaves PARENT's cursor on CHILD pending, its notice frozen below a newer change. */
  const leaveAFrozenNotice = async (): Promise<readonly CursorRow[]> => {
    const first = await open(stores.store, { prune: 'off' });
    await first.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await first.record(humanTurn(CHILD));
    await first.record(humanTurn(CHILD));
    expect(noticeTexts(first.pending(PARENT))).toHaveLength(1);
    const rows = await stores.store.listCursors({ target: CHILD as never });
    await first.close();
    return rows;
  };

  beforeEach(async () => {
    stores = await kind.open();
  });
  afterEach(async () => {
    await stores.cleanup();
  });

  test('by default creation runs the restart scan (which writes the frozen notice up) and a background prune', async () => {
    const before = await leaveAFrozenNotice();
    const { store, faults } = counted(await stores.reopen());
    const awareness = await open(store);
    expect(faults.countOf('scanPending')).toBe(1);
    expect(noticeTexts(awareness.pending(PARENT))).toHaveLength(1);
    expect(await store.listCursors({ target: CHILD as never })).not.toEqual(before);
    await awareness.close();
    expect(faults.countOf('prune')).toBeGreaterThan(0);
  });

  test('the recovered notices are offered in a turn after the one the restart scan resolved in (whose last page already ran)', async () => {
    await leaveAFrozenNotice();
    const inner = await stores.reopen();
    let scansTurn = false;
    const offeredInScansTurn: boolean[] = [];
    // Each recovered notice reports the turn its watcher is first read in: the offer reads it first.
    const probed = <T extends object>(notice: T): T => {
      let read = false;
      return new Proxy(notice, {
        get(n, property, receiver) {
          if (property === 'watcher' && !read) {
            read = true;
            offeredInScansTurn.push(scansTurn);
          }
          return Reflect.get(n, property, receiver);
        },
      });
    };
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        if (property !== 'scanPending') return Reflect.get(target, property, receiver);
        return async (...args: Parameters<StateStore['scanPending']>) => {
          const page = await target.scanPending(...args);
          scansTurn = true;
          setImmediate(() => (scansTurn = false));
          return { ...page, notices: page.notices.map(probed) };
        };
      },
    });
    const awareness = await createSessionStateAwareness({ store, clock, logger: recordingLogger(), startup: { prune: 'off' } });
    expect(offeredInScansTurn).toEqual([false]);
    await awareness.close();
  });

  test('no wake is called before creation resolves; each watcher the restart scan owes a wake is woken once right after, and its handler can use the facade', async () => {
    await leaveAFrozenNotice();
    const logger = recordingLogger();
    const woken: { readonly watcher: string; readonly pending: number }[] = [];
    let resolved = false;
    const awareness = await createSessionStateAwareness({
      store: await stores.reopen(),
      clock,
      logger,
      startup: { prune: 'off' },
      // Before the fix this read `awareness` in its temporal dead zone and threw (logged, the wake lost).
      wake: (watcher) => woken.push({ watcher, pending: resolved ? awareness.pending(watcher).length : -1 }),
    });
    resolved = true;
    expect(woken).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken).toEqual([{ watcher: PARENT, pending: 1 }]);
    expect(logger.entries.filter((entry) => entry.message === 'wake port threw')).toEqual([]);
    await awareness.close();
  });

  test('the restart scan pulls fixed pages of scanPending, the first in a turn after the caller\'s and each later one in a turn of its own, and queues every page\'s notices', async () => {
    const parents = Array.from({ length: 2 * SCAN_PAGE_ROWS + 7 }, (_, i) => `agent:p${String(i).padStart(5, '0')}:main`);
    const first = await open(stores.store, { prune: 'off' });
    for (const parentKey of parents) await first.childSpawned({ parentKey, childKey: CHILD });
    await first.record(humanTurn(CHILD));
    await first.close();
    const inner = await stores.reopen();
    let turn = 0;
    let starting = true;
    const tick = (): void => {
      turn += 1;
      if (starting) setImmediate(tick);
    };
    const pages: { readonly turn: number; readonly limit: number; readonly raised: boolean }[] = [];
    const store: StateStore = {
      ...inner,
      scanPending: (request) => {
        pages.push({ turn, limit: request.limit, raised: request.raise !== undefined });
        return inner.scanPending(request);
      },
    };
    setImmediate(tick);
    const calledIn = turn;
    const awareness = await open(store, { prune: 'off' });
    starting = false;
    expect(pages.map((page) => [page.limit, page.raised])).toEqual([0, 1, 2].map(() => [SCAN_PAGE_ROWS, true]));
    expect(pages[0]?.turn).toBeGreaterThan(calledIn);
    for (let i = 1; i < pages.length; i += 1) expect((pages[i]?.turn ?? 0) > (pages[i - 1]?.turn ?? 0)).toBe(true);
    expect(parents.filter((parentKey) => noticeTexts(awareness.pending(parentKey)).length !== 1)).toEqual([]);
    await awareness.close();
  });

  test('restartScan: false reads and writes no cursor at creation and queues nothing', async () => {
    const before = await leaveAFrozenNotice();
    const { store, faults } = counted(await stores.reopen());
    const awareness = await open(store, { restartScan: false, prune: 'off' });
    expect(noticeTexts(awareness.pending(PARENT))).toEqual([]);
    expect(faults.countOf('scanPending')).toBe(0);
    expect(await store.listCursors({ target: CHILD as never })).toEqual(before);
    // The facade works as usual otherwise: a new change queues the pair's notice.
    expect((await awareness.record(humanTurn(CHILD))).ok).toBe(true);
    expect(noticeTexts(awareness.pending(PARENT))).toHaveLength(1);
    await awareness.close();
  });

  test("prune: 'off' starts no prune, at creation or after appends an interval later, and prune() still prunes", async () => {
    const { store, faults } = counted(stores.store);
    const awareness = await open(store, { prune: 'off' });
    await awareness.record(humanTurn(CHILD));
    clock.advance(2 * HOUR);
    await awareness.record(humanTurn(CHILD));
    await awareness.record(humanTurn(CHILD));
    await new Promise((resolve) => setImmediate(resolve));
    expect(faults.countOf('prune')).toBe(0);
    expect(awareness.metrics().rowsPruned).toBe(0);
    // On demand it prunes with the configured policy (maxRows: 1).
    expect((await awareness.prune()).eventsDeleted).toBe(2);
    await awareness.close();
  });
});

describe('options.startup', () => {
  test.each([
    ['options.startup.restartScan', { restartScan: 'no' }],
    ['options.startup.prune', { prune: 'never' }],
    ['options.startup.scan', { scan: false }],
    ['options.startup', 'off'],
  ] as ReadonlyArray<readonly [string, unknown]>)('rejects a bad %s with an InvalidInputError', async (field, startup) => {
    const { createMemoryStore } = await import('@session-state/adapters-memory');
    const error = await createSessionStateAwareness({ store: createMemoryStore(), logger: recordingLogger(), startup } as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe(field);
  });
});

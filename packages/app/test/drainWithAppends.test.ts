// A drain heads a group-commit batch of its own and the appends called after it join it: one
// `append` call, the drain its first item, in call order. Its failure stays its own: a drain that
// failed alone rejects and consumes nothing while the appends stand; a failed call fails both.
import { memoryKind } from '@session-state/testkit';
import { splitBatch, storeError, type StateStore } from '@session-state/domain';

import { StoreOperationError } from '../src/index.js';
import { CHILD, humanTurn, openFixture, OTHER_CHILD, PARENT, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

/** One `append` call headed by a drain: the drained watcher and how many appends came with it. */
interface JoinedCall {
  readonly watcher: string;
  readonly appends: number;
}

let f: Fixture;
let calls: JoinedCall[];
/** What an `append` headed by a drain does instead of the real one, when set. */
let override: StateStore['append'] | undefined;

beforeEach(async () => {
  calls = [];
  override = undefined;
  f = await openFixture(memoryKind, {
    wrap: (store) => ({
      ...store,
      append: (batch) => {
        const { drain, appends } = splitBatch(batch);
        if (drain === undefined) return store.append(batch);
        calls.push({ watcher: drain.watcher, appends: appends.length });
        return (override ?? store.append)(batch);
      },
    }),
  });
  await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
  await f.awareness.childSpawned({ parentKey: PARENT, childKey: OTHER_CHILD });
});

afterEach(async () => {
  await f.dispose();
});

test('a drain runs after the appends called before it and commits with the ones called after it, in one store call', async () => {
  // One tick: a record, the drain, a record.
  const before = f.awareness.record(humanTurn(CHILD));
  const drained = f.awareness.drain(PARENT);
  const after = f.awareness.record(humanTurn(OTHER_CHILD));

  expect((await before).ok).toBe(true);
  // The notice of the record called before the drain is consumed by it.
  expect((await drained).map((n) => n.target)).toEqual([CHILD]);
  expect((await after).ok).toBe(true);
  expect(calls).toEqual([{ watcher: PARENT, appends: 1 }]);
  // The record called after the drain raised a notice the drain did not consume.
  expect(f.awareness.pending(PARENT).map((n) => n.target)).toEqual([OTHER_CHILD]);
});

test("a drain that failed alone rejects naming drain and consumes nothing; the appends with it stand", async () => {
  await f.awareness.record(humanTurn(CHILD));
  const queued = noticeTexts(f.awareness.pending(PARENT));
  override = async (batch) => {
    const appended = await f.stores.store.append(splitBatch(batch).appends);
    return [{ type: 'failed', error: storeError('drain', new Error('the drain failed alone')) }, ...appended];
  };
  // The lane is busy with the first record, so the second joins the drain's batch.
  const busy = f.awareness.record(humanTurn(OTHER_CHILD));
  const drained = f.awareness.drain(PARENT);
  const after = f.awareness.record(humanTurn(CHILD));

  await expect(drained).rejects.toBeInstanceOf(StoreOperationError);
  await expect(drained).rejects.toMatchObject({ operation: 'drain' });
  expect((await busy).ok).toBe(true);
  expect((await after).ok).toBe(true);
  expect(noticeTexts(f.awareness.pending(PARENT))).toEqual(expect.arrayContaining(queued));
});

test('a failed append call fails the drain and the appends with it; the notices stay queued', async () => {
  await f.awareness.record(humanTurn(CHILD));
  override = () => Promise.reject(new Error('the connection was lost before COMMIT'));
  const busy = f.awareness.record(humanTurn(OTHER_CHILD));
  const drained = f.awareness.drain(PARENT);
  const after = f.awareness.record(humanTurn(CHILD));

  await expect(drained).rejects.toMatchObject({ operation: 'drain' });
  expect((await busy).ok).toBe(true);
  const result = await after;
  expect(result.ok).toBe(false);
  expect(f.awareness.pending(PARENT).map((n) => n.target).sort()).toEqual([CHILD, OTHER_CHILD].sort());
});

// Issue 12 item 11 (the append part): a failed store call is reported in the real cause's words,
// once, with the facade operation named once. A StoreError wrapped in a StoreError (the SQLite
// store rejects a failed append transaction with one, and the facade wraps what it catches)
// read "[object Object]"; so did any thrown value that is not an Error.
import { storeError, type StateStore } from '@session-state/domain';
import { storeMatrix, type StoreKind } from '@session-state/testkit';

import { StoreOperationError, type RecordResult } from '../../src/index.js';
import { CHILD, humanTurn, openFixture, PARENT, type Fixture } from '../support/harness.js';

const CAUSE = 'database or disk is full';

/** How the store fails a call: the values a driver or an adapter may hand back. */
const FAILURES: ReadonlyArray<readonly [string, () => unknown, string]> = [
  ['a StoreError', () => storeError('append', new Error(CAUSE)), CAUSE],
  ['a StoreError wrapping a StoreError', () => storeError('append', storeError('append', new Error(CAUSE))), CAUSE],
  ['an Error', () => new Error(CAUSE), CAUSE],
  ['a string', () => CAUSE, CAUSE],
  ['an object with a message', () => ({ code: 'SQLITE_FULL', message: CAUSE }), CAUSE],
  ['an object without a message', () => ({ code: 'SQLITE_FULL' }), 'a thrown object without a message'],
  ['an object without a prototype', () => Object.create(null) as unknown, 'a thrown object without a message'],
];

/** The failed result's message, asserting the shape of a store failure of `record`. */
function failureMessage(result: RecordResult | undefined): string {
  expect(result?.ok).toBe(false);
  const error = result !== undefined && !result.ok ? result.error : undefined;
  expect(error).toBeInstanceOf(StoreOperationError);
  return (error as Error).message;
}

describe.each(storeMatrix)('store failure messages on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  let failWith: { readonly how: 'reject' | 'outcome'; readonly value: () => unknown } | undefined;

  beforeEach(async () => {
    failWith = undefined;
    const wrap = (store: StateStore): StateStore => ({
      ...store,
      append(batch) {
        const failure = failWith;
        if (failure === undefined) return store.append(batch);
        if (failure.how === 'reject') return Promise.reject(failure.value());
        return Promise.resolve(batch.map(() => ({ type: 'failed' as const, error: storeError('append', failure.value()) })));
      },
      drain(...args) {
        const failure = failWith;
        return failure === undefined ? store.drain(...args) : Promise.reject(failure.value());
      },
    });
    f = await openFixture(kind, { wrap });
  });
  afterEach(async () => {
    await f.dispose();
  });

  test.each(FAILURES)(
    'an append that rejects with %s reads "session-state record failed: <cause>", never "[object Object]"',
    async (_label, value, words) => {
      failWith = { how: 'reject', value };
      const message = failureMessage(await f.awareness.record(humanTurn(CHILD)));
      expect(message).toBe(`session-state record failed: ${words}`);
      expect(f.logger.entries.map((entry) => String(entry.fields['error']))).toContain(words);
      failWith = undefined;
      expect((await f.awareness.record(humanTurn(CHILD))).ok).toBe(true);
    },
  );

  test.each(FAILURES)('an append whose outcome fails with %s names the cause once', async (_label, value, words) => {
    failWith = { how: 'outcome', value };
    const [record, spawn] = await Promise.all([f.awareness.record(humanTurn(CHILD)), f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD })]);
    expect(failureMessage(record)).toBe(`session-state record failed: ${words}`);
    expect(failureMessage(spawn)).toBe(`session-state childSpawned failed: ${words}`);
  });

  test('a drain that rejects with a nested StoreError rejects with the cause once', async () => {
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.record(humanTurn(CHILD));
    failWith = { how: 'reject', value: () => storeError('drain', storeError('drain', new Error(CAUSE))) };
    await expect(f.awareness.drain(PARENT)).rejects.toThrow(new StoreOperationError('drain', new Error(CAUSE)).message);
    await expect(f.awareness.drain(PARENT)).rejects.toThrow(`session-state drain failed: ${CAUSE}`);
  });

  test('a StoreOperationError passed on as a cause is not repeated', () => {
    const inner = new StoreOperationError('record', storeError('append', new Error(CAUSE)));
    expect(new StoreOperationError('record', inner).message).toBe(`session-state record failed: ${CAUSE}`);
  });
});

// What the contract suite declares its tests with. It asserts with the standalone `expect`
// package, not a runner's global, so any runner whose functions have these shapes runs it:
// jest's and vitest's globals (the default) and node:test's exports of the same names.

/** The test functions the suite calls: jest, vitest (globals) and `node:test` all fit. */
export interface TestRunner {
  describe(name: string, body: () => void): unknown;
  /** `timeoutMs` is a hang guard for the property tests; a runner without that argument ignores it. */
  test(name: string, body: () => Promise<void> | void, timeoutMs?: number): unknown;
  beforeEach(body: () => Promise<void>): unknown;
  afterEach(body: () => Promise<void>): unknown;
}

/** The runner's globals (jest; vitest with `globals: true`), or a clear error naming what to pass. */
export function globalTestRunner(): TestRunner {
  const scope = globalThis as Partial<Record<keyof TestRunner, unknown>>;
  const missing = (['describe', 'test', 'beforeEach', 'afterEach'] as const).filter((name) => typeof scope[name] !== 'function');
  if (missing.length > 0) {
    throw new TypeError(
      `describeStateStoreContract: no global ${missing.join(', ')}; pass the runner as the third argument, e.g. import { describe, test, beforeEach, afterEach } from 'node:test'`,
    );
  }
  return scope as TestRunner;
}

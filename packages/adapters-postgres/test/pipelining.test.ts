// Pipelining: the store's pool sends a statement issued behind another without waiting for the
// first's answer (one round trip for both), and `runBoth` reports the failure of the statement
// that failed first in statement order, never the "transaction is aborted" the second then gets.
import pg from 'pg';
import { pgUrl } from '@session-state/testkit';

import { poolConfig } from '../src/connection/pool.js';
import { checkOptions } from '../src/connection/options.js';
import { runBoth } from '../src/connection/transaction.js';

jest.setTimeout(30_000);

// --- runBoth -------------------------------------------------------------------------------------

/** A promise and the functions settling it, to settle two statements' answers in any order. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

test('runBoth resolves with both answers, in statement order', async () => {
  await expect(runBoth(Promise.resolve('first'), Promise.resolve(2))).resolves.toEqual(['first', 2]);
});

test("runBoth rejects with the first statement's failure even when the second's is heard first", async () => {
  const first = deferred<string>();
  const second = deferred<string>();
  const both = runBoth(first.promise, second.promise);
  second.reject(new Error('current transaction is aborted'));
  await new Promise((resolve) => setImmediate(resolve));
  first.reject(new Error('duplicate key'));
  await expect(both).rejects.toThrow('duplicate key');
});

test("runBoth rejects with the second statement's failure when the first succeeded", async () => {
  await expect(runBoth(Promise.resolve(1), Promise.reject(new Error('lock timeout')))).rejects.toThrow('lock timeout');
});

// --- the pool ---------------------------------------------------------------------------------------

test("the store's pool sends a statement issued behind another before the first is answered", async () => {
  const pool = new pg.Pool(poolConfig(checkOptions({ connectionString: pgUrl() })));
  pool.on('error', () => undefined);
  const client = await pool.connect();
  try {
    const stream = (client as unknown as { connection: { stream: { write: (...args: unknown[]) => boolean } } }).connection.stream;
    const write = stream.write.bind(stream);
    let writes = 0;
    stream.write = (...args: unknown[]) => {
      writes += 1;
      return write(...args);
    };
    const first = client.query('SELECT 1 AS one');
    const afterFirst = writes;
    const second = client.query('SELECT 2 AS two');
    // Nothing was answered yet (no await in between): the second was written only if pipelined.
    expect(afterFirst).toBeGreaterThan(0);
    expect(writes).toBeGreaterThan(afterFirst);
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => answer.rows[0] as unknown)).toEqual([{ one: 1 }, { two: 2 }]);
  } finally {
    client.release();
    await pool.end();
  }
});

// `prune` as an operator runs it: --dry-run counts and writes nothing, --cursor-max-age ages
// watches apart from events (its default never expires a cursor before its events), --vacuum
// reports the bytes it gave back, progress goes to stderr only on a terminal, and Ctrl-C stops
// after a committed batch with a summary of what was committed.
import path from 'node:path';

import Database from 'better-sqlite3';

import type { CliIo } from '../src/output/io.js';
import { main } from '../src/main.js';
import { jsonOf, runCli, tempDir } from './support/runCli.js';
import { ageStateFile, dumpTables } from './support/stateFile.js';

const WORKER = 'agent:main:subagent:worker';
const DAY_MS = 86_400_000;

let dir: string;
beforeAll(() => {
  dir = tempDir();
});

async function ok(args: readonly string[], db: string) {
  const result = await runCli([...args, '--db', db]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result;
}

/** The demo's file (watchers with cursors) plus `extra` copies of a WORKER event, everything aged two days. */
async function agedDemo(name: string, extra = 2): Promise<string> {
  const db = path.join(dir, `${name}.db`);
  await ok(['demo'], db);
  await ok(['record', WORKER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'goal'], db);
  const client = new Database(db, { fileMustExist: true });
  try {
    // Copies of the recorded event (SQL, not one CLI run each), and the head raised over them.
    client
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO events (session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at)
         SELECT e.session_key, e.kind, e.actor_type, e.actor_session_key, e.summary, e.payload, NULL, e.occurred_at, e.appended_at
           FROM n, (SELECT * FROM events WHERE session_key = ? ORDER BY sequence DESC LIMIT 1) AS e`,
      )
      .run(extra - 1, WORKER);
    client.prepare('UPDATE heads SET head = (SELECT max(sequence) FROM events WHERE session_key = ?) WHERE session_key = ?').run(WORKER, WORKER);
  } finally {
    client.close();
  }
  ageStateFile(db, 2 * DAY_MS);
  return db;
}

const count = (db: string, table: string): number => {
  const client = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return client.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    client.close();
  }
};

const pragma = (db: string, name: string): number => {
  const client = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return client.pragma(name, { simple: true }) as number;
  } finally {
    client.close();
  }
};

/** Runs the tool in this process with a terminal-like stderr and an interrupt that arrives at once. */
async function runWith(args: readonly string[], { tty = false, interruptAtOnce = false } = {}) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => ((stdout += text), true) },
    stderr: { write: (text: string) => ((stderr += text), true), isTTY: tty, columns: 100 },
    env: {},
    cwd: dir,
    onInterrupt: (stop) => {
      if (interruptAtOnce) stop();
      return () => undefined;
    },
  };
  const status = await main(args, io);
  return { status, stdout, stderr };
}

test('--dry-run counts what prune would delete and expire, and leaves every table as it was', async () => {
  const db = await agedDemo('dry-run');
  const events = count(db, 'events');
  const cursors = count(db, 'cursors');
  const before = dumpTables(db);
  const preview = jsonOf<{ dryRun: boolean; eventsToDelete: number; cursorsToExpire: number }>(
    await ok(['prune', '--max-age', '1d', '--cursor-max-age', '1d', '--dry-run', '--json'], db),
  );
  expect(preview).toEqual({ dryRun: true, eventsToDelete: events, cursorsToExpire: cursors });
  expect(dumpTables(db)).toEqual(before);
  expect((await ok(['prune', '--max-age', '1d', '--dry-run'], db)).stdout).toBe(`would prune ${events} events, expire 0 cursors (dry run: nothing written)\n`);
  // The real run does what the dry run said.
  expect(jsonOf(await ok(['prune', '--max-age', '1d', '--cursor-max-age', '1d', '--json'], db))).toEqual({ eventsDeleted: events, cursorsExpired: cursors });
});

test("--max-age alone never expires a cursor sooner than 30 days: the cursor limit is the larger of the two unless --cursor-max-age says so", async () => {
  const db = await agedDemo('cursor-age');
  const cursors = count(db, 'cursors');
  expect(cursors).toBeGreaterThan(0);
  const first = jsonOf<{ eventsDeleted: number; cursorsExpired: number }>(await ok(['prune', '--max-age', '1s', '--json'], db));
  expect(first.eventsDeleted).toBeGreaterThan(0);
  expect(first.cursorsExpired).toBe(0);
  expect(count(db, 'cursors')).toBe(cursors);
  expect(jsonOf(await ok(['prune', '--max-age', '1s', '--cursor-max-age', '1d', '--json'], db))).toEqual({ eventsDeleted: 0, cursorsExpired: cursors });
  expect(count(db, 'cursors')).toBe(0);
});

test('--vacuum reports the bytes reclaimed once pruned rows are gone', async () => {
  const db = await agedDemo('vacuum', 3000);
  const result = jsonOf<{ eventsDeleted: number; vacuum: { bytesBefore: number; bytesAfter: number; bytesReclaimed: number } }>(
    await ok(['prune', '--max-age', '1d', '--vacuum', '--json'], db),
  );
  expect(result.eventsDeleted).toBeGreaterThanOrEqual(3000);
  expect(result.vacuum.bytesReclaimed).toBe(result.vacuum.bytesBefore - result.vacuum.bytesAfter);
  expect(result.vacuum.bytesReclaimed).toBeGreaterThan(0);
  // VACUUM itself ran: the file keeps no free pages (truncating the WAL alone would leave them).
  expect(pragma(db, 'freelist_count')).toBe(0);
  expect((await ok(['prune', '--vacuum'], db)).stdout).toMatch(/^pruned 0 events, expired 0 cursors\nvacuumed: [\d.]+ KB -> [\d.]+ KB, [\d.]+ KB reclaimed\n$/u);
});

test('progress goes to stderr on a terminal only; stdout carries the same summary either way', async () => {
  const plain = await agedDemo('progress-plain', 20);
  const onTerminal = await agedDemo('progress-tty', 20);
  const quiet = await runWith(['prune', '--max-age', '1d', '--db', plain]);
  const shown = await runWith(['prune', '--max-age', '1d', '--db', onTerminal], { tty: true });
  expect(quiet).toMatchObject({ status: 0, stderr: '' });
  expect(shown.status).toBe(0);
  expect(shown.stdout).toBe(quiet.stdout);
  expect(shown.stderr).toMatch(/pruning \[.*\] \d+\/\d+ events/u);
});

test('Ctrl-C stops after the batch in progress, prints what was committed, and fails so a script knows it did not finish', async () => {
  const db = await agedDemo('interrupt', 2500); // three batches of 1,000 to prune
  const events = count(db, 'events');
  const result = await runWith(['prune', '--max-age', '1d', '--db', db, '--json'], { interruptAtOnce: true });
  expect(result.status).toBe(1);
  const summary = jsonOf<{ eventsDeleted: number; cursorsExpired: number; interrupted: boolean }>(result);
  expect(summary).toEqual({ eventsDeleted: 1000, cursorsExpired: 0, interrupted: true });
  expect(count(db, 'events')).toBe(events - 1000);
  expect(result.stderr).toMatch(/^error: interrupted: prune stopped after committing 1000 deleted events and 0 expired cursors\n$/u);
});

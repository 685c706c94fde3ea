// The write commands: record (both output forms, dedupe, only-if-watched, watchers' notices on a
// watched session) and prune (both forms, with the real clock).
import fs from 'node:fs';
import path from 'node:path';

import { openSqliteStore } from '@session-state/adapters-sqlite';

import { jsonOf, runCli, tempDir } from './support/runCli.js';
import { ageStateFile, dumpTables } from './support/stateFile.js';

const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';
const WORKER = 'agent:main:subagent:worker';
const DAY_MS = 86_400_000;

interface RecordJson {
  ok: boolean;
  outcome: string;
  event?: { sessionKey: string; sequence: number; kind: string; actorType: string; actorSessionKey?: string; summary: string; payload?: Record<string, unknown> };
  reason?: string;
  duplicate?: boolean;
  watchers: { watcher: string; pending: boolean }[];
}

let dir: string;

beforeAll(() => {
  dir = tempDir();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs a write command that succeeds; its only stderr line, if any, is that it created the state file. */
async function ok(args: readonly string[], db: string) {
  const result = await runCli([...args, '--db', db]);
  expect(result.stderr).toMatch(/^(created a new state file at [^\n]+\n)?$/u);
  expect(result.status).toBe(0);
  return result;
}

describe('record', () => {
  test('creates the state file and appends; --json returns the stored event', async () => {
    const db = path.join(dir, 'record.db');
    const result = jsonOf<RecordJson>(
      await ok(['record', WORKER, '--kind', 'run_failed', '--actor', 'system', '--summary', 'run failed\t\nlate', '--payload', '{"outcome":"cancelled","runId":"r1"}', '--json'], db),
    );
    expect(fs.existsSync(db)).toBe(true);
    expect(result.ok).toBe(true);
    expect(result.event).toMatchObject({ sessionKey: WORKER, kind: 'run_failed', actorType: 'system', summary: 'run failed late', payload: { outcome: 'cancelled', runId: 'r1' } });
    expect(result.watchers).toEqual([]);
    const status = jsonOf<{ stateVersion: number }>(await ok(['status', WORKER, '--json'], db));
    expect(status.stateVersion).toBe(result.event?.sequence);
  });

  test('the human form names the sequence, kind, session and actor', async () => {
    const db = path.join(dir, 'human.db');
    const text = (await ok(['record', WORKER, '--kind', 'goal_changed', '--actor', 'agent', '--by', MANAGER, '--summary', 'new goal'], db)).stdout;
    const version = jsonOf<{ stateVersion: number }>(await ok(['status', WORKER, '--json'], db)).stateVersion;
    expect(text).toBe(`recorded #${version} goal_changed on ${WORKER} by agent ${MANAGER}\n`);
  });

  test('a repeated --dedupe-key returns the first event, says it was already recorded and writes nothing', async () => {
    const db = path.join(dir, 'dedupe.db');
    const args = ['record', WORKER, '--kind', 'compacted', '--actor', 'system', '--summary', 'compacted', '--dedupe-key', 'compacted:op-1'];
    const first = jsonOf<RecordJson>(await ok([...args, '--json'], db));
    expect(first.duplicate).toBe(false);
    const before = dumpTables(db);
    const second = jsonOf<RecordJson>(await ok([...args, '--json'], db));
    expect(second.event?.sequence).toBe(first.event?.sequence);
    expect(second.duplicate).toBe(true);
    const text = (await ok(args, db)).stdout;
    expect(text).toContain(`already recorded as #${String(first.event?.sequence)}`);
    expect(text).not.toMatch(/^recorded #/u);
    expect(dumpTables(db)).toEqual(before);
    expect(jsonOf<{ stateVersion: number }>(await ok(['status', WORKER, '--json'], db)).stateVersion).toBe(first.event?.sequence);
  });

  test('--only-if-watched on an unwatched session of a fresh file appends nothing', async () => {
    const db = path.join(dir, 'unwatched.db');
    const human = await ok(['record', WORKER, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'hi', '--only-if-watched'], db);
    expect(human.stdout).toBe(`skipped: ${WORKER} has no watchers (--only-if-watched); no event appended\n`);
    const json = jsonOf<RecordJson>(await ok(['record', WORKER, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'hi', '--only-if-watched', '--json'], db));
    expect(json).toEqual({ ok: true, outcome: 'skipped', reason: 'unwatched', watchers: [] });
    const tables = dumpTables(db);
    expect(tables['events']).toEqual([]);
    expect(tables['heads']).toEqual([]);
    expect(tables['cursors']).toEqual([]);
  });

  test('on a watched session it reports which watchers now have a notice pending', async () => {
    const db = path.join(dir, 'watched.db');
    await ok(['demo'], db);
    const before = jsonOf<{ watcher: string; pending: boolean }[]>(await ok(['cursors', '--watcher', MANAGER, '--json'], db));
    expect(before.map((row) => row.pending)).toEqual([false]);
    const text = (await ok(['record', RESEARCHER, '--kind', 'upstream_missing', '--actor', 'system', '--summary', 'upstream gone'], db)).stdout;
    expect(text).toContain(`watcher ${MANAGER}: notice pending`);
    const after = jsonOf<{ watcher: string; pending: boolean }[]>(await ok(['cursors', '--watcher', MANAGER, '--json'], db));
    expect(after.map((row) => row.pending)).toEqual([true]);
  });

  test("a relative --db starts at the run's working directory, not the process's", async () => {
    const folder = path.join(dir, 'elsewhere');
    fs.mkdirSync(folder);
    const run = await runCli(['record', WORKER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 's', '--db', 'relative.db'], {}, folder);
    expect(run.stderr).toBe('created a new state file at relative.db\n');
    expect(run.status).toBe(0);
    expect(fs.existsSync(path.join(folder, 'relative.db'))).toBe(true);
    expect(fs.existsSync(path.join(process.cwd(), 'relative.db'))).toBe(false);
  });
});

describe('record writes only its own append', () => {
  /** A demo file where a watcher holds a notice frozen below newer changes (notified < material), all of it aged 40 days. */
  async function seedAgedFile(name: string): Promise<string> {
    const db = path.join(dir, `${name}.db`);
    await ok(['demo'], db);
    await ok(['record', RESEARCHER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'goal one'], db);
    await ok(['record', RESEARCHER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'goal two'], db);
    ageStateFile(db, 40 * DAY_MS);
    return db;
  }

  /** Read through the store: a pending cursor's material may live in its target's head row (fan-out). */
  async function noticesFrozenBelowChanges(file: string): Promise<number> {
    const store = openSqliteStore({ path: file, readOnly: true });
    try {
      return (await store.listCursors()).filter((row) => row.notified < row.material).length;
    } finally {
      await store.close();
    }
  }

  test('the seeded file has a notice frozen below newer changes and only aged rows', async () => {
    const db = await seedAgedFile('aged-seed');
    expect(await noticesFrozenBelowChanges(db)).toBeGreaterThan(0);
    const tables = dumpTables(db);
    expect(tables['events']?.length).toBeGreaterThan(0);
    for (const row of tables['events'] as { appended_at: number }[]) expect(row.appended_at).toBeLessThan(Date.now() - 39 * DAY_MS);
  });

  test('an --only-if-watched skip leaves every table as it was: no prune, no restart scan', async () => {
    const db = await seedAgedFile('aged-skip');
    const before = dumpTables(db);
    const run = await ok(['record', WORKER, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'hi', '--only-if-watched'], db);
    expect(dumpTables(db)).toEqual(before);
    expect(run.stdout).toContain('no event appended');
  });

  test('an append adds one event and one head; old events and all cursors stay as they were', async () => {
    const db = await seedAgedFile('aged-append');
    const before = dumpTables(db);
    const appended = jsonOf<RecordJson>(await ok(['record', WORKER, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'worker goal', '--json'], db));
    const after = dumpTables(db);
    expect(after['cursors']).toEqual(before['cursors']);
    expect(after['events']).toHaveLength((before['events']?.length ?? 0) + 1);
    expect(after['events']).toEqual(expect.arrayContaining(before['events'] ?? []));
    expect(after['events']).toContainEqual(expect.objectContaining({ sequence: appended.event?.sequence, session_key: WORKER }));
    expect(after['heads']).toEqual(expect.arrayContaining(before['heads'] ?? []));
    expect(after['heads']).toContainEqual(expect.objectContaining({ session_key: WORKER, head: appended.event?.sequence, prune_watermark: 0 }));
  });

  test('record --help says what it does not touch', async () => {
    const help = await runCli(['record', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/never prunes/u);
    expect(help.stdout).toMatch(/restart scan/u);
  });
});

describe('prune', () => {
  test('with the defaults it keeps fresh events; --max-rows trims the oldest; both forms report counts', async () => {
    const db = path.join(dir, 'prune.db');
    for (const summary of ['one', 'two', 'three']) {
      await ok(['record', WORKER, '--kind', 'goal_changed', '--actor', 'human', '--summary', summary], db);
    }
    expect(jsonOf<{ eventsDeleted: number; cursorsExpired: number }>(await ok(['prune', '--json'], db))).toEqual({ eventsDeleted: 0, cursorsExpired: 0 });
    expect((await ok(['prune', '--max-rows', '1'], db)).stdout).toBe('pruned 2 events, expired 0 cursors\n');
    const status = jsonOf<{ stateVersion: number; stateChanges: { events: { sequence: number }[]; historyGap: boolean } }>(
      await ok(['status', WORKER, '--since', '0', '--json'], db),
    );
    expect(status.stateChanges.events.map((event) => event.sequence)).toEqual([status.stateVersion]);
    expect(status.stateChanges.historyGap).toBe(true);
  });
});

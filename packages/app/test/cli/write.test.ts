// The write commands: record (both output forms, dedupe, only-if-watched, watchers' notices on a
// watched session) and prune (both forms, with the real clock).
import fs from 'node:fs';
import path from 'node:path';

import { jsonOf, requireBuiltCli, runCli, tempDir } from './support/runCli';

const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';
const WORKER = 'agent:main:subagent:worker';

interface RecordJson {
  ok: boolean;
  event?: { sessionKey: string; sequence: number; kind: string; actorType: string; actorSessionKey?: string; summary: string; payload?: Record<string, unknown> };
  skipped?: string;
  watchers: { watcher: string; pending: boolean }[];
}

let dir: string;

beforeAll(() => {
  requireBuiltCli();
  dir = tempDir();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function ok(args: readonly string[], db: string) {
  const result = runCli([...args, '--db', db]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result;
}

describe('record', () => {
  test('creates the state file and appends; --json returns the stored event', () => {
    const db = path.join(dir, 'record.db');
    const result = jsonOf<RecordJson>(
      ok(['record', WORKER, '--kind', 'run_failed', '--actor', 'system', '--summary', 'run failed\t\nlate', '--payload', '{"outcome":"cancelled","runId":"r1"}', '--json'], db),
    );
    expect(fs.existsSync(db)).toBe(true);
    expect(result.ok).toBe(true);
    expect(result.event).toMatchObject({ sessionKey: WORKER, kind: 'run_failed', actorType: 'system', summary: 'run failed late', payload: { outcome: 'cancelled', runId: 'r1' } });
    expect(result.watchers).toEqual([]);
    const status = jsonOf<{ stateVersion: number }>(ok(['status', WORKER, '--json'], db));
    expect(status.stateVersion).toBe(result.event?.sequence);
  });

  test('the human form names the sequence, kind, session and actor', () => {
    const db = path.join(dir, 'human.db');
    const text = ok(['record', WORKER, '--kind', 'goal_changed', '--actor', 'agent', '--by', MANAGER, '--summary', 'new goal'], db).stdout;
    const version = jsonOf<{ stateVersion: number }>(ok(['status', WORKER, '--json'], db)).stateVersion;
    expect(text).toBe(`recorded #${version} goal_changed on ${WORKER} by agent ${MANAGER}\n`);
  });

  test('a repeated --dedupe-key returns the first event and does not move the version', () => {
    const db = path.join(dir, 'dedupe.db');
    const args = ['record', WORKER, '--kind', 'compacted', '--actor', 'system', '--summary', 'compacted', '--dedupe-key', 'compacted:op-1', '--json'];
    const first = jsonOf<RecordJson>(ok(args, db));
    const second = jsonOf<RecordJson>(ok(args, db));
    expect(second.event?.sequence).toBe(first.event?.sequence);
    expect(jsonOf<{ stateVersion: number }>(ok(['status', WORKER, '--json'], db)).stateVersion).toBe(first.event?.sequence);
  });

  test('--only-if-watched on an unwatched session writes nothing', () => {
    const db = path.join(dir, 'unwatched.db');
    const human = ok(['record', WORKER, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'hi', '--only-if-watched'], db);
    expect(human.stdout).toContain('nothing written');
    const json = jsonOf<RecordJson>(ok(['record', WORKER, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'hi', '--only-if-watched', '--json'], db));
    expect(json).toEqual({ ok: true, skipped: 'unwatched', watchers: [] });
    expect(jsonOf<{ stateVersion: number }>(ok(['status', WORKER, '--json'], db)).stateVersion).toBe(0);
  });

  test('on a watched session it reports which watchers now have a notice pending', () => {
    const db = path.join(dir, 'watched.db');
    ok(['demo'], db);
    const before = jsonOf<{ watcher: string; pending: boolean }[]>(ok(['cursors', '--watcher', MANAGER, '--json'], db));
    expect(before.map((row) => row.pending)).toEqual([false]);
    const text = ok(['record', RESEARCHER, '--kind', 'upstream_missing', '--actor', 'system', '--summary', 'upstream gone'], db).stdout;
    expect(text).toContain(`watcher ${MANAGER}: notice pending`);
    const after = jsonOf<{ watcher: string; pending: boolean }[]>(ok(['cursors', '--watcher', MANAGER, '--json'], db));
    expect(after.map((row) => row.pending)).toEqual([true]);
  });
});

describe('prune', () => {
  test('with the defaults it keeps fresh events; --max-rows trims the oldest; both forms report counts', () => {
    const db = path.join(dir, 'prune.db');
    for (const summary of ['one', 'two', 'three']) {
      ok(['record', WORKER, '--kind', 'goal_changed', '--actor', 'human', '--summary', summary], db);
    }
    expect(jsonOf<{ eventsDeleted: number; cursorsExpired: number }>(ok(['prune', '--json'], db))).toEqual({ eventsDeleted: 0, cursorsExpired: 0 });
    expect(ok(['prune', '--max-rows', '1'], db).stdout).toBe('pruned 2 events, expired 0 cursors\n');
    const status = jsonOf<{ stateVersion: number; stateChanges: { events: { sequence: number }[]; historyGap: boolean } }>(
      ok(['status', WORKER, '--since', '0', '--json'], db),
    );
    expect(status.stateChanges.events.map((event) => event.sequence)).toEqual([status.stateVersion]);
    expect(status.stateChanges.historyGap).toBe(true);
  });
});

// The read commands (status, list, cursors, explain) in both output forms, on a file the demo
// left, and the fact that reading changes nothing.
import fs from 'node:fs';
import path from 'node:path';

import { jsonOf, runCli, tempDir } from './support/runCli.js';
import { dumpTables, hashFileAndWal } from './support/stateFile.js';

const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';
const OPS = 'agent:ops:main';

interface StatusJson {
  sessionKey: string;
  stateVersion: number;
  stateChanges?: {
    events: { sequence: number; kind: string; actorType: string; summary: string; payload?: Record<string, unknown> }[];
    historyGap: boolean;
    earliestRetained: number;
    hasMore: boolean;
    nextSince: number;
  };
}
interface ListJson {
  sessionKey: string;
  stateVersion?: number;
  pruneWatermark?: number;
  watching: number;
  watchedBy: number;
}
interface CursorJson {
  watcher: string;
  target: string;
  acked: number;
  notified: number;
  material: number;
  pending: boolean;
  touchedAt: string;
}

interface ExplainJson {
  watcher: string;
  target: string;
  status: 'watching' | 'ended' | 'unknown';
  truncated: boolean;
  steps: { position: number; time: string; event: { type: string; via?: string; at?: number }; acked: number; notified: number; material: number; text: string }[];
  lines: string[];
}

let dir: string;
let db: string;

beforeAll(async () => {
  dir = tempDir();
  db = path.join(dir, 'demo.db');
  expect((await runCli(['demo', '--db', db])).status).toBe(0);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(args: readonly string[]) {
  const result = await runCli([...args, '--db', db]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result;
}

describe('status', () => {
  test('--json without --since is the session_status shape with no stateChanges, plus the prune watermark and exists', async () => {
    const status = jsonOf<StatusJson>(await run(['status', RESEARCHER, '--json']));
    expect(Object.keys(status).sort()).toEqual(['exists', 'pruneWatermark', 'sessionKey', 'stateVersion']);
    expect(status.sessionKey).toBe(RESEARCHER);
    expect(status.stateVersion).toBeGreaterThan(0);
  });

  test('--json --since pages to the head with no skip and no repeat, the gap flagged on the first page only', async () => {
    const full = jsonOf<StatusJson>(await run(['status', RESEARCHER, '--since', '0', '--json']));
    const all = full.stateChanges?.events.map((event) => event.sequence) ?? [];
    expect(all.length).toBeGreaterThan(1);
    const seen: number[] = [];
    let since = 0;
    let first = true;
    for (;;) {
      const page = jsonOf<StatusJson>(await run(['status', RESEARCHER, '--since', String(since), '--limit', '1', '--json'])).stateChanges;
      if (page === undefined) throw new Error('no stateChanges');
      if (first) expect(page.historyGap).toBe(true);
      first = false;
      seen.push(...page.events.map((event) => event.sequence));
      since = page.nextSince;
      if (!page.hasMore) break;
    }
    expect(seen).toEqual(all);
    expect(since).toBe(full.stateVersion);
  });

  test('the human form shows the version, the prune watermark and an events table', async () => {
    const json = jsonOf<StatusJson>(await run(['status', RESEARCHER, '--since', '0', '--json']));
    const text = (await run(['status', RESEARCHER, '--since', '0'])).stdout;
    expect(text).toMatch(new RegExp(`state version\\s+${json.stateVersion}\\n`, 'u'));
    expect(text).toMatch(/prune watermark\s+[1-9]\d*\n/u);
    expect(text).toContain(`${json.stateChanges?.events.length} events (historyGap true, earliestRetained ${json.stateChanges?.events[0]?.sequence}`);
    expect(text).toMatch(/seq\s+kind\s+actor\s+summary\s+payload\s+occurredAt/u);
    for (const event of json.stateChanges?.events ?? []) {
      expect(text).toMatch(new RegExp(`\\n\\s*${event.sequence}  ${event.kind}\\s`, 'u'));
    }
  });

  test('an unknown session has version 0 and no events, and says it does not exist (json and table)', async () => {
    expect(jsonOf<StatusJson>(await run(['status', 'agent:nobody:main', '--since', '0', '--json']))).toEqual({
      sessionKey: 'agent:nobody:main',
      stateVersion: 0,
      stateChanges: { events: [], historyGap: false, earliestRetained: 0, hasMore: false, nextSince: 0 },
      pruneWatermark: 0,
      exists: false,
    });
    expect((await run(['status', 'agent:nobody:main'])).stdout).toMatch(/^session\s+agent:nobody:main \(no such session in this store/u);
    expect((await run(['status', RESEARCHER])).stdout).not.toContain('no such session');
  });

  test('--json has every field the table shows, with and without --since', async () => {
    for (const since of [[], ['--since', '0']]) {
      const json = jsonOf<StatusJson & { pruneWatermark: number; exists: boolean }>(await run(['status', RESEARCHER, ...since, '--json']));
      const text = (await run(['status', RESEARCHER, ...since])).stdout;
      expect(json.exists).toBe(true);
      expect(json.pruneWatermark).toBeGreaterThan(0);
      expect(text).toMatch(new RegExp(`prune watermark\\s+${json.pruneWatermark}\\n`, 'u'));
      expect(text).toMatch(new RegExp(`state version\\s+${json.stateVersion}\\n`, 'u'));
    }
  });
});

describe('list', () => {
  test('--json without keys lists every session with a head or a cursor, with cursor counts', async () => {
    const rows = jsonOf<ListJson[]>(await run(['list', '--json']));
    expect(rows.map((row) => row.sessionKey)).toEqual([MANAGER, RESEARCHER, OPS]);
    const researcher = rows.find((row) => row.sessionKey === RESEARCHER);
    expect(researcher?.watchedBy).toBe(2);
    expect(researcher?.pruneWatermark).toBeGreaterThan(0);
    expect(rows.find((row) => row.sessionKey === MANAGER)).toEqual({ sessionKey: MANAGER, watching: 1, watchedBy: 0 });
  });

  test('--json with keys keeps their order and omits the version of a session that never logged', async () => {
    const rows = jsonOf<ListJson[]>(await run(['list', OPS, RESEARCHER, '--json']));
    expect(rows.map((row) => row.sessionKey)).toEqual([OPS, RESEARCHER]);
    expect(rows[0]).toEqual({ sessionKey: OPS, watching: 1, watchedBy: 0 });
    const status = jsonOf<StatusJson>(await run(['status', RESEARCHER, '--json']));
    expect(rows[1]?.stateVersion).toBe(status.stateVersion);
  });

  test('the human form is a table with a dash for missing versions', async () => {
    const rows = jsonOf<ListJson[]>(await run(['list', '--json']));
    const text = (await run(['list'])).stdout.trimEnd().split('\n');
    expect(text[0]).toMatch(/^session\s+version\s+prune watermark\s+watching\s+watched by$/u);
    expect(text).toHaveLength(rows.length + 1);
    const researcher = rows.find((row) => row.sessionKey === RESEARCHER);
    expect(text.find((line) => line.startsWith(RESEARCHER))?.split(/\s+/u)).toEqual([
      RESEARCHER,
      String(researcher?.stateVersion),
      String(researcher?.pruneWatermark),
      '0',
      '2',
    ]);
    expect(text.find((line) => line.startsWith(MANAGER))?.split(/\s+/u)).toEqual([MANAGER, '-', '-', '1', '0']);
  });
});

describe('cursors', () => {
  test('--json gives watermarks in order acked <= notified <= material, pending exactly when a notice is open', async () => {
    const rows = jsonOf<CursorJson[]>(await run(['cursors', '--json']));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.acked).toBeLessThanOrEqual(row.notified);
      expect(row.notified).toBeLessThanOrEqual(row.material);
      expect(row.pending).toBe(row.material > row.acked);
      expect(Number.isNaN(Date.parse(row.touchedAt))).toBe(false);
    }
  });

  test('--watcher and --target filter', async () => {
    const ops = jsonOf<CursorJson[]>(await run(['cursors', '--watcher', OPS, '--json']));
    expect(ops.map((row) => row.watcher)).toEqual([OPS]);
    expect(jsonOf<CursorJson[]>(await run(['cursors', '--target', RESEARCHER, '--json']))).toHaveLength(2);
    expect(jsonOf<CursorJson[]>(await run(['cursors', '--target', MANAGER, '--json']))).toEqual([]);
    expect((await run(['cursors', '--target', MANAGER])).stdout).toBe('no cursors\n');
  });

  test('the human form is a table with the pending column', async () => {
    const rows = jsonOf<CursorJson[]>(await run(['cursors', '--json']));
    const text = (await run(['cursors'])).stdout.trimEnd().split('\n');
    expect(text[0]).toMatch(/^watcher\s+target\s+acked\s+notified\s+material\s+notice\s+touched$/u);
    for (const row of rows) {
      const cells = text.find((line) => line.startsWith(row.watcher))?.split(/\s+/u);
      expect(cells).toEqual([row.watcher, row.target, String(row.acked), String(row.notified), String(row.material), row.pending ? 'pending' : '-', row.touchedAt]);
    }
  });
});

describe('explain', () => {
  test.each([[MANAGER], [OPS]])('--json for %s: its steps in journal order, the last one leaving the watermarks the cursor holds', async (watcher) => {
    const history = jsonOf<ExplainJson>(await run(['explain', watcher, RESEARCHER, '--json']));
    const [cursor] = jsonOf<CursorJson[]>(await run(['cursors', '--watcher', watcher, '--json']));
    expect(history).toMatchObject({ watcher, target: RESEARCHER, status: 'watching' });
    expect(history.steps.length).toBeGreaterThan(0);
    const positions = history.steps.map((step) => step.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const last = history.steps[history.steps.length - 1];
    expect([last?.acked, last?.notified]).toEqual([cursor?.acked, cursor?.notified]);
    expect(last?.material).toBeLessThanOrEqual(cursor?.material ?? -1);
  });

  test("the explicit watcher's history: the watch started at the target's head, one notice, a drain that reopened, and the reconcile as reader that covered it", async () => {
    const history = jsonOf<ExplainJson>(await run(['explain', OPS, RESEARCHER, '--json']));
    const [cursor] = jsonOf<CursorJson[]>(await run(['cursors', '--watcher', OPS, '--json']));
    expect(history.truncated).toBe(false);
    expect(history.steps.map((step) => step.event.type)).toEqual(['watch_started', 'notice_raised', 'notice_reopened', 'notice_read']);
    expect(history.steps[0]?.event).toMatchObject({ type: 'watch_started', via: 'watch' });
    expect(history.steps[3]?.event).toEqual({ type: 'notice_read', acked: cursor?.acked, notified: cursor?.acked });
    expect(history.lines.at(-1)).toBe(`now (as of the last entry): idle at ${cursor?.acked}; the next change by another actor raises a notice`);
  });

  test("the manager's history, whose start retention pruned, shows the drain that reopened and the drain that acknowledged", async () => {
    const history = jsonOf<ExplainJson>(await run(['explain', MANAGER, RESEARCHER, '--json']));
    expect(history.truncated).toBe(true);
    const types = history.steps.map((step) => step.event.type);
    expect(types).toContain('notice_reopened');
    expect(types.at(-1)).toBe('notice_acknowledged');
  });

  test('the human form: a heading naming the pair, one line per step with its watermarks, and the state now', async () => {
    for (const watcher of [MANAGER, OPS]) {
      const history = jsonOf<ExplainJson>(await run(['explain', watcher, RESEARCHER, '--json']));
      const text = (await run(['explain', watcher, RESEARCHER])).stdout.trimEnd().split('\n');
      expect(text).toEqual([`watcher ${watcher}, target ${RESEARCHER}: the cursor journal`, ...history.lines]);
      for (const step of history.steps) {
        expect(text).toContain(`#${step.position} ${step.time} ${step.text} [acked ${step.acked}, notified ${step.notified}, material ${step.material}]`);
      }
    }
  });

  test('a pair that was never watched has no entries and says so', async () => {
    expect(jsonOf<ExplainJson>(await run(['explain', OPS, MANAGER, '--json']))).toEqual({
      watcher: OPS,
      target: MANAGER,
      status: 'unknown',
      truncated: false,
      steps: [],
      lines: ['no journal entries: the pair was never watched, or retention removed its history'],
    });
  });

  test("the README's explain sample is what explain prints on the demo's file (times aside)", async () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const block = /<!-- explain-sample:start -->\n```text\n([\s\S]*?)```\n<!-- explain-sample:end -->/u.exec(readme)?.[1] ?? '';
    const [command, ...sample] = block.trimEnd().split('\n');
    const args = (command ?? '').replace(/^\$ (?:node \S+|npx session-state) /u, '').replace(/ --db \S+$/u, '').split(' ');
    expect(args[0]).toBe('explain');
    const printed = (await run(args)).stdout.trimEnd().split('\n');
    const withoutTimes = (lines: readonly string[]): string[] => lines.map((line) => line.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/gu, 'TIME'));
    expect(sample.length).toBeGreaterThanOrEqual(3);
    expect(withoutTimes(sample)).toEqual(withoutTimes(printed));
  });
});

test.each([
  ['explain', ['explain', MANAGER, RESEARCHER]],
  ['explain --json', ['explain', OPS, RESEARCHER, '--json']],
  ['status', ['status', RESEARCHER]],
  ['status --since --json', ['status', RESEARCHER, '--since', '0', '--json']],
  ['list', ['list']],
  ['list --json with keys', ['list', OPS, RESEARCHER, '--json']],
  ['cursors', ['cursors']],
  ['cursors --json', ['cursors', '--watcher', MANAGER, '--json']],
])('reading changes nothing: %s leaves the file and its WAL byte for byte, and every row, as they were', async (_name, args) => {
  const rowsBefore = dumpTables(db);
  const bytesBefore = hashFileAndWal(db);
  await run(args);
  expect(hashFileAndWal(db)).toBe(bytesBefore);
  expect(dumpTables(db)).toEqual(rowsBefore);
});

// The demo as `npm start` runs it: the story's key lines (the exact notice, one notice per burst,
// the reopen, the recovered notice, the gap) and the state file it leaves for the read commands.
import fs from 'node:fs';
import path from 'node:path';

import { jsonOf, runCli, specNotice, tempDir, type CliRun } from './support/runCli.js';

const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';
const OPS = 'agent:ops:main';

let dir: string;
let db: string;
let demo: CliRun;
let lines: string[];

/** The numbers after `#` on the first line matching `pattern`. */
function sequencesOn(pattern: RegExp): number[] {
  const line = lines.find((candidate) => pattern.test(candidate));
  if (line === undefined) throw new Error(`no demo line matches ${String(pattern)}`);
  return [...line.matchAll(/#(\d+)/gu)].map((match) => Number(match[1]));
}

/** The quoted notice lines of the output, unquoted. */
function noticeLines(): string[] {
  return lines.filter((line) => /^\s+"Session /u.test(line)).map((line) => line.trim().slice(1, -1));
}

beforeAll(async () => {
  dir = tempDir();
  db = path.join(dir, 'demo.db');
  demo = await runCli(['demo', '--db', db]);
  lines = demo.stdout.split('\n');
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('session-state demo', () => {
  test('exits 0 with nothing on stderr, in under 80 lines, on a new state file', () => {
    expect(demo.stderr).toBe('');
    expect(demo.status).toBe(0);
    expect(lines.length).toBeLessThanOrEqual(80);
    expect(lines[0]).toContain('a new state file');
  });

  test('the burst of three human messages gives the manager exactly one notice and one wake, printed verbatim', () => {
    const [spawnSeq] = sequencesOn(/child_spawned #\d+/u);
    expect(sequencesOn(/human_direct_message #\d+ #\d+ #\d+/u)).toHaveLength(3);
    expect(lines.find((line) => /#\d+ #\d+ #\d+ -> /u.test(line))).toContain(`${MANAGER}: 1 notice, 1 wake`);
    expect(noticeLines()[0]).toBe(specNotice(RESEARCHER, spawnSeq ?? -1));
  });

  test('draining reopens one notice for the later messages, and status --since prints all three with no gap', () => {
    const [spawnSeq] = sequencesOn(/child_spawned #\d+/u);
    const burst = sequencesOn(/human_direct_message #\d+ #\d+ #\d+/u);
    expect(lines.some((line) => line.includes(`reconciles: status --since ${spawnSeq}`))).toBe(true);
    expect(lines.find((line) => line.includes('drained 1 notice'))).toContain(`froze at #${burst[0]}, so the later messages reopened 1 notice (changesSince ${burst[0]}), 1 wake`);
    expect(lines.find((line) => line.includes('status: version'))).toContain(`version ${burst[2]}, 3 events, historyGap false, nextSince ${burst[2]}`);
    for (const sequence of burst) {
      expect(lines.some((line) => line.trim().startsWith(`#${sequence}  human_direct_message  human`))).toBe(true);
    }
  });

  test('a goal change while the notice is pending coalesces, then the drain reopens exactly once with the new acked', () => {
    const burst = sequencesOn(/human_direct_message #\d+ #\d+ #\d+/u);
    expect(lines.find((line) => line.includes('goal_changed #'))).toContain('still 1 notice pending, 0 new wakes');
    expect(lines.find((line) => line.includes('so the drain reopens'))).toContain('reopens exactly once (1 wake)');
    expect(noticeLines()[1]).toBe(specNotice(RESEARCHER, burst[2] ?? -1));
    expect(lines.find((line) => line.includes('the turn after drains'))).toContain('1 notice and nothing reopens: 0 pending');
  });

  test('the timed-out run is logged without a notice, and the explicit watch succeeds', () => {
    expect(lines.find((line) => line.includes('run_failed #'))).toMatch(/\{"outcome":"timeout"\} is log only: 0 pending, 0 wakes/u);
    expect(lines.find((line) => line.includes('sent ->'))).toContain('{ watched: true }');
  });

  test('after the restart the pending notice comes back once, byte-identical', () => {
    expect(lines.find((line) => line.includes(`${OPS}: 1 notice`))).toContain(`${MANAGER}: 1 notice`);
    const recovered = lines.find((line) => line.includes('recovered'));
    expect(recovered).toContain(`recovered 1 notice for ${MANAGER} (byte-identical to the one before)`);
    expect(recovered).toContain(`1 notice for ${OPS}`);
  });

  test('reconcile-acknowledge: the same burst of two costs the manager (no reader) two turns and ops (reader) one', () => {
    const pair = sequencesOn(/human_direct_message #\d+ #\d+: /u);
    expect(pair).toHaveLength(2);
    expect(lines.find((line) => line.includes('(status without reader)'))).toContain(`${MANAGER} (status without reader) spends 2 turns`);
    const reader = lines.find((line) => line.includes('(status with reader)'));
    expect(reader).toContain(`${OPS} (status with reader) spends 1 turn: its read reached #${pair[1]}`);
    expect(reader).toContain('(1 turn saved, noticesAcknowledgedByRead 1)');
  });

  test('retention prunes and a late reconcile reports historyGap: true with the retained events', () => {
    expect(lines.find((line) => line.includes('events deleted') || line.includes('event deleted'))).toMatch(/[1-9]\d* events? deleted/u);
    const gapLine = lines.find((line) => line.includes('historyGap: '));
    expect(gapLine).toContain('historyGap: true');
    expect(sequencesOn(/retained after the gap/u).length).toBeGreaterThan(0);
  });

  test('it ends with the commands that inspect the file it left', () => {
    const tail = lines.slice(lines.findIndex((line) => line.startsWith('inspect what it left behind')));
    for (const command of ['status', 'cursors', 'list', 'tail', 'explain']) {
      expect(tail.some((line) => line.includes(` ${command} `) && line.includes(`--db ${db}`))).toBe(true);
    }
  });

  test('status and cursors on the file show what the story ended with', async () => {
    const gapRetained = sequencesOn(/retained after the gap/u);
    const status = jsonOf<{ stateVersion: number; stateChanges: { events: { sequence: number }[]; historyGap: boolean } }>(
      await runCli(['status', RESEARCHER, '--since', '0', '--json', '--db', db]),
    );
    expect(status.stateVersion).toBe(gapRetained[gapRetained.length - 1]);
    expect(status.stateChanges.historyGap).toBe(true);
    expect(status.stateChanges.events.map((event) => event.sequence)).toEqual(gapRetained);

    const cursors = jsonOf<{ watcher: string; target: string; pending: boolean }[]>(await runCli(['cursors', '--json', '--db', db]));
    expect(cursors.map((row) => [row.watcher, row.target, row.pending])).toEqual([
      [MANAGER, RESEARCHER, false],
      [OPS, RESEARCHER, false],
    ]);
    const explained = jsonOf<{ steps: { event: { type: string } }[] }>(await runCli(['explain', OPS, RESEARCHER, '--json', '--db', db]));
    expect(explained.steps.map((step) => step.event.type).slice(-1)).toEqual(['notice_read']);
  });

  test("the README's demo sample is lines this demo prints", () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const block = /<!-- demo-sample:start -->\n```text\n([\s\S]*?)```\n<!-- demo-sample:end -->/u.exec(readme)?.[1];
    const sample = (block ?? '').split('\n').filter((line) => line !== '' && line !== '...' && !line.startsWith('$ '));
    expect(sample.length).toBeGreaterThanOrEqual(10);
    for (const line of sample) expect(lines).toContain(line.replaceAll('./session-state.db', db));
  });

  test('a second run removes the previous demo file, says so, and tells the same story', async () => {
    const again = await runCli(['demo', '--db', db]);
    expect(again.status).toBe(0);
    expect(again.stdout.split('\n')[0]).toContain('removed the previous demo file');
    expect(again.stdout.split('\n').slice(1)).toEqual(lines.slice(1));
  });
});

// `session-state demo`: plays a realistic multi-session story through the real facade on a fresh
// SQLite state file and prints it as a numbered timeline, then how to inspect what it left.
import type { Command } from 'commander';
import type { SessionKey, StateStore } from '@session-state/domain';

import type { ChildSpawnedResult, Notice, RecordedEvent, RecordResult, SessionStateAwareness } from '@session-state/app';
import { createCliLogger } from '../output/cliLogger.js';
import { UsageError } from '../output/errors.js';
import { actorLabel, payloadLabel } from '../output/format.js';
import type { RunContext } from '../output/io.js';
import { DEMO_LABEL, removePreviousDemoFile } from '../state/demoFile.js';
import type { StateFilePath } from '../state/stateFilePath.js';
import { stateLocation } from '../state/stateLocation.js';
import { toolCommand } from '../toolCommand.js';

// --- the cast ----------------------------------------------------------------------------------

const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';
const OPS = 'agent:ops:main';
const DEMO_KEYS: readonly string[] = [MANAGER, RESEARCHER, OPS];

const DAY_MS = 86_400_000;
/** The story spans 31 days ending now, so the file it leaves agrees with the real clock. */
const STORY_DAYS = 31;
const RETENTION_DAYS = 30;

// --- the timeline ----------------------------------------------------------------------------------

interface Timeline {
  day(n: number): void;
  step(title: string): void;
  detail(text: string): void;
  notice(text: string): void;
}

function createTimeline(write: (line: string) => void): Timeline {
  let steps = 0;
  return {
    day: (n) => write(`\nday ${n}`),
    step: (title) => write(`${String(++steps).padStart(2)}. ${title}`),
    detail: (text) => write(`      ${text}`),
    notice: (text) => write(`      "${text}"`),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// --- the story -----------------------------------------------------------------------------------

function eventOf(result: RecordResult | ChildSpawnedResult): RecordedEvent {
  switch (result.outcome) {
    case 'recorded':
      return result.event;
    case 'skipped':
      throw new Error('demo: an append was skipped unexpectedly');
    case 'failed':
      throw result.error;
  }
}

/**
 * The agent turns a watcher spends until nothing is pending: each turn drains its notices and
 * reconciles every target from the notice's `changesSince`, as `reader` when `asReader` (the
 * opt-in acknowledge), else read-only. Bounded, so a bug can never loop the demo.
 */
async function turnsUntilQuiet(awareness: SessionStateAwareness, watcher: string, asReader: boolean): Promise<number> {
  let turns = 0;
  while (awareness.pending(watcher).length > 0 && turns < 5) {
    turns += 1;
    for (const notice of await awareness.drain(watcher)) {
      await awareness.status(notice.target, { changesSince: notice.changesSince, ...(asReader ? { reader: watcher } : {}) });
    }
  }
  return turns;
}

async function humanMessage(awareness: SessionStateAwareness): Promise<number> {
  const result = await awareness.record({
    sessionKey: RESEARCHER,
    kind: 'human_direct_message',
    actorType: 'human',
    summary: 'human message via telegram',
    payload: { channel: 'telegram' },
    onlyIfWatched: true,
  });
  return eventOf(result).sequence;
}

/**
 * Plays the story on the state file `at` through the real facade and writes the timeline; the
 * facade's warnings go to `note`. The story's clock starts `STORY_DAYS` days before `endMs` (now,
 * by default) and ends there; the closing hints name paths from `cwd`.
 */
export async function playDemo(
  at: StateFilePath,
  write: (line: string) => void,
  { note, cwd, endMs = Date.now() }: { readonly note: (line: string) => void; readonly cwd: string; readonly endMs?: number },
): Promise<void> {
  const file = at.path;
  const [{ openSqliteStore }, { createSessionStateAwareness }] = await Promise.all([import('@session-state/adapters-sqlite'), import('@session-state/app')]);
  if (at.file === ':memory:') throw new UsageError('--db', 'the demo needs a file to leave behind for inspection, not :memory:');
  const removed = await removePreviousDemoFile(at, DEMO_KEYS);
  await (await import('../state/stateFile.js')).createLabelledStateFile(at, DEMO_LABEL);
  write(`session-state demo on ${file} (${removed ? 'removed the previous demo file' : 'a new state file'})`);

  const t = createTimeline(write);
  const startMs = endMs - STORY_DAYS * DAY_MS;
  let now = startMs;
  const clock = { now: (): number => now };
  const toDay = (n: number): void => {
    now = startMs + n * DAY_MS;
    t.day(n);
  };
  const wakes: string[] = [];
  const wakesSince = (mark: number, watcher?: string): number =>
    wakes.slice(mark).filter((key) => watcher === undefined || key === watcher).length;
  const openFile = async (): Promise<{ store: StateStore; awareness: SessionStateAwareness }> => {
    const opened = openSqliteStore({ path: at.file });
    const facade = await createSessionStateAwareness({
      store: opened,
      clock,
      logger: createCliLogger(note),
      wake: (watcher) => void wakes.push(watcher),
      retention: { maxAgeMs: RETENTION_DAYS * DAY_MS },
    });
    return { store: opened, awareness: facade };
  };
  let { store, awareness } = await openFile();
  let mark = 0;

  // 1. the spawn edge seeds the manager's cursor
  toDay(0);
  t.step(`${MANAGER} spawns the researcher ${RESEARCHER}`);
  const spawnSeq = eventOf(await awareness.childSpawned({ parentKey: MANAGER, childKey: RESEARCHER, dedupeKey: 'child-spawned:run-1' })).sequence;
  t.detail(`child_spawned #${spawnSeq} in the researcher's log; the manager's cursor on it is seeded at ${spawnSeq}`);

  // 2. a burst of human messages: one notice, one wake
  t.step('a human jumps into the researcher over telegram with 3 quick messages');
  mark = wakes.length;
  const burst = [await humanMessage(awareness), await humanMessage(awareness), await humanMessage(awareness)];
  const burstNotices = awareness.pending(MANAGER);
  t.detail(`human_direct_message ${burst.map((s) => `#${s}`).join(' ')} -> ${MANAGER}: ${plural(burstNotices.length, 'notice')}, ${plural(wakesSince(mark, MANAGER), 'wake')}`);
  for (const notice of burstNotices) t.notice(notice.text);

  // 3. drain, then reconcile from the number in the notice
  const firstSince = burstNotices[0]?.changesSince ?? 0;
  t.step(`the manager's turn drains it and reconciles: status --since ${firstSince}`);
  mark = wakes.length;
  const drained = await awareness.drain(MANAGER);
  const rest = awareness.pending(MANAGER);
  t.detail(
    `drained ${plural(drained.length, 'notice')}; it froze at #${burst[0]}, so the later messages reopened ` +
      `${plural(rest.length, 'notice')} (${rest.map((notice) => `changesSince ${notice.changesSince}`).join(', ')}), ${plural(wakesSince(mark, MANAGER), 'wake')}`,
  );
  const delta = await awareness.status(RESEARCHER, { changesSince: firstSince });
  const changes = delta.stateChanges;
  t.detail(`status: version ${delta.stateVersion}, ${plural(changes?.events.length ?? 0, 'event')}, historyGap ${String(changes?.historyGap)}, nextSince ${String(changes?.nextSince)}:`);
  for (const event of changes?.events ?? []) {
    t.detail(`  #${event.sequence}  ${event.kind}  ${actorLabel(event)}  ${event.summary}  ${payloadLabel(event.payload)}`);
  }

  // 4. a change while a notice is pending: the drain reopens exactly once
  toDay(2);
  t.step("the researcher's goal changes while that reopened notice is pending");
  mark = wakes.length;
  const goal = eventOf(
    await awareness.record({ sessionKey: RESEARCHER, kind: 'goal_changed', actorType: 'human', summary: 'goal updated: compare three vendors' }),
  ).sequence;
  t.detail(`goal_changed #${goal} -> still ${plural(awareness.pending(MANAGER).length, 'notice')} pending, ${plural(wakesSince(mark, MANAGER), 'new wake')}`);
  mark = wakes.length;
  const firstDrain = await awareness.drain(MANAGER);
  const reopened = awareness.pending(MANAGER);
  t.detail(
    `the next turn drains ${plural(firstDrain.length, 'notice')}; the goal change came after it, so the drain reopens ` +
      `${reopened.length === 1 ? 'exactly once' : `${reopened.length} times`} (${plural(wakesSince(mark, MANAGER), 'wake')}):`,
  );
  for (const notice of reopened) t.notice(notice.text);
  const secondDrain = await awareness.drain(MANAGER);
  t.detail(`the turn after drains ${plural(secondDrain.length, 'notice')} and nothing reopens: ${awareness.pending(MANAGER).length} pending`);

  // 5. a child run fails: log only
  toDay(20);
  t.step('a child run of the researcher fails with a timeout');
  mark = wakes.length;
  const failed = eventOf(
    await awareness.record({
      sessionKey: RESEARCHER,
      kind: 'run_failed',
      actorType: 'system',
      summary: 'child run failed',
      payload: { outcome: 'timeout' },
      dedupeKey: 'run-terminal:run-7',
    }),
  );
  t.detail(`run_failed #${failed.sequence} ${payloadLabel(failed.payload)} is log only: ${awareness.pending(MANAGER).length} pending, ${plural(wakesSince(mark), 'wake')}`);

  // 6. a second agent watches explicitly, from the current version
  toDay(21);
  t.step(`${OPS} sends the researcher a message with watch: true`);
  const sent = await awareness.sent({ senderKey: OPS, deliveredTo: RESEARCHER, watch: true });
  const [opsCursor] = await store.listCursors({ watcher: OPS as SessionKey, target: RESEARCHER as SessionKey });
  t.detail(`sent -> { watched: ${String(sent.watched)} }; its cursor starts at version ${String(opsCursor?.acked)}, so older history never notifies it`);

  // 7. one change, two watchers: one notice each
  toDay(22);
  t.step('another human message reaches the researcher');
  const late = await humanMessage(awareness);
  const managerNotices = awareness.pending(MANAGER);
  const opsNotices = awareness.pending(OPS);
  t.detail(`human_direct_message #${late} -> ${MANAGER}: ${plural(managerNotices.length, 'notice')}, ${OPS}: ${plural(opsNotices.length, 'notice')}`);

  // 8. restart: the pending notices come back once
  toDay(25);
  t.step(`the gateway restarts: close, then reopen ${file}`);
  await awareness.close();
  mark = wakes.length;
  ({ store, awareness } = await openFile());
  const recovered = awareness.pending(MANAGER);
  const same = recovered.length === managerNotices.length && recovered.every((notice: Notice, i) => notice.text === managerNotices[i]?.text);
  t.detail(
    `recovered ${plural(recovered.length, 'notice')} for ${MANAGER} (${same ? 'byte-identical to the one before' : 'NOT the one before'}), ` +
      `${plural(awareness.pending(OPS).length, 'notice')} for ${OPS}; ${plural(wakesSince(mark), 'wake')}:`,
  );
  for (const notice of recovered) t.notice(notice.text);
  const afterRestart = await awareness.drain(MANAGER);
  t.detail(`the manager drains ${plural(afterRestart.length, 'notice')}; ${OPS} leaves its notice pending`);

  // 9. reconcile-acknowledge: the same burst costs the manager two turns and ops one
  toDay(26);
  t.step('a burst of 2 human messages; the manager reconciles read-only, ops as reader');
  const pair = [await humanMessage(awareness), await humanMessage(awareness)];
  const managerTurns = await turnsUntilQuiet(awareness, MANAGER, false);
  const opsTurns = await turnsUntilQuiet(awareness, OPS, true);
  t.detail(`human_direct_message ${pair.map((s) => `#${s}`).join(' ')}: ${MANAGER} (status without reader) spends ${plural(managerTurns, 'turn')}`);
  t.detail(
    `${OPS} (status with reader) spends ${plural(opsTurns, 'turn')}: its read reached #${pair[1]}, so the reopened notice was withdrawn ` +
      `(${plural(managerTurns - opsTurns, 'turn')} saved, noticesAcknowledgedByRead ${awareness.metrics().noticesAcknowledgedByRead})`,
  );

  // 10. retention, then a reader from before the pruned range sees the gap
  toDay(STORY_DAYS);
  t.step(`retention prunes events older than ${RETENTION_DAYS} days`);
  const pruned = await awareness.prune();
  const [head] = await store.readHeads([RESEARCHER as SessionKey]);
  t.detail(`${plural(pruned.eventsDeleted, 'event')} deleted, ${plural(pruned.cursorsExpired, 'cursor')} expired; the researcher's prune watermark is ${String(head?.pruneWatermark)}`);
  t.step(`a late reconcile from the manager's first view: status --since ${spawnSeq}`);
  const lateChanges = (await awareness.status(RESEARCHER, { changesSince: spawnSeq })).stateChanges;
  t.detail(`historyGap: ${String(lateChanges?.historyGap)}; retained after the gap: ${(lateChanges?.events ?? []).map((event) => `#${event.sequence}`).join(' ')}`);
  await awareness.close();

  // what it left behind
  const cli = toolCommand(cwd);
  write('\ninspect what it left behind:');
  for (const args of [`status ${RESEARCHER} --since 0`, 'cursors', 'list', `tail ${RESEARCHER}`, `explain ${OPS} ${RESEARCHER}`]) {
    write(`  ${cli} ${args} --db ${file}`);
  }
}

// --- the command ---------------------------------------------------------------------------------

/** Adds the `demo` command to the program. */
export function registerDemo(program: Command, { io, out }: RunContext): void {
  program
    .command('demo')
    .description('play a multi-session story on a fresh SQLite state file (never a PostgreSQL store) and print it as a timeline')
    .action(async (_options: unknown, command: Command) => {
      const location = stateLocation(command, io.cwd);
      if (location.kind !== 'sqlite') {
        // Never name the URL: it may hold a password.
        throw new UsageError('--db', 'the demo deletes and recreates its state, so it only runs on a SQLite state file, never on a PostgreSQL store that gateways may share; name a file');
      }
      await playDemo(location, (text) => out.lines(text.split('\n')), { note: out.note, cwd: io.cwd });
    });
}

// `session-state demo`: plays a realistic multi-session story through the real facade on a fresh
// SQLite state file and prints it as a numbered timeline, then how to inspect what it left.
import type { Command } from 'commander';
import type { SessionKey, StateStore } from '@session-state/domain';

import type { ChildSpawnedResult, Notice, RecordedEvent, RecordResult, SessionStateAwareness } from '@session-state/app';
import { createCliLogger } from '../output/cliLogger.js';
import { UsageError } from '../output/errors.js';
import { actorLabel, payloadLabel, plural } from '../output/format.js';
import type { RunContext } from '../output/io.js';
import { DEMO_LABEL, removePreviousDemoFile } from '../state/demoFile.js';
import { stateLocation, type StateFilePath } from '../state/stateLocation.js';

const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';
const OPS = 'agent:ops:main';
const DEMO_KEYS: readonly string[] = [MANAGER, RESEARCHER, OPS];

const DAY_MS = 86_400_000;
/** The story spans 31 days ending now, so the file it leaves agrees with the real clock. */
const STORY_DAYS = 31;
const RETENTION_DAYS = 30;

function eventOf(result: RecordResult | ChildSpawnedResult): RecordedEvent {
  if (result.outcome === 'failed') throw result.error;
  if (result.outcome === 'skipped') throw new Error('demo: an append was skipped unexpectedly');
  return result.event;
}

const sequences = (list: readonly number[]): string => list.map((sequence) => `#${sequence}`).join(' ');

/**
 * The agent turns a watcher spends until nothing is pending: each turn drains its notices and
 * reconciles every target from the notice's `changesSince`, as `reader` when `asReader` (the
 * opt-in acknowledge), else read-only. Bounded, so a bug can never loop the demo.
 */
async function turnsUntilQuiet(awareness: SessionStateAwareness, watcher: string, asReader: boolean): Promise<number> {
  let turns = 0;
  for (; awareness.pending(watcher).length > 0 && turns < 5; turns += 1) {
    for (const notice of await awareness.drain(watcher)) {
      await awareness.status(notice.target, { changesSince: notice.changesSince, ...(asReader ? { reader: watcher } : {}) });
    }
  }
  return turns;
}

async function humanMessage(awareness: SessionStateAwareness): Promise<number> {
  const message = { sessionKey: RESEARCHER, kind: 'human_direct_message', actorType: 'human', summary: 'human message via telegram' } as const;
  return eventOf(await awareness.record({ ...message, payload: { channel: 'telegram' }, onlyIfWatched: true })).sequence;
}

/**
 * Plays the story on the state file `at` through the real facade and writes the timeline; the
 * facade's warnings go to `note`. The story's clock starts `STORY_DAYS` days before now and ends
 * now; the closing hints name the tool as `at.tool` (run from the run's working directory).
 */
async function playDemo(at: StateFilePath, write: (line: string) => void, note: (line: string) => void): Promise<void> {
  const file = at.path;
  const endMs = Date.now();
  const [{ openSqliteStore }, { createSessionStateAwareness }] = await Promise.all([import('@session-state/adapters-sqlite'), import('@session-state/app')]);
  if (at.file === ':memory:') throw new UsageError('--db', 'the demo needs a file to leave behind for inspection, not :memory:');
  const removed = await removePreviousDemoFile(at, DEMO_KEYS);
  await (await import('../state/stateFile.js')).createLabelledStateFile(at, DEMO_LABEL);
  write(`session-state demo on ${file} (${removed ? 'removed the previous demo file' : 'a new state file'})`);

  // The timeline: a day heading, numbered steps, their details and the notices quoted verbatim.
  // The watchers woken, in order; `mark` is where the current step's wakes begin.
  const wakes: string[] = [];
  let mark = 0;
  let steps = 0;
  const step = (title: string): void => {
    mark = wakes.length;
    write(`${String(++steps).padStart(2)}. ${title}`);
  };
  const detail = (text: string): void => write(`      ${text}`);
  const quote = (notices: readonly Notice[]): void => notices.forEach((notice) => write(`      "${notice.text}"`));
  const startMs = endMs - STORY_DAYS * DAY_MS;
  let now = startMs;
  const toDay = (n: number): void => {
    now = startMs + n * DAY_MS;
    write(`\nday ${n}`);
  };
  const wakesSince = (watcher?: string): number => wakes.slice(mark).filter((key) => watcher === undefined || key === watcher).length;
  const openFile = async (): Promise<{ store: StateStore; awareness: SessionStateAwareness }> => {
    const opened = openSqliteStore({ path: at.file });
    const awareness = await createSessionStateAwareness({
      store: opened,
      clock: { now: () => now },
      logger: createCliLogger(note),
      wake: (watcher) => void wakes.push(watcher),
      retention: { maxAgeMs: RETENTION_DAYS * DAY_MS },
    });
    // The turn after creation, in which the restart scan's wakes are called.
    await new Promise((resolve) => setImmediate(resolve));
    return { store: opened, awareness };
  };
  let { store, awareness } = await openFile();

  // 1. the spawn edge seeds the manager's cursor
  toDay(0);
  step(`${MANAGER} spawns the researcher ${RESEARCHER}`);
  const spawnSeq = eventOf(await awareness.childSpawned({ parentKey: MANAGER, childKey: RESEARCHER, dedupeKey: 'child-spawned:run-1' })).sequence;
  detail(`child_spawned #${spawnSeq} in the researcher's log; the manager's cursor on it is seeded at ${spawnSeq}`);

  // 2. a burst of human messages: one notice, one wake
  step('a human jumps into the researcher over telegram with 3 quick messages');
  const burst = [await humanMessage(awareness), await humanMessage(awareness), await humanMessage(awareness)];
  const burstNotices = awareness.pending(MANAGER);
  detail(`human_direct_message ${sequences(burst)} -> ${MANAGER}: ${plural(burstNotices.length, 'notice')}, ${plural(wakesSince(MANAGER), 'wake')}`);
  quote(burstNotices);

  // 3. drain, then reconcile from the number in the notice
  const firstSince = burstNotices[0]?.changesSince ?? 0;
  step(`the manager's turn drains it and reconciles: status --since ${firstSince}`);
  const drained = await awareness.drain(MANAGER);
  const rest = awareness.pending(MANAGER);
  const reopenedSince = rest.map((notice) => `changesSince ${notice.changesSince}`).join(', ');
  detail(
    `drained ${plural(drained.length, 'notice')}; it froze at #${burst[0]}, so the later messages reopened ` +
      `${plural(rest.length, 'notice')} (${reopenedSince}), ${plural(wakesSince(MANAGER), 'wake')}`,
  );
  const delta = await awareness.status(RESEARCHER, { changesSince: firstSince });
  const changes = delta.stateChanges;
  detail(`status: version ${delta.stateVersion}, ${plural(changes?.events.length ?? 0, 'event')}, historyGap ${String(changes?.historyGap)}, nextSince ${String(changes?.nextSince)}:`);
  for (const event of changes?.events ?? []) {
    detail(`  #${event.sequence}  ${event.kind}  ${actorLabel(event)}  ${event.summary}  ${payloadLabel(event.payload)}`);
  }

  // 4. a change while a notice is pending: the drain reopens exactly once
  toDay(2);
  step("the researcher's goal changes while that reopened notice is pending");
  const goalChange = { kind: 'goal_changed', actorType: 'human', summary: 'goal updated: compare three vendors' } as const;
  const goal = eventOf(await awareness.record({ sessionKey: RESEARCHER, ...goalChange }));
  detail(`goal_changed #${goal.sequence} -> still ${plural(awareness.pending(MANAGER).length, 'notice')} pending, ${plural(wakesSince(MANAGER), 'new wake')}`);
  mark = wakes.length;
  const firstDrain = await awareness.drain(MANAGER);
  const reopened = awareness.pending(MANAGER);
  detail(
    `the next turn drains ${plural(firstDrain.length, 'notice')}; the goal change came after it, so the drain reopens ` +
      `${reopened.length === 1 ? 'exactly once' : `${reopened.length} times`} (${plural(wakesSince(MANAGER), 'wake')}):`,
  );
  quote(reopened);
  const secondDrain = await awareness.drain(MANAGER);
  detail(`the turn after drains ${plural(secondDrain.length, 'notice')} and nothing reopens: ${awareness.pending(MANAGER).length} pending`);

  // 5. a child run fails: log only
  toDay(20);
  step('a child run of the researcher fails with a timeout');
  const timeout = { kind: 'run_failed', actorType: 'system', summary: 'child run failed', payload: { outcome: 'timeout' } } as const;
  const failed = eventOf(await awareness.record({ sessionKey: RESEARCHER, ...timeout, dedupeKey: 'run-terminal:run-7' }));
  detail(`run_failed #${failed.sequence} ${payloadLabel(failed.payload)} is log only: ${awareness.pending(MANAGER).length} pending, ${plural(wakesSince(), 'wake')}`);

  // 6. a second agent watches explicitly, from the current version
  toDay(21);
  step(`${OPS} sends the researcher a message with watch: true`);
  const sent = await awareness.sent({ senderKey: OPS, deliveredTo: RESEARCHER, watch: true });
  const [opsCursor] = await store.listCursors({ watcher: OPS as SessionKey, target: RESEARCHER as SessionKey });
  detail(`sent -> { watched: ${String(sent.watched)} }; its cursor starts at version ${String(opsCursor?.acked)}, so older history never notifies it`);

  // 7. one change, two watchers: one notice each
  toDay(22);
  step('another human message reaches the researcher');
  const late = await humanMessage(awareness);
  const managerNotices = awareness.pending(MANAGER);
  detail(`human_direct_message #${late} -> ${MANAGER}: ${plural(managerNotices.length, 'notice')}, ${OPS}: ${plural(awareness.pending(OPS).length, 'notice')}`);

  // 8. restart: the pending notices come back once
  toDay(25);
  step(`the gateway restarts: close, then reopen ${file}`);
  await awareness.close();
  ({ store, awareness } = await openFile());
  const recovered = awareness.pending(MANAGER);
  const same = recovered.length === managerNotices.length && recovered.every((notice, i) => notice.text === managerNotices[i]?.text);
  detail(
    `recovered ${plural(recovered.length, 'notice')} for ${MANAGER} (${same ? 'byte-identical to the one before' : 'NOT the one before'}), ` +
      `${plural(awareness.pending(OPS).length, 'notice')} for ${OPS}; ${plural(wakesSince(), 'wake')}:`,
  );
  quote(recovered);
  detail(`the manager drains ${plural((await awareness.drain(MANAGER)).length, 'notice')}; ${OPS} leaves its notice pending`);

  // 9. reconcile-acknowledge: the same burst costs the manager two turns and ops one
  toDay(26);
  step('a burst of 2 human messages; the manager reconciles read-only, ops as reader');
  const pair = [await humanMessage(awareness), await humanMessage(awareness)];
  const managerTurns = await turnsUntilQuiet(awareness, MANAGER, false);
  const opsTurns = await turnsUntilQuiet(awareness, OPS, true);
  detail(`human_direct_message ${sequences(pair)}: ${MANAGER} (status without reader) spends ${plural(managerTurns, 'turn')}`);
  detail(
    `${OPS} (status with reader) spends ${plural(opsTurns, 'turn')}: its read reached #${pair[1]}, so the reopened notice was withdrawn ` +
      `(${plural(managerTurns - opsTurns, 'turn')} saved, noticesAcknowledgedByRead ${awareness.metrics().noticesAcknowledgedByRead})`,
  );

  // 10. retention, then a reader from before the pruned range sees the gap
  toDay(STORY_DAYS);
  step(`retention prunes events older than ${RETENTION_DAYS} days`);
  const pruned = await awareness.prune();
  const [head] = await store.readHeads([RESEARCHER as SessionKey]);
  detail(`${plural(pruned.eventsDeleted, 'event')} deleted, ${plural(pruned.cursorsExpired, 'cursor')} expired; the researcher's prune watermark is ${String(head?.pruneWatermark)}`);
  step(`a late reconcile from the manager's first view: status --since ${spawnSeq}`);
  const lateChanges = (await awareness.status(RESEARCHER, { changesSince: spawnSeq })).stateChanges;
  detail(`historyGap: ${String(lateChanges?.historyGap)}; retained after the gap: ${sequences((lateChanges?.events ?? []).map((event) => event.sequence))}`);
  await awareness.close();

  // what it left behind
  write('\ninspect what it left behind:');
  for (const args of [`status ${RESEARCHER} --since 0`, 'cursors', 'list', `tail ${RESEARCHER}`, `explain ${OPS} ${RESEARCHER}`]) {
    write(`  ${at.tool} ${args} --db ${file}`);
  }
}

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
      await playDemo(location, (text) => out.lines(text.split('\n')), out.note);
    });
}

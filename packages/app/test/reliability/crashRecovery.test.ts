// Battery 2 (issue 7): crash recovery with real processes. A child process drives a random
// workload through the BUILT facade on a SQLite file and is killed with SIGKILL at a random
// moment (sometimes while it is still opening the file); after each kill the file is opened
// afresh and checked: heads and prune watermarks never went backwards, no sequence repeats,
// acked <= notified <= material on every cursor and acked never decreases, no confirmed event
// above its session's prune watermark is missing, the restart scan queues exactly one notice
// per pair with material > acked, and a second scan queues nothing new.
import { execFileSync, fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openSqliteStore } from '@session-state/adapters-sqlite';
import type { CursorRow, SessionKey, StateStore } from '@session-state/domain';
import { noticeTextOf, restartScanAll } from '@session-state/testkit';

import { createSessionStateAwareness } from '../../src/index.js';
import { afterStartupWakes, recordingLogger } from '../support/harness.js';
import { expectNoViolations, type Violation } from './support/failureClasses.js';
import { readAllEvents } from './support/rig.js';
import { scaled, scaledTimeout } from './support/scale.js';
import { noticeTexts } from '../support/noticeTexts.js';

const ROUNDS = scaled(20);
const SEED = Number(process.env['RELIABILITY_SEED'] ?? 20261129);
const KEYS = ['agent:a:main', 'agent:b:main', 'agent:c:main', 'agent:a:subagent:s1', 'agent:b:subagent:s2', 'global'];
const packageDir = join(__dirname, '..', '..');
const worker = join(__dirname, 'support', 'crashWorker.cjs');

interface Ack {
  readonly sessionKey: string;
  readonly sequence: number;
  readonly id: string;
}

/** What survived every earlier kill: the floors nothing may fall below. */
interface Observed {
  readonly heads: Map<string, number>;
  readonly watermarks: Map<string, number>;
  readonly acked: Map<string, number>;
  /** sequence -> `${sessionKey} ${summary}` of every event ever seen. */
  readonly owners: Map<number, string>;
  readonly confirmed: Ack[];
}

/** A small seeded PRNG for the kill delays. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs one worker round and kills it; resolves with the records it confirmed. */
async function crashRound(path: string, round: number, random: () => number): Promise<{ acks: Ack[]; killedAfterReady: boolean }> {
  const child = fork(worker, [path, String(SEED + round), String(round)], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const acks: Ack[] = [];
  let failure: string | undefined;
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  let isReady = false;
  child.on('message', (message: { t: string; message?: string } & Ack) => {
    if (message.t === 'ready') {
      isReady = true;
      onReady();
    } else if (message.t === 'ack') acks.push({ sessionKey: message.sessionKey, sequence: message.sequence, id: message.id });
    else if (message.t === 'error') failure = message.message;
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  // Every third round is killed at a random moment from spawn (possibly while opening the file,
  // migrating or scanning); the others at a random moment of the workload.
  const fromSpawn = round % 3 === 2;
  if (fromSpawn) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 200)));
  else {
    await Promise.race([ready, exited]);
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.floor(random() * 250)));
  }
  child.kill('SIGKILL');
  await exited;
  if (failure !== undefined) throw new Error(`round ${round}: the worker failed on its own: ${failure}`);
  if (!fromSpawn && !isReady) throw new Error(`round ${round}: the worker exited before it was ready`);
  return { acks, killedAfterReady: isReady };
}

/** The durable checks of one file after a kill. */
async function checkDurableState(store: StateStore, observed: Observed, round: number): Promise<Violation[]> {
  const violations: Violation[] = [];
  const v = (failure: Violation['failure'], detail: string): void => {
    violations.push({ failure, detail: `round ${round}: ${detail}` });
  };
  const heads = new Map((await store.readHeads(KEYS as SessionKey[])).map((row) => [row.sessionKey as string, row]));
  for (const key of KEYS) {
    const head = heads.get(key)?.head ?? 0;
    const watermark = heads.get(key)?.pruneWatermark ?? 0;
    if (head < (observed.heads.get(key) ?? 0)) v('head-regression', `${key}: head ${head} after ${observed.heads.get(key)}`);
    if (watermark < (observed.watermarks.get(key) ?? 0)) v('missed-gap', `${key}: prune watermark ${watermark} after ${observed.watermarks.get(key)}`);
    if (watermark > head) v('false-gap', `${key}: prune watermark ${watermark} above head ${head}`);
    observed.heads.set(key, Math.max(head, observed.heads.get(key) ?? 0));
    observed.watermarks.set(key, Math.max(watermark, observed.watermarks.get(key) ?? 0));
    const events = await readAllEvents(store, key);
    let previous = 0;
    for (const event of events) {
      if (event.sequence <= previous) v('head-regression', `${key}: sequence ${event.sequence} after ${previous}`);
      if (event.sequence > head) v('head-regression', `${key}: event ${event.sequence} above head ${head}`);
      previous = event.sequence;
      const identity = `${key} ${event.summary}`;
      const owner = observed.owners.get(event.sequence);
      if (owner !== undefined && owner !== identity) v('head-regression', `sequence ${event.sequence} repeats: "${owner}" and "${identity}"`);
      observed.owners.set(event.sequence, identity);
    }
    const retained = new Set(events.map((e) => `${e.sequence} ${e.summary}`));
    for (const ack of observed.confirmed) {
      if (ack.sessionKey !== key || ack.sequence <= watermark) continue;
      if (!retained.has(`${ack.sequence} ${ack.id}`)) v('missed-gap', `${key}: confirmed event ${ack.sequence} (${ack.id}) is gone above prune watermark ${watermark}`);
    }
  }
  for (const row of await store.listCursors()) {
    const pair = `${row.watcher} -> ${row.target}`;
    if (!(row.acked <= row.notified && row.notified <= row.material)) v('cursor-regression', `${pair}: ${row.acked}/${row.notified}/${row.material}`);
    if (row.acked < (observed.acked.get(pair) ?? 0)) v('cursor-regression', `${pair}: acked ${row.acked} after ${observed.acked.get(pair)}`);
    if (row.material > (heads.get(row.target)?.head ?? 0)) v('cursor-regression', `${pair}: material ${row.material} above the target's head`);
    observed.acked.set(pair, Math.max(row.acked, observed.acked.get(pair) ?? 0));
  }
  return violations;
}

const isNested = (key: string): boolean => /^agent:[^:]+:.*\bsubagent\b/.test(key);
const cursorsText = (rows: readonly CursorRow[]): string => JSON.stringify(rows.map((r) => [r.watcher, r.target, r.acked, r.notified, r.material]));

/** The restart scan of a fresh facade: one notice per lagging pair, once; a second scan adds nothing. */
async function checkRestartScan(path: string, round: number): Promise<Violation[]> {
  const violations: Violation[] = [];
  const v = (failure: Violation['failure'], detail: string): void => {
    violations.push({ failure, detail: `round ${round}: ${detail}` });
  };
  const reader = openSqliteStore({ path });
  try {
    const lagging = (await reader.listCursors()).filter((row) => row.material > row.acked);
    const wakes: string[] = [];
    const awareness = await createSessionStateAwareness({ store: openSqliteStore({ path }), logger: recordingLogger(), wake: (w) => wakes.push(w) });
    await afterStartupWakes();
    try {
      const afterScan = await reader.listCursors();
      for (const key of KEYS) {
        const expected = lagging.filter((row) => row.watcher === key).map((row) => noticeTextOf(row.target, row.acked));
        const actual = noticeTexts(awareness.pending(key));
        for (const text of expected) if (!actual.includes(text)) v('lost-notice', `${key}: the scan did not queue "${text}"`);
        for (const text of actual) if (!expected.includes(text)) v('duplicate-notice', `${key}: the scan queued "${text}" for no lagging pair`);
        if (new Set(actual).size !== actual.length) v('duplicate-notice', `${key}: ${JSON.stringify(actual)}`);
      }
      const expectedWakes = lagging.filter((row) => !isNested(row.watcher)).length;
      if (wakes.length > expectedWakes) v('duplicate-notice', `${wakes.length} wakes for ${expectedWakes} lagging pairs`);
      if (wakes.length < expectedWakes) v('lost-notice', `${wakes.length} wakes for ${expectedWakes} lagging pairs`);
      for (const row of afterScan) {
        const before = lagging.find((l) => l.watcher === row.watcher && l.target === row.target);
        if (before !== undefined && (row.acked !== before.acked || row.material !== before.material || row.notified !== row.material)) {
          v('cursor-regression', `${row.watcher} -> ${row.target}: the scan made ${row.acked}/${row.notified}/${row.material} of ${before.acked}/${before.notified}/${before.material}`);
        }
      }
      // A second scan: the same notices (coalesced by a queue that holds them) and no cursor moves.
      const again = await restartScanAll(reader, Date.now());
      const texts = again.map((n) => `${n.watcher} ${noticeTextOf(n.target, n.acked)}`).sort();
      const firstTexts = lagging.map((row) => `${row.watcher} ${noticeTextOf(row.target, row.acked)}`).sort();
      if (JSON.stringify(texts) !== JSON.stringify(firstTexts)) v('duplicate-notice', `a second scan offered ${JSON.stringify(texts)}, the first ${JSON.stringify(firstTexts)}`);
      if (cursorsText(await reader.listCursors()) !== cursorsText(afterScan)) v('cursor-regression', 'a second scan moved a cursor');
    } finally {
      await awareness.close();
    }
    // And a second facade (another restart) queues exactly the same, no more.
    const second = await createSessionStateAwareness({ store: openSqliteStore({ path }), logger: recordingLogger() });
    try {
      for (const key of KEYS) {
        const expected = lagging.filter((row) => row.watcher === key).length;
        if (noticeTexts(second.pending(key)).length !== expected) v('duplicate-notice', `${key}: a second restart queued ${noticeTexts(second.pending(key)).length}, expected ${expected}`);
      }
    } finally {
      await second.close();
    }
  } finally {
    await reader.close();
  }
  return violations;
}

beforeAll(() => {
  // `npm test` builds first; a bare jest run on a fresh checkout builds the app (and its references) here.
  if (!existsSync(join(packageDir, 'dist', 'index.js'))) execFileSync('npx', ['tsc', '-b', packageDir], { stdio: 'inherit' });
});

test(`${ROUNDS} SIGKILLed workload processes (seed ${SEED}) leave no head regression, repeated sequence, broken or regressed cursor, lost confirmed event or wrong restart scan`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'session-state-crash-'));
  const path = join(dir, 'state.db');
  const random = prng(SEED);
  const observed: Observed = { heads: new Map(), watermarks: new Map(), acked: new Map(), owners: new Map(), confirmed: [] };
  let confirmedTotal = 0;
  let killedAfterReady = 0;
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const result = await crashRound(path, round, random);
      observed.confirmed.push(...result.acks);
      confirmedTotal += result.acks.length;
      if (result.killedAfterReady) killedAfterReady += 1;
      if (!existsSync(path)) continue;
      const store = openSqliteStore({ path });
      try {
        expectNoViolations(await checkDurableState(store, observed, round), `after kill ${round}`);
      } finally {
        await store.close();
      }
      expectNoViolations(await checkRestartScan(path, round), `restart scan after kill ${round}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // The battery must have exercised something: confirmed records and kills during the workload.
  expect(confirmedTotal).toBeGreaterThan(ROUNDS);
  expect(killedAfterReady).toBeGreaterThan(ROUNDS / 2);
}, scaledTimeout(60_000));

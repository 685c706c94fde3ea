// One gateway process of workload pg8 (forked by workloads/pgGateways.ts): on one schema shared
// with the other gateways, it records on the targets gateway (i + 1) mod N owns the watchers of,
// plus probes on fresh targets; it owns the watchers of gateway (i − 1)'s targets and drains them
// on wake. It runs one phase per `go`: flat out (one record at a time, as fast as that allows,
// probes every `probeGapMs` beside it) or paced (records at a fixed rate, every record at least
// `probeGapMs` after the last probe being a probe), and reports after each; `end` closes it. The
// library side is the facade over `openPostgresStore` with `ownsSession`; the raw side runs the
// same SQL per transaction (rawPgAppender, LISTEN, one pending-cursor read, rawPgDrain) on its
// own pool. Times are wall clock (performance.timeOrigin + now) so the parent can match one
// process's probe record to another's wake.
import { openPostgresStore } from '@session-state/adapters-postgres';
import { createSessionStateAwareness, type SessionStateAwareness } from '@session-state/app';
import pg from 'pg';

import { humanTurn, rawHumanTurn } from '../workloads/keys.js';
import { rawPgAppender } from './rawAppend.js';
import { rawPgDrain } from './rawDrain.js';
import { rawPgListen } from './rawListen.js';
import { openRawPool } from './rawPg.js';

// --- the protocol with the parent ----------------------------------------------------------------

/** What the parent sends first. */
export interface GatewaySetup {
  readonly type: 'setup';
  readonly side: 'library' | 'raw';
  readonly url: string;
  readonly schema: string;
  readonly index: number;
  readonly gateways: number;
  readonly loadTargets: number;
  /** Probes seeded for this gateway, over every phase. */
  readonly probes: number;
  readonly probeGapMs: number;
  readonly poolSize: number;
}

/** The worker answers `ready`; then per phase the parent sends this and gets one GatewayReport, and at last `{ type: 'end' }`. */
export interface GatewayGo {
  readonly type: 'go';
  /** Wall ms the phase starts at (every gateway at once) and ends at. */
  readonly fromWall: number;
  readonly untilWall: number;
  /** Records per second this gateway offers (paced phase); absent: flat out. */
  readonly recordsPerSec?: number;
}

/** One phase's figures. */
export interface GatewayReport {
  readonly type: 'report';
  /** Records of the phase, load and probes. */
  readonly records: number;
  /** Probe sends: [probe key, wall ms just before its record]. */
  readonly probesSent: ReadonlyArray<readonly [string, number]>;
  /** Wakes (library) or notifications (raw) of owned probe watchers: [probe key, wall ms]. */
  readonly probesHeard: ReadonlyArray<readonly [string, number]>;
  /** Queries this process sent, by label (named statement, else its first two words). */
  readonly queries: Readonly<Record<string, number>>;
  /** Wakes (library) or notifications naming an owned watcher (raw). */
  readonly notices: number;
  /** CPU time this process spent during the run (user + system), µs. */
  readonly cpuUs: number;
}

// --- keys ---------------------------------------------------------------------------------------

const ownerOf = (recorder: number, gateways: number): number => (recorder + 1) % gateways;
const loadTarget = (i: number, k: number): string => `agent:t${i}:load${k}`;
const loadWatcher = (i: number, k: number, n: number): string => `agent:gw${ownerOf(i, n)}:load${i}x${k}`;
/** A probe is named by its recorder and number; its target and watcher are fresh, so its record is a first notice. */
const probeKey = (i: number, p: number): string => `${i}x${p}`;
const probeTarget = (i: number, p: number): string => `agent:t${i}:probe${p}`;
const probeWatcher = (i: number, p: number, n: number): string => `agent:gw${ownerOf(i, n)}:probe${probeKey(i, p)}`;
const probeOfWatcher = (watcher: string): string | undefined => /:probe(\d+x\d+)$/.exec(watcher)?.[1];

/** Every (watcher, target) pair gateway `owner` owns the watcher of. */
export function* ownedPairs(owner: number, setup: Pick<GatewaySetup, 'gateways' | 'loadTargets' | 'probes'>): Generator<{ watcher: string; target: string }> {
  const n = setup.gateways;
  for (let i = 0; i < n; i += 1) {
    if (ownerOf(i, n) !== owner) continue;
    for (let k = 0; k < setup.loadTargets; k += 1) yield { watcher: loadWatcher(i, k, n), target: loadTarget(i, k) };
    for (let p = 0; p < setup.probes; p += 1) yield { watcher: probeWatcher(i, p, n), target: probeTarget(i, p) };
  }
}

const wallNow = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// --- counting queries ----------------------------------------------------------------------------

const queries: Record<string, number> = {};
function countQueries(): void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function counted(this: unknown, ...args: unknown[]) {
    const config = args[0] as { name?: unknown; text?: unknown } | string;
    const text = typeof config === 'string' ? config : typeof config?.name === 'string' ? config.name : String(config?.text ?? '?');
    const label = typeof config === 'object' && typeof config?.name === 'string' ? text : text.trim().split(/\s+/).slice(0, 2).join(' ');
    queries[label] = (queries[label] ?? 0) + 1;
    return original.apply(this, args);
  };
}

// --- the two sides -------------------------------------------------------------------------------

interface Gateway {
  record(target: string): Promise<void>;
  readonly probesHeard: Array<readonly [string, number]>;
  notices(): number;
  close(): Promise<void>;
}

async function openLibrary(setup: GatewaySetup): Promise<Gateway> {
  const prefix = `agent:gw${setup.index}:`;
  const probesHeard: Array<readonly [string, number]> = [];
  let notices = 0;
  let awareness: SessionStateAwareness | undefined;
  const store = await openPostgresStore({ connectionString: setup.url, schema: setup.schema, maxConnections: setup.poolSize });
  awareness = await createSessionStateAwareness({
    store,
    ownsSession: (key) => key.startsWith(prefix),
    startup: { prune: 'off' },
    wake: (watcher) => {
      const at = wallNow();
      notices += 1;
      const probe = probeOfWatcher(watcher);
      if (probe !== undefined) probesHeard.push([probe, at]);
      // The owner drains on wake (after the call that woke it, as a gateway's heartbeat would).
      setImmediate(() => void awareness?.drain(watcher).catch(() => undefined));
    },
  });
  // Its cursors were seeded by SQL before it started, as `sent({ watch: true })` makes them.
  const facade = awareness;
  return {
    async record(target) {
      const result = await facade.record(humanTurn(target));
      if (!result.ok) throw new Error('gateway record failed');
    },
    probesHeard,
    notices: () => notices,
    close: () => facade.close(),
  };
}

/** The pending cursors on one target, as the store's re-read reads them (pending_cursors_on). */
const PENDING_ON = 'SELECT watcher, target, acked, notified, material FROM cursors WHERE target = ANY($1::text[]) AND material > acked ORDER BY watcher, target';

async function openRaw(setup: GatewaySetup): Promise<Gateway> {
  const prefix = `agent:gw${setup.index}:`;
  const channel = `session_state:${setup.schema}`;
  const pool = openRawPool(setup.url, setup.schema, setup.poolSize);
  const append = rawPgAppender(pool, channel);
  const probesHeard: Array<readonly [string, number]> = [];
  let notices = 0;
  const listening = await rawPgListen(setup.url, channel, (payload) => {
    const [target, ...watchers] = payload.split(' ');
    const owned = watchers.filter((watcher) => watcher.startsWith(prefix));
    if (target === undefined || owned.length === 0) return;
    const at = wallNow();
    for (const watcher of owned) {
      notices += 1;
      const probe = probeOfWatcher(watcher);
      if (probe !== undefined) probesHeard.push([probe, at]);
    }
    // The owner's re-read and drain, the same SQL the library's owner sends.
    void (async () => {
      const rows = (await pool.query({ text: PENDING_ON, values: [[target]], rowMode: 'array' })).rows as unknown[][];
      for (const row of rows) if (String(row[0]).startsWith(prefix)) await rawPgDrain(pool, String(row[0]), [target], Date.now());
    })().catch(() => undefined);
  });
  return {
    async record(target) {
      await append(rawHumanTurn(target), Date.now());
    },
    probesHeard,
    notices: () => notices,
    close: async () => {
      await listening.close();
      await pool.end();
    },
  };
}

// --- the run ---------------------------------------------------------------------------------------

/** Probes sent in earlier phases: a probe's target is fresh in every phase. */
let nextProbe = 0;
let loadRecords = 0;

async function run(setup: GatewaySetup, go: GatewayGo, gateway: Gateway): Promise<GatewayReport> {
  const i = setup.index;
  const { untilWall } = go;
  const wait = go.fromWall - wallNow();
  if (wait > 0) await sleep(wait);
  let records = 0;
  const queriesAtStart = { ...queries };
  const noticesAtStart = gateway.notices();
  const cpuAtStart = process.cpuUsage();
  const probesSent: Array<readonly [string, number]> = [];
  const sendProbe = async (): Promise<void> => {
    const p = nextProbe;
    nextProbe += 1;
    probesSent.push([probeKey(i, p), wallNow()]);
    await gateway.record(probeTarget(i, p));
    records += 1;
  };
  const sendLoad = async (): Promise<void> => {
    await gateway.record(loadTarget(i, loadRecords % setup.loadTargets));
    loadRecords += 1;
    records += 1;
  };
  if (go.recordsPerSec === undefined) {
    const load = async (): Promise<void> => {
      while (wallNow() < untilWall) await sendLoad();
    };
    const probe = async (): Promise<void> => {
      while (nextProbe < setup.probes && wallNow() < untilWall) {
        await sendProbe();
        await sleep(setup.probeGapMs);
      }
    };
    await Promise.all([load(), probe()]);
  } else {
    // Open loop: record k is due at start + k / rate, whether or not the one before has returned
    // (a gateway's calls do not wait for each other), so a slow record does not lower the load.
    const gapMs = 1000 / go.recordsPerSec;
    const start = wallNow();
    let lastProbe = Number.NEGATIVE_INFINITY;
    const inFlight = new Set<Promise<void>>();
    for (let k = 0; ; k += 1) {
      const due = start + k * gapMs;
      if (due >= untilWall) break;
      const wait = due - wallNow();
      if (wait > 0) await sleep(wait);
      const isProbe = due - lastProbe >= setup.probeGapMs && nextProbe < setup.probes;
      if (isProbe) lastProbe = due;
      const call = (isProbe ? sendProbe() : sendLoad()).finally(() => inFlight.delete(call));
      inFlight.add(call);
    }
    await Promise.all(inFlight);
  }
  const cpu = process.cpuUsage(cpuAtStart);
  // Late wakes of the last probes.
  await sleep(300);
  const phaseQueries: Record<string, number> = {};
  for (const [label, count] of Object.entries(queries)) {
    const during = count - (queriesAtStart[label] ?? 0);
    if (during > 0) phaseQueries[label] = during;
  }
  return {
    type: 'report',
    records,
    probesSent,
    probesHeard: gateway.probesHeard.splice(0),
    queries: phaseQueries,
    notices: gateway.notices() - noticesAtStart,
    cpuUs: cpu.user + cpu.system,
  };
}

let setup: GatewaySetup | undefined;
let gateway: Gateway | undefined;
process.on('message', (message: GatewaySetup | GatewayGo | { readonly type: 'end' }) => {
  void (async () => {
    try {
      if (message.type === 'setup') {
        setup = message;
        gateway = setup.side === 'library' ? await openLibrary(setup) : await openRaw(setup);
        countQueries();
        process.send?.({ type: 'ready' });
      } else if (message.type === 'go' && setup !== undefined && gateway !== undefined) {
        process.send?.(await run(setup, message, gateway));
      } else if (message.type === 'end' && gateway !== undefined) {
        await gateway.close();
        process.exit(0);
      }
    } catch (error) {
      process.send?.({ type: 'error', message: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
    }
  })();
});
// The parent gone (it failed or was stopped): nobody will send `end`.
process.on('disconnect', () => process.exit(0));

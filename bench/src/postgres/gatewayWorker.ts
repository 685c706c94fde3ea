// One gateway process of workload pg8 (forked by workloads/pgGateways.ts): on one schema shared
// with the other gateways, it records on the targets gateway (i + 1) mod N owns the watchers of,
// as fast as one record at a time allows (load), plus probes on fresh targets; it owns the
// watchers of gateway (i − 1)'s targets and drains them on wake. The library side is the facade
// over `openPostgresStore` with `ownsSession`; the raw side runs the same SQL per transaction
// (rawPgAppender, LISTEN, one pending-cursor read, rawPgDrain) on its own pool. Times are wall
// clock (performance.timeOrigin + now) so the parent can match one process's probe record to
// another's wake.
import { openPostgresStore } from '@session-state/adapters-postgres';
import { createSessionStateAwareness, type SessionStateAwareness } from '@session-state/app';
import pg from 'pg';

import { humanTurn, rawHumanTurn } from '../workloads/keys';
import { rawPgAppender } from './rawAppend';
import { rawPgDrain } from './rawDrain';
import { rawPgListen } from './rawListen';
import { openRawPool } from './rawPg';

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
  readonly probes: number;
  readonly probeGapMs: number;
  readonly poolSize: number;
}

/** Then `{ type: 'go', untilWall }`; the worker answers `ready`, then one GatewayReport. */
export interface GatewayReport {
  readonly type: 'report';
  /** Records of the run, load and probes. */
  readonly records: number;
  /** Probe sends: [probe key, wall ms just before its record]. */
  readonly probesSent: ReadonlyArray<readonly [string, number]>;
  /** Wakes (library) or notifications (raw) of owned probe watchers: [probe key, wall ms]. */
  readonly probesHeard: ReadonlyArray<readonly [string, number]>;
  /** Queries this process sent, by label (named statement, else its first two words). */
  readonly queries: Readonly<Record<string, number>>;
  /** Wakes (library) or notifications naming an owned watcher (raw). */
  readonly notices: number;
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

async function run(setup: GatewaySetup, untilWall: number, gateway: Gateway): Promise<GatewayReport> {
  const i = setup.index;
  let records = 0;
  const probesSent: Array<readonly [string, number]> = [];
  const load = async (): Promise<void> => {
    for (let k = 0; wallNow() < untilWall; k += 1) {
      await gateway.record(loadTarget(i, k % setup.loadTargets));
      records += 1;
    }
  };
  const probe = async (): Promise<void> => {
    for (let p = 0; p < setup.probes && wallNow() < untilWall; p += 1) {
      probesSent.push([probeKey(i, p), wallNow()]);
      await gateway.record(probeTarget(i, p));
      records += 1;
      await sleep(setup.probeGapMs);
    }
  };
  await Promise.all([load(), probe()]);
  // Late wakes of the last probes.
  await sleep(300);
  return { type: 'report', records, probesSent, probesHeard: gateway.probesHeard, queries: { ...queries }, notices: gateway.notices() };
}

let setup: GatewaySetup | undefined;
let gateway: Gateway | undefined;
process.on('message', (message: { type: string; untilWall?: number } & Partial<GatewaySetup>) => {
  void (async () => {
    try {
      if (message.type === 'setup') {
        setup = message as GatewaySetup;
        gateway = setup.side === 'library' ? await openLibrary(setup) : await openRaw(setup);
        countQueries();
        process.send?.({ type: 'ready' });
      } else if (message.type === 'go' && setup !== undefined && gateway !== undefined) {
        const report = await run(setup, message.untilWall ?? 0, gateway);
        await gateway.close();
        process.send?.(report, () => process.exit(0));
      }
    } catch (error) {
      process.send?.({ type: 'error', message: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
    }
  })();
});

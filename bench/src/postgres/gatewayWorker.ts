// One gateway process of workload pg8 (forked by workloads/pgGateways.ts). Gateway i records on
// the targets whose watchers gateway (i + 1) mod N owns, plus probes on fresh targets, and drains
// its own watchers on wake. Per `go` it runs one phase, flat out or paced, and reports; `end`
// closes it. Times are wall clock, so the parent can match a probe's record to another's wake.
import { createSessionStateAwareness, type SessionStateAwareness } from '@session-state/app';

import { openPgLibraryStore } from '../library/facade.js';
import { expectRecorded, humanTurn, rawHumanTurn } from '../workloads/setup.js';
import { channelOf, openRawGateway, openRawPool, rawPgDrain } from './rawPg.js';
import { watchQueries } from './server.js';

/** The parent's messages: `setup` (answered `ready`; `probes`: seeded for this gateway, over every phase), then a `go` per phase (answered by a report), then `end`. */
export type GatewaySetup = { readonly type: 'setup'; readonly side: 'library' | 'raw'; readonly url: string; readonly schema: string; readonly index: number; readonly gateways: number; readonly loadTargets: number; readonly probes: number; readonly probeGapMs: number; readonly poolSize: number };

/** One phase: wall ms it starts and ends at; `recordsPerSec` paces it, flat out when absent. */
export type GatewayGo = { readonly type: 'go'; readonly fromWall: number; readonly untilWall: number; readonly recordsPerSec?: number };

/** Probes as [probe key, wall ms]: sent just before its record, heard at its owner's wake or notification; notices: wakes or owned notifications. */
type Probes = ReadonlyArray<readonly [string, number]>;
export type GatewayReport = { readonly type: 'report'; readonly records: number; readonly notices: number; readonly cpuUs: number; readonly queries: Readonly<Record<string, number>>; readonly probesSent: Probes; readonly probesHeard: Probes };

const ownerOf = (recorder: number, gateways: number): number => (recorder + 1) % gateways;
const loadTarget = (i: number, k: number): string => `agent:t${i}:load${k}`;
const probeKey = (i: number, p: number): string => `${i}x${p}`;
const probeTarget = (i: number, p: number): string => `agent:t${i}:probe${p}`;
const probeOfWatcher = (watcher: string): string | undefined => /:probe(\d+x\d+)$/.exec(watcher)?.[1];

/** Every (watcher, target) pair whose watcher gateway `owner` owns. */
export function* ownedPairs(owner: number, setup: Pick<GatewaySetup, 'gateways' | 'loadTargets' | 'probes'>): Generator<{ watcher: string; target: string }> {
  const n = setup.gateways;
  for (let i = 0; i < n; i += 1) {
    if (ownerOf(i, n) !== owner) continue;
    for (let k = 0; k < setup.loadTargets; k += 1) yield { watcher: `agent:gw${owner}:load${i}x${k}`, target: loadTarget(i, k) };
    for (let p = 0; p < setup.probes; p += 1) yield { watcher: `agent:gw${owner}:probe${probeKey(i, p)}`, target: probeTarget(i, p) };
  }
}

const wallNow = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type Gateway = { record(target: string): Promise<void>; close(): Promise<void> };

/** The current phase's queries by label, wakes or owned notifications heard, and the probes among them with the wall ms they were heard at. */
let phase = { queries: {} as Record<string, number>, notices: 0, probesHeard: [] as Array<readonly [string, number]> };
function heard(watcher: string, at: number): void {
  phase.notices += 1;
  const probe = probeOfWatcher(watcher);
  if (probe !== undefined) phase.probesHeard.push([probe, at]);
}

async function openLibrary(setup: GatewaySetup): Promise<Gateway> {
  const prefix = `agent:gw${setup.index}:`;
  const store = await openPgLibraryStore({ url: setup.url, schema: setup.schema, maxConnections: setup.poolSize });
  const awareness: SessionStateAwareness = await createSessionStateAwareness({
    store,
    ownsSession: (key) => key.startsWith(prefix),
    startup: { prune: 'off' },
    wake: (watcher) => {
      heard(watcher, wallNow());
      // Async, so a wake before the facade is assigned is a caught rejection, not a crash.
      setImmediate(() => void (async () => awareness.drain(watcher))().catch(() => undefined));
    },
  });
  return { record: async (target) => expectRecorded(await awareness.record(humanTurn(target)), 'gateway'), close: () => awareness.close() };
}

/** The pending cursors on the signalled target, as the store's re-read reads them. */
const PENDING_ON = 'SELECT watcher, target, acked, notified, material FROM cursors WHERE target = ANY($1::text[]) AND material > acked ORDER BY watcher, target';

async function openRaw(setup: GatewaySetup): Promise<Gateway> {
  const prefix = `agent:gw${setup.index}:`;
  const pool = openRawPool(setup.url, setup.schema, setup.poolSize);
  const gateway = await openRawGateway(setup.url, pool, channelOf(setup.schema), (target, watchers) => {
    const owned = watchers.filter((watcher) => watcher.startsWith(prefix));
    if (owned.length === 0) return;
    const at = wallNow();
    for (const watcher of owned) heard(watcher, at);
    void (async () => {
      const rows = (await pool.query({ text: PENDING_ON, values: [[target]], rowMode: 'array' })).rows as unknown[][];
      for (const row of rows) if (String(row[0]).startsWith(prefix)) await rawPgDrain(pool, String(row[0]), [target], Date.now());
    })().catch(() => undefined);
  });
  return { record: async (target) => void (await gateway.append(rawHumanTurn(target), Date.now())), close: gateway.close };
}

/** Probes sent in earlier phases: a probe's target is fresh in every phase. */
let nextProbe = 0;
let loadRecords = 0;

async function run(setup: GatewaySetup, go: GatewayGo, gateway: Gateway): Promise<GatewayReport> {
  if (go.fromWall > wallNow()) await sleep(go.fromWall - wallNow());
  let records = 0;
  phase = { queries: {}, notices: 0, probesHeard: [] };
  const cpuAtStart = process.cpuUsage();
  const probesSent: Array<readonly [string, number]> = [];
  const send = async (probe: boolean): Promise<void> => {
    const p = probe ? nextProbe++ : 0;
    if (probe) probesSent.push([probeKey(setup.index, p), wallNow()]);
    await gateway.record(probe ? probeTarget(setup.index, p) : loadTarget(setup.index, loadRecords++ % setup.loadTargets));
    records += 1;
  };
  if (go.recordsPerSec === undefined) {
    const load = async (): Promise<void> => {
      while (wallNow() < go.untilWall) await send(false);
    };
    const probe = async (): Promise<void> => {
      while (nextProbe < setup.probes && wallNow() < go.untilWall) {
        await send(true);
        await sleep(setup.probeGapMs);
      }
    };
    await Promise.all([load(), probe()]);
  } else {
    // Open loop: record k is due at start + k / rate, whether or not the one before has returned.
    const gapMs = 1000 / go.recordsPerSec;
    let lastProbe = Number.NEGATIVE_INFINITY;
    const inFlight = new Set<Promise<void>>();
    for (let due = wallNow(); due < go.untilWall; due += gapMs) {
      if (due > wallNow()) await sleep(due - wallNow());
      const isProbe = due - lastProbe >= setup.probeGapMs && nextProbe < setup.probes;
      if (isProbe) lastProbe = due;
      const call = send(isProbe).finally(() => inFlight.delete(call));
      inFlight.add(call);
    }
    await Promise.all(inFlight);
  }
  const cpu = process.cpuUsage(cpuAtStart);
  await sleep(300);
  return { type: 'report', records, probesSent, ...phase, cpuUs: cpu.user + cpu.system };
}

let setup: GatewaySetup | undefined;
let gateway: Gateway | undefined;
process.on('message', (message: GatewaySetup | GatewayGo | { readonly type: 'end' }) => {
  void (async () => {
    try {
      if (message.type === 'setup') {
        setup = message;
        gateway = setup.side === 'library' ? await openLibrary(setup) : await openRaw(setup);
        watchQueries((label) => void (phase.queries[label] = (phase.queries[label] ?? 0) + 1));
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
process.on('disconnect', () => process.exit(0));

// What a wake means (issue 27): "this watcher has at least one notice that is not taken". A wake
// handler that calls `pending(watcher)` at that moment finds a notice, whatever came before: random
// records (foreign and self-caused), spawns and watches, takes, confirms (of any earlier take), drains,
// reads as reader, unwatches, restarts, and leases that end by the manual clock or whose timer fires
// (real time passing) on one process. Lease timers run on real time, so the lease is short here: a
// `sleep` waits two leases, and 10 ms still outlasts the few store calls between a take and the next step.
import { storeMatrix, type StoreHarness, type StoreKind } from '@session-state/testkit';
import { createManualClock } from '@session-state/adapters-memory';
import fc from 'fast-check';

import type { TakenNotice } from '../src/index.js';
import { meaninglessWakes, startGateway, type GatewayProcess, type SeenWake } from './support/gatewayProcess.js';
import { CHILD, humanTurn, PARENT, START } from './support/harness.js';

const RUNS = Number(process.env['MODEL_RUNS'] ?? 30);
const LEASE_MS = 10;

// Two main sessions and a nested sub-agent (never woken) watch; any of them and a fourth session change.
const WATCHERS = ['agent:a:main', 'agent:b:main', 'agent:a:subagent:s'] as const;
const SESSIONS = ['agent:t:main', ...WATCHERS] as const;

type Op =
  | { readonly op: 'record'; readonly target: number; readonly by: number }
  | { readonly op: 'spawn' | 'watch' | 'unwatch'; readonly watcher: number; readonly target: number }
  | { readonly op: 'take' | 'drain'; readonly watcher: number }
  | { readonly op: 'confirm'; readonly take: number }
  | { readonly op: 'read'; readonly watcher: number; readonly target: number; readonly since: 'notice' | 'zero' | 'head' }
  | { readonly op: 'restart' }
  | { readonly op: 'advance'; readonly ms: number }
  | { readonly op: 'sleep' };

const watcher = fc.nat(WATCHERS.length - 1);
const session = fc.nat(SESSIONS.length - 1);
const op: fc.Arbitrary<Op> = fc.oneof(
  // by: -1 a human, else the watcher with that index (self-caused for it).
  { weight: 5, arbitrary: fc.record({ op: fc.constant('record' as const), target: session, by: fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: watcher }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('spawn' as const, 'watch' as const), watcher, target: session }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('unwatch' as const), watcher, target: session }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('take' as const), watcher }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('drain' as const), watcher }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('confirm' as const), take: fc.nat(9) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('read' as const), watcher, target: session, since: fc.constantFrom('notice' as const, 'zero' as const, 'head' as const) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'restart' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, LEASE_MS - 1, LEASE_MS) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'sleep' as const }) },
);

/** One run: a gateway on fresh state, the pairs watched (to aim records and reads), the takes not yet confirmed, and every wake of every process it was. */
interface Run {
  harness: StoreHarness;
  readonly watched: Map<string, string>;
  gateway: GatewayProcess;
  readonly clock: ReturnType<typeof createManualClock>;
  readonly takes: { readonly watcher: string; readonly taken: readonly TakenNotice[] }[];
  readonly wakes: SeenWake[][];
}

const key = (list: readonly string[], index: number): string => list[index % list.length] as string;

/** The index-th of the watched pairs (most steps aim at one, so short runs reach notices, leases and reopens), else of all pairs. */
function pair(run: Run, watcherIndex: number, targetIndex: number): { readonly w: string; readonly target: string } {
  const watched = [...run.watched.values()];
  const aimed = watched[(watcherIndex * SESSIONS.length + targetIndex) % Math.max(1, watched.length)];
  if (aimed !== undefined && targetIndex % 4 !== 0) return JSON.parse(aimed) as { w: string; target: string };
  return { w: key(WATCHERS, watcherIndex), target: key(SESSIONS, targetIndex) };
}

async function apply(run: Run, step: Op): Promise<void> {
  const { awareness } = run.gateway;
  switch (step.op) {
    case 'record': {
      const by = step.by < 0 ? {} : { actorSessionKey: key(WATCHERS, step.by) };
      await awareness.record({ sessionKey: pair(run, step.by + 1, step.target).target, kind: 'human_direct_message', actorType: step.by < 0 ? 'human' : 'agent', summary: 'a change', ...by });
      return;
    }
    case 'spawn':
    case 'watch': {
      const [w, target] = [key(WATCHERS, step.watcher), key(SESSIONS, step.target)];
      if (w !== target) run.watched.set(`${w} ${target}`, JSON.stringify({ w, target }));
      if (step.op === 'spawn') await awareness.childSpawned({ parentKey: w, childKey: target });
      else await awareness.sent({ senderKey: w, deliveredTo: target, watch: true });
      return;
    }
    case 'unwatch': {
      const { w, target } = pair(run, step.watcher, step.target);
      run.watched.delete(`${w} ${target}`);
      await awareness.unwatch(w, target);
      return;
    }
    case 'take': {
      const w = pair(run, step.watcher, 1).w;
      run.takes.push({ watcher: w, taken: await awareness.take(w) });
      return;
    }
    case 'drain':
      await awareness.drain(pair(run, step.watcher, 1).w);
      return;
    case 'confirm': {
      const [held] = run.takes.splice(step.take % Math.max(1, run.takes.length), 1);
      if (held !== undefined) await awareness.confirm(held.watcher, held.taken);
      return;
    }
    case 'read': {
      const { w, target } = pair(run, step.watcher, step.target);
      const notice = [...run.takes.flatMap((held) => held.taken), ...awareness.pending(w)].find((n) => n.watcher === w && n.target === target);
      const since = step.since === 'zero' ? 0 : step.since === 'head' ? (await awareness.status(target)).stateVersion : (notice?.changesSince ?? 0);
      await awareness.status(target, { changesSince: since, reader: w });
      return;
    }
    case 'restart':
      await awareness.close();
      run.gateway = await startGateway(await run.harness.reopen(), { clock: run.clock, leaseMs: LEASE_MS });
      run.wakes.push(run.gateway.wakes);
      run.takes.length = 0;
      return;
    case 'advance':
      run.clock.advance(step.ms);
      return;
    case 'sleep':
      // Real time passes: the timers of the leases taken so far fire.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 2));
      return;
  }
}

describe.each(storeMatrix)('wakes on the %s store', (_name, kind: StoreKind) => {
  test('every wake finds a notice that is not taken: pending(watcher) is not empty at that moment, over random records, watches, takes, confirms, drains, reader reads, unwatches, restarts and lease ends', async () => {
    let wakesSeen = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 60, size: 'max' }), async (ops) => {
        const harness = await kind.open();
        const clock = createManualClock(START);
        const gateway = await startGateway(harness.store, { clock, leaseMs: LEASE_MS });
        const run: Run = { harness, watched: new Map(), gateway, clock, takes: [], wakes: [gateway.wakes] };
        try {
          for (const step of ops) await apply(run, step);
          // The last leases end (by the clock and by their timers).
          clock.advance(LEASE_MS);
          await apply(run, { op: 'sleep' });
          const wakes = run.wakes.flat();
          wakesSeen += wakes.length;
          expect(meaninglessWakes(wakes)).toEqual([]);
        } finally {
          await run.gateway.awareness.close();
          await harness.cleanup();
        }
      }),
      { numRuns: RUNS },
    );
    // Not vacuous: the runs woke watchers (about two wakes a run).
    expect(wakesSeen).toBeGreaterThan(RUNS / 2);
  }, 120_000);
});

describe('the lease timer', () => {
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

  test('a lease timer that fires before the clock reaches the lease’s end wakes nobody; once the clock has passed it, one wake comes, with the notice pending', async () => {
    const [, memory] = storeMatrix[0] as (typeof storeMatrix)[number];
    const harness = await memory.open();
    const clock = createManualClock(START);
    const gateway = await startGateway(harness.store, { clock, leaseMs: LEASE_MS });
    try {
      await gateway.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
      await gateway.awareness.record(humanTurn(CHILD));
      expect(await gateway.awareness.take(PARENT)).toHaveLength(1);
      gateway.wakes.length = 0;
      // Real time passes the lease; the clock port, which decides it, does not.
      await sleep(LEASE_MS * 3);
      expect(gateway.awareness.pending(PARENT)).toEqual([]);
      expect(gateway.wakes).toEqual([]);
      clock.advance(LEASE_MS);
      await sleep(LEASE_MS * 3);
      expect(gateway.wakes).toEqual([{ watcher: PARENT, pending: 1 }]);
    } finally {
      await gateway.awareness.close();
      await harness.cleanup();
    }
  });
});

// Random facade workloads for the model-based batteries: a small key pool (agent-qualified
// mains, nested sub-agents, the bare `global` key) and one arbitrary per facade operation,
// plus restarts, prunes and clock moves; `runStep` plays one step on a Rig.
import fc from 'fast-check';

import type { RecordInput } from '../../../src/index.js';
import type { Rig } from './rig.js';

export const KEYS = [
  'agent:main:main',
  'agent:main:subagent:c1',
  'agent:main:subagent:c2',
  'agent:ops:main',
  'agent:ops:subagent:x',
  'global',
] as const;

const KINDS = [
  'human_direct_message',
  'goal_changed',
  'upstream_missing',
  'child_spawned',
  'run_completed',
  'run_failed',
  'compacted',
  'adopted',
] as const;

/** Retention small enough that random workloads hit the age limit and the row cap. */
export const WORKLOAD_RETENTION = { maxAgeMs: 10 * 60 * 60 * 1000, maxRows: 24 } as const;

export type Step =
  | { readonly op: 'record'; readonly key: number; readonly kind: number; readonly actor: number; readonly dedupe: number; readonly onlyIfWatched: boolean }
  | { readonly op: 'childSpawned'; readonly parent: number; readonly child: number; readonly dedupe: number }
  | { readonly op: 'sent'; readonly sender: number; readonly to: number; readonly watch: boolean; readonly delivered: boolean }
  | { readonly op: 'drain'; readonly watcher: number }
  | { readonly op: 'status'; readonly key: number; readonly since: number; readonly limit: number }
  /** `status` with the watcher as `reader` (issue 15): a page reaching the head acknowledges its cursor. */
  | { readonly op: 'readerStatus'; readonly reader: number; readonly key: number; readonly since: number; readonly limit: number }
  | { readonly op: 'unwatch'; readonly watcher: number; readonly target: number }
  | { readonly op: 'sessionReset'; readonly key: number }
  | { readonly op: 'sessionDeleted'; readonly key: number }
  | { readonly op: 'prune' }
  | { readonly op: 'restart' }
  | { readonly op: 'advance'; readonly ms: number };

const key = fc.nat(KEYS.length - 1);

/** Clock moves: mostly forward, sometimes backwards (a clock step back must never prune fresh rows). */
export const CLOCK_MOVES = [1, 60_000, 61 * 60 * 1000, 5 * 60 * 60 * 1000, 11 * 60 * 60 * 1000, -60_000, -3 * 60 * 60 * 1000] as const;

/** One step; notifying records and drains are weighted up so notices, reopens and coalescing are common. */
export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      op: fc.constant('record' as const),
      key,
      kind: fc.oneof({ weight: 4, arbitrary: fc.nat(2) }, { weight: 1, arbitrary: fc.nat(KINDS.length - 1) }),
      // -1: a human; 0..: that key as the acting agent (sometimes the watcher itself).
      actor: fc.integer({ min: -1, max: KEYS.length - 1 }),
      // -1: no dedupe key; else one of a few shared keys, so retries and reuse after prune happen.
      dedupe: fc.oneof({ weight: 4, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat(3) }),
      onlyIfWatched: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('childSpawned' as const), parent: key, child: key, dedupe: fc.integer({ min: -1, max: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('sent' as const), sender: key, to: key, watch: fc.boolean(), delivered: fc.boolean() }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('drain' as const), watcher: key }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('status' as const), key, since: fc.nat(60), limit: fc.constantFrom(1, 3, 200) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('readerStatus' as const), reader: key, key, since: fc.nat(60), limit: fc.constantFrom(1, 3, 200, 200) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('unwatch' as const), watcher: key, target: key }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('sessionReset' as const), key }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('sessionDeleted' as const), key }) },
  { weight: 1, arbitrary: fc.constant({ op: 'prune' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'restart' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('advance' as const),
      ms: fc.constantFrom(...CLOCK_MOVES),
    }),
  },
);

const k = (i: number): string => KEYS[i] as string;

/** The `record` input of a step. */
export function recordInput(step: Extract<Step, { op: 'record' }>): RecordInput {
  const kind = KINDS[step.kind] as RecordInput['kind'];
  return {
    sessionKey: k(step.key),
    kind,
    actorType: step.actor < 0 ? 'human' : 'agent',
    ...(step.actor >= 0 ? { actorSessionKey: k(step.actor) } : {}),
    summary: `${kind} step`,
    ...(kind === 'run_failed' ? { payload: { outcome: 'timeout' } } : {}),
    ...(step.dedupe >= 0 ? { dedupeKey: `dedupe-${step.dedupe}` } : {}),
    onlyIfWatched: step.onlyIfWatched,
  };
}

/** Plays one step on the rig (healthy store); violations collect on the rig. */
export async function runStep(rig: Rig, step: Step): Promise<void> {
  switch (step.op) {
    case 'record':
      return rig.record(recordInput(step));
    case 'childSpawned':
      return rig.childSpawned(k(step.parent), k(step.child), step.dedupe >= 0 ? `spawn-${step.dedupe}` : undefined);
    case 'sent':
      return rig.sent({ senderKey: k(step.sender), deliveredTo: k(step.to), watch: step.watch, delivered: step.delivered });
    case 'drain': {
      const delivered = await rig.drain(k(step.watcher));
      return checkDelivered(rig, delivered);
    }
    case 'status':
      return rig.reconcile(k(step.key), step.since, step.limit);
    case 'readerStatus':
      return rig.readAsReader(k(step.reader), k(step.key), step.since, step.limit);
    case 'unwatch':
      return rig.unwatch(k(step.watcher), k(step.target));
    case 'sessionReset':
      return rig.sessionReset(k(step.key));
    case 'sessionDeleted':
      return rig.sessionDeleted(k(step.key));
    case 'prune':
      return rig.prune();
    case 'restart':
      return rig.restart();
    case 'advance':
      rig.clock.advance(step.ms);
      return undefined;
    default: {
      const unreachable: never = step;
      return unreachable;
    }
  }
}

/** Every delivered notice reconciles: its `changesSince` yields the exact delta or an honest gap. */
async function checkDelivered(rig: Rig, delivered: readonly string[]): Promise<void> {
  for (const text of delivered) {
    const match = /sessionKey "(.+)" changesSince (\d+)\.$/.exec(text);
    if (match !== null) await rig.reconcile(match[1] as string, Number(match[2]));
  }
}

/** A short label of a step for failure messages. */
export function describeStep(step: Step): string {
  return JSON.stringify(step);
}

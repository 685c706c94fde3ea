// The signal-log event kinds, the actor types, and which kinds notify, seed or only log.
import * as t from 'io-ts';

export const EventKind = t.keyof(
  {
    human_direct_message: null,
    goal_changed: null,
    upstream_missing: null,
    child_spawned: null,
    run_completed: null,
    run_failed: null,
    compacted: null,
    adopted: null,
  },
  'one of human_direct_message, goal_changed, upstream_missing, child_spawned, run_completed, run_failed, compacted, adopted',
);
export type EventKind = t.TypeOf<typeof EventKind>;

export const EVENT_KINDS = Object.keys(EventKind.keys) as readonly EventKind[];

export const ActorType = t.keyof({ human: null, agent: null, system: null }, 'one of human, agent, system');
export type ActorType = t.TypeOf<typeof ActorType>;

/** `notify` kinds move watchers' cursors; `seed` seeds the parent's; `log` kinds only log. */
export type KindClass = 'notify' | 'seed' | 'log';

export function kindClass(kind: EventKind): KindClass {
  switch (kind) {
    case 'human_direct_message':
    case 'goal_changed':
    case 'upstream_missing':
      return 'notify';
    case 'child_spawned':
      return 'seed';
    case 'run_completed':
    case 'run_failed':
    case 'compacted':
    case 'adopted':
      return 'log';
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

export const RunOutcome = t.keyof({ cancelled: null, timeout: null, error: null }, 'one of cancelled, timeout, error');
export type RunOutcome = t.TypeOf<typeof RunOutcome>;

// The signal-log event kinds, the actor types, and which kinds notify, seed or only log.
import * as t from 'io-ts';

/** `notify` kinds move watchers' cursors; `seed` seeds the parent's; `log` kinds only log. */
export type KindClass = 'notify' | 'seed' | 'log';

const KIND_CLASSES = {
  human_direct_message: 'notify',
  goal_changed: 'notify',
  upstream_missing: 'notify',
  child_spawned: 'seed',
  run_completed: 'log',
  run_failed: 'log',
  compacted: 'log',
  adopted: 'log',
  created: 'log',
} as const satisfies Record<string, KindClass>;

export const EventKind = t.keyof(KIND_CLASSES, `one of ${Object.keys(KIND_CLASSES).join(', ')}`);
export type EventKind = t.TypeOf<typeof EventKind>;

export const EVENT_KINDS = Object.keys(EventKind.keys) as readonly EventKind[];

export const ActorType = t.keyof({ human: null, agent: null, system: null }, 'one of human, agent, system');
export type ActorType = t.TypeOf<typeof ActorType>;

export const kindClass = (kind: EventKind): KindClass => KIND_CLASSES[kind];

export const RunOutcome = t.keyof({ cancelled: null, timeout: null, error: null }, 'one of cancelled, timeout, error');

// SPEC 5's notice rules as a table over plain numbers: what each thing that happens to a
// (watcher, target) pair does to its three watermarks and which notice it asks for. Written
// without the domain's cursor decider, so the decider can be tested against it and a model built
// on it does not share the decider's mistakes.

/** A pair's cursor: idle when material <= acked, else one notice covers (acked, notified]. */
export interface ModelWatermarks {
  readonly acked: number;
  readonly notified: number;
  readonly material: number;
}

/** Why a notice is offered: a first change, another while one is held, after a drain, after a restart. */
export type RuleReason = 'first' | 'repeat' | 'reopen' | 'recovered';

export interface RuleNotice {
  readonly acked: number;
  readonly notified: number;
  readonly reason: RuleReason;
}

/** One row of the table: the cursor after (undefined: none) and the notice asked for, if any. */
export interface RuleStep {
  readonly cursor: ModelWatermarks | undefined;
  readonly notice?: RuleNotice;
  /** For a drain: `acked` when it consumed the cursor's notice, `stale` when it did not. */
  readonly drain?: 'acked' | 'stale';
}

/** SPEC 3: an event notifies a watcher when its kind notifies (every other kind is silent) and the watcher did not cause it. */
export const notifiesWatcher = (watcher: string, event: { readonly kind: string; readonly actorSessionKey?: string }): boolean =>
  ['human_direct_message', 'goal_changed', 'upstream_missing'].includes(event.kind) && event.actorSessionKey !== watcher;

const isPending = (c: ModelWatermarks): boolean => c.material > c.acked;
const at = (sequence: number): ModelWatermarks => ({ acked: sequence, notified: sequence, material: sequence });

/**
 * The table. Each rule takes the pair's cursor before (undefined: the pair has none).
 *
 * | happens                        | idle cursor (material <= acked)            | pending cursor                                           |
 * |--------------------------------|--------------------------------------------|----------------------------------------------------------|
 * | foreign notifying change at s  | s > acked: notified = material = s, first  | material = max(material, s); repeat at (acked, notified) |
 * | own or silent change           | nothing                                    | nothing                                                  |
 * | drain of the notice at n       | stale, nothing                             | n = notified: acked = notified; material above it: notified = material, reopen; else idle. n != notified: stale, repeat |
 * | restart scan                   | nothing                                    | notified = material; recovered at (acked, material)      |
 * | read (since, through): the watcher's status reached the head `through`, from since <= acked, through > acked (else nothing) | acked = through | acked = through; material above it: notified = material, reopen; else idle |
 * | spawn edge at s                | replaced by idle at s (also with no cursor)                                                           |
 * | explicit watch at head h       | kept (no cursor: idle at h)                                                                           |
 * | reset, delete, expiry          | removed                                                                                               |
 */
export const NOTICE_RULES = {
  change(cursor: ModelWatermarks | undefined, watcher: string, event: { readonly sequence: number; readonly kind: string; readonly actorSessionKey?: string }): RuleStep {
    if (cursor === undefined || !notifiesWatcher(watcher, event)) return { cursor };
    if (!isPending(cursor)) {
      if (event.sequence <= cursor.acked) return { cursor };
      return { cursor: { acked: cursor.acked, notified: event.sequence, material: event.sequence }, notice: { acked: cursor.acked, notified: event.sequence, reason: 'first' } };
    }
    const next = { ...cursor, material: Math.max(cursor.material, event.sequence) };
    return { cursor: next, notice: { acked: next.acked, notified: next.notified, reason: 'repeat' } };
  },

  drain(cursor: ModelWatermarks | undefined, notified: number): RuleStep {
    if (cursor === undefined || !isPending(cursor)) return { cursor, drain: 'stale' };
    if (cursor.notified !== notified) return { cursor, drain: 'stale', notice: { acked: cursor.acked, notified: cursor.notified, reason: 'repeat' } };
    if (cursor.material > cursor.notified) {
      const next = { acked: cursor.notified, notified: cursor.material, material: cursor.material };
      return { cursor: next, drain: 'acked', notice: { acked: next.acked, notified: next.notified, reason: 'reopen' } };
    }
    return { cursor: at(cursor.notified), drain: 'acked' };
  },

  /** The watcher's own reconcile (`status` with `reader`) read (since, through], `through` the head it reached. */
  read(cursor: ModelWatermarks | undefined, since: number, through: number): RuleStep {
    if (cursor === undefined || since > cursor.acked || through <= cursor.acked) return { cursor };
    if (cursor.material > through) {
      const next = { acked: through, notified: cursor.material, material: cursor.material };
      return { cursor: next, notice: { acked: next.acked, notified: next.notified, reason: 'reopen' } };
    }
    return { cursor: at(through) };
  },

  restartScan(cursor: ModelWatermarks | undefined): RuleStep {
    if (cursor === undefined || !isPending(cursor)) return { cursor };
    const next = { ...cursor, notified: cursor.material };
    return { cursor: next, notice: { acked: next.acked, notified: next.notified, reason: 'recovered' } };
  },

  spawn(_cursor: ModelWatermarks | undefined, sequence: number): RuleStep {
    return { cursor: at(sequence) };
  },

  watch(cursor: ModelWatermarks | undefined, head: number): RuleStep {
    return { cursor: cursor ?? at(head) };
  },

  end(): RuleStep {
    return { cursor: undefined };
  },
} as const;

// The one reference model of the facade: SPEC 3-7 restated as plain maps (heads, retained
// events, cursor watermarks, the notice queue, wakes). Its cursor rules are the spec's table
// (noticeRules.ts) and its queue is noticeQueue.ts, both written without the domain's reducers so
// a shared mistake does not hide itself. The facade tests and the reliability batteries drive it
// beside the real facade; the domain's tests check the cursor decider against the same table.
import { NOTICE_RULES, notifiesWatcher, type ModelWatermarks, type RuleStep } from './noticeRules.js';
import { isAgentKey, NoticeQueueModel } from './noticeQueue.js';

/** The facade's background prune interval (SPEC 7: at most hourly after appends). */
const MODEL_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

export interface ModelEvent {
  readonly sessionKey: string;
  readonly sequence: number;
  readonly kind: string;
  readonly actorSessionKey?: string;
  readonly dedupeKey?: string;
  readonly appendedAt: number;
}

export interface ModelSession {
  head: number;
  pruneWatermark: number;
  /** Retained events, sequence ascending. */
  events: ModelEvent[];
}

export interface ModelCursor extends ModelWatermarks {
  /** Clock time of the last change to the cursor (expiry counts from it). */
  readonly touchedAt: number;
}

/** What the model expects a record or spawn to do before the store answers. */
export type AppendExpectation =
  | { readonly type: 'skipped' }
  | { readonly type: 'duplicate'; readonly event: ModelEvent }
  | { readonly type: 'append' };

export interface ModelAppend {
  readonly sessionKey: string;
  readonly kind: string;
  readonly actorSessionKey?: string;
  readonly dedupeKey?: string;
  readonly onlyIfWatched?: boolean;
}

export interface ModelRetention {
  readonly maxAgeMs: number;
  readonly maxRows: number;
}

/** The whole observable state of one facade over one store, advanced call by call. */
export class ReferenceModel {
  readonly sessions = new Map<string, ModelSession>();
  /** watcher -> target -> cursor. */
  readonly cursors = new Map<string, Map<string, ModelCursor>>();
  /** The in-memory notice queue of the facade, and the wakes it caused since the facade (re)started. */
  readonly queue = new NoticeQueueModel();
  /** Clock time the last prune run started (the facade's hourly background schedule). */
  lastPruneStartedAt: number | undefined;
  /** Every sequence ever assigned, with its session, to catch a repeat. */
  readonly assigned = new Map<number, string>();

  constructor(readonly retention: ModelRetention) {}

  session(key: string): ModelSession {
    const session = this.sessions.get(key) ?? { head: 0, pruneWatermark: 0, events: [] };
    this.sessions.set(key, session);
    return session;
  }

  cursor(watcher: string, target: string): ModelCursor | undefined {
    return this.cursors.get(watcher)?.get(target);
  }

  allCursors(): { watcher: string; target: string; cursor: ModelCursor }[] {
    const rows = [...this.cursors].flatMap(([watcher, targets]) => [...targets].map(([target, cursor]) => ({ watcher, target, cursor })));
    return rows.sort((a, b) => (a.watcher < b.watcher ? -1 : a.watcher > b.watcher ? 1 : a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  }

  pendingTexts(watcher: string): string[] {
    return this.queue.of(watcher).map((entry) => entry.text);
  }

  /** Every expected wake since the facade (re)started. */
  get wakes(): readonly string[] {
    return this.queue.wakes;
  }

  /** Applies one row of the notice table to the pair at `now` (a changed cursor is touched). */
  private applyRule(watcher: string, target: string, step: RuleStep, now: number): void {
    const before = this.cursor(watcher, target);
    const after = step.cursor;
    if (after === undefined) {
      if (before !== undefined) this.removeCursor(watcher, target);
    } else if (before === undefined || before.acked !== after.acked || before.notified !== after.notified || before.material !== after.material) {
      const targets = this.cursors.get(watcher) ?? new Map<string, ModelCursor>();
      this.cursors.set(watcher, targets.set(target, { acked: after.acked, notified: after.notified, material: after.material, touchedAt: now }));
    }
    if (step.notice !== undefined) this.queue.offer(watcher, target, step.notice.acked, step.notice.notified);
  }

  /** Removes the pair's cursor and its queued notice: only a pair with a cursor has one, so this is how every notice leaves but a drain. */
  private removeCursor(watcher: string, target: string): void {
    const targets = this.cursors.get(watcher);
    if (targets === undefined) return;
    targets.delete(target);
    if (targets.size === 0) this.cursors.delete(watcher);
    this.queue.remove(watcher, target);
  }

  /** What an append should do, before the store answers. */
  expectAppend(input: ModelAppend): AppendExpectation {
    const existing = input.dedupeKey === undefined ? undefined : [...this.sessions.values()].flatMap((session) => session.events).find((e) => e.dedupeKey === input.dedupeKey);
    if (existing !== undefined) return { type: 'duplicate', event: existing };
    if (input.onlyIfWatched === true && !this.allCursors().some((row) => row.target === input.sessionKey)) return { type: 'skipped' };
    return { type: 'append' };
  }

  /** Applies an append the store made at `sequence`; a problem when the sequence is not new and above the head. */
  applyAppend(input: ModelAppend, sequence: number, now: number, seedWatcher?: string): string | undefined {
    const session = this.session(input.sessionKey);
    let problem: string | undefined;
    if (!(sequence > session.head)) problem = `sequence ${sequence} on ${input.sessionKey} is not above its head ${session.head}`;
    const owner = this.assigned.get(sequence);
    if (owner !== undefined) problem = `sequence ${sequence} on ${input.sessionKey} was already assigned on ${owner}`;
    this.assigned.set(sequence, input.sessionKey);
    session.head = Math.max(session.head, sequence);
    session.events.push({
      sessionKey: input.sessionKey,
      sequence,
      kind: input.kind,
      ...(input.actorSessionKey !== undefined ? { actorSessionKey: input.actorSessionKey } : {}),
      ...(input.dedupeKey !== undefined ? { dedupeKey: input.dedupeKey } : {}),
      appendedAt: now,
    });
    for (const { watcher, target, cursor } of this.allCursors()) {
      if (target !== input.sessionKey || watcher === seedWatcher) continue;
      this.applyRule(watcher, target, NOTICE_RULES.change(cursor, watcher, { ...input, sequence }), now);
    }
    if (seedWatcher !== undefined) {
      this.queue.remove(seedWatcher, input.sessionKey);
      this.applyRule(seedWatcher, input.sessionKey, NOTICE_RULES.spawn(this.cursor(seedWatcher, input.sessionKey), sequence), now);
    }
    return problem;
  }

  /** Whether an append with this outcome starts the hourly background prune (the facade's rule: also when the clock was set back before the last run). */
  appendStartsPrune(now: number): boolean {
    if (this.lastPruneStartedAt === undefined) return true;
    const since = now - this.lastPruneStartedAt;
    return since < 0 || since >= MODEL_PRUNE_INTERVAL_MS;
  }

  /** `sent` with a watch that qualifies: a cursor at the target's head unless the pair has one. */
  watch(watcher: string, target: string, now: number): void {
    this.applyRule(watcher, target, NOTICE_RULES.watch(this.cursor(watcher, target), this.sessions.get(target)?.head ?? 0), now);
  }

  /** Whether `sent` watches (SPEC 4). */
  static sentWatches(input: { senderKey: string; deliveredTo: string; watch: boolean; delivered?: boolean }): boolean {
    return input.watch && input.delivered !== false && input.senderKey !== input.deliveredTo && isAgentKey(input.senderKey) && isAgentKey(input.deliveredTo);
  }

  /** A successful drain: returns the texts consumed, oldest first. */
  drain(watcher: string, now: number): string[] {
    const drained = this.queue.take(watcher);
    for (const entry of drained) {
      this.applyRule(watcher, entry.target, NOTICE_RULES.drain(this.cursor(watcher, entry.target), entry.notified), now);
    }
    return drained.map((entry) => entry.text);
  }

  /** `unwatch`: the pair's cursor and its queued notice go; true when it had a cursor. */
  unwatch(watcher: string, target: string): boolean {
    if (this.cursor(watcher, target) === undefined) return false;
    this.removeCursor(watcher, target);
    return true;
  }

  /** `status` with `reader` whose page reached the head `through`, by the table's `read` row; true when it acknowledged. */
  read(reader: string, target: string, since: number, through: number, now: number): boolean {
    const before = this.cursor(reader, target);
    const step = NOTICE_RULES.read(before, since, through);
    if (before === undefined || step.cursor === undefined || step.cursor.acked === before.acked) return false;
    this.queue.remove(reader, target);
    this.applyRule(reader, target, step, now);
    return true;
  }

  sessionReset(watcher: string): void {
    for (const target of [...(this.cursors.get(watcher)?.keys() ?? [])]) this.removeCursor(watcher, target);
  }

  sessionDeleted(key: string): void {
    for (const { watcher, target } of this.allCursors()) if (watcher === key || target === key) this.removeCursor(watcher, target);
    const session = this.sessions.get(key);
    if (session === undefined) return;
    const last = session.events[session.events.length - 1];
    if (last !== undefined) session.pruneWatermark = Math.max(session.pruneWatermark, last.sequence);
    session.events = [];
  }

  /**
   * A prune run at `now`; `batches` lists the sizes of the store calls that succeeded (omitted: the
   * run completed). Idle cursors expire, with their notices, in the first batch.
   */
  prune(now: number, batches?: readonly number[]): { eventsDeleted: number; cursorsExpired: number } {
    this.lastPruneStartedAt = now;
    if (batches !== undefined && batches.length === 0) return { eventsDeleted: 0, cursorsExpired: 0 };
    // The events a full run deletes, in the order its batches take them: age first, then the row cap.
    const cutoff = now - this.retention.maxAgeMs;
    const retained = [...this.sessions.values()].flatMap((session) => session.events).sort((a, b) => a.sequence - b.sequence);
    const fresh = retained.filter((e) => e.appendedAt >= cutoff);
    const order = [...retained.filter((e) => e.appendedAt < cutoff), ...fresh.slice(0, Math.max(0, fresh.length - this.retention.maxRows))];
    const doomed = batches === undefined ? order : order.slice(0, batches.reduce((sum, size) => sum + size, 0));
    const highest = new Map<string, number>();
    const gone = new Set(doomed);
    for (const event of doomed) highest.set(event.sessionKey, Math.max(highest.get(event.sessionKey) ?? 0, event.sequence));
    for (const [key, sequence] of highest) {
      const session = this.session(key);
      session.events = session.events.filter((e) => !gone.has(e));
      session.pruneWatermark = Math.max(session.pruneWatermark, sequence);
    }
    let cursorsExpired = 0;
    for (const { watcher, target, cursor } of this.allCursors()) {
      if (cursor.touchedAt < cutoff) {
        this.removeCursor(watcher, target);
        cursorsExpired += 1;
      }
    }
    return { eventsDeleted: doomed.length, cursorsExpired };
  }

  /** The facade closed: the in-memory queue and the wakes it caused are gone. */
  stopped(): void {
    this.queue.clear();
  }

  /** A new facade ran the restart scan at `now` (SPEC 5): one notice per pair with material > acked. */
  restartScan(now: number): void {
    this.stopped();
    for (const { watcher, target, cursor } of this.allCursors()) this.applyRule(watcher, target, NOTICE_RULES.restartScan(cursor), now);
  }

  /** Foreign notifying events on `target` above `since` that a watcher must eventually be told about. */
  foreignAbove(watcher: string, target: string, since: number): ModelEvent[] {
    return (this.sessions.get(target)?.events ?? []).filter((e) => e.sequence > since && notifiesWatcher(watcher, e));
  }
}

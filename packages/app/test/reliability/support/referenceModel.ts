// The reference model of the facade for the reliability batteries: SPEC 3-7 restated as plain
// maps (heads, retained events, cursor watermarks, the notice queue, wakes), written
// independently of the domain's reducers so a shared mistake does not hide itself.

// --- spec constants ----------------------------------------------------------------------------

const NOTIFYING_KINDS = new Set(['human_direct_message', 'goal_changed', 'upstream_missing']);
/** The facade's background prune interval (SPEC 7: at most hourly after appends). */
export const MODEL_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/** The exact SPEC 5 notice text. */
export const noticeTextOf = (target: string, acked: number): string =>
  `Session "${target}" changed (other actor). Reconcile before acting: session_status sessionKey "${target}" changesSince ${acked}.`;

const NOTICE_PATTERN = /^Session "(.+)" changed \(other actor\)\. Reconcile before acting: session_status sessionKey "(.+)" changesSince (\d+)\.$/;

/** The target and acked of a notice text, or undefined when it is not one. */
export function parseNotice(text: string): { readonly target: string; readonly acked: number } | undefined {
  const match = NOTICE_PATTERN.exec(text);
  if (match === null || match[1] !== match[2]) return undefined;
  return { target: match[1] as string, acked: Number(match[3]) };
}

const agentParts = (key: string): { agentId: string; rest: string } | undefined => {
  const match = /^agent:([^:]+):(.+)$/.exec(key);
  return match === null ? undefined : { agentId: match[1] as string, rest: match[2] as string };
};
export const isAgentKey = (key: string): boolean => agentParts(key) !== undefined;
const isNested = (key: string): boolean => agentParts(key)?.rest.split(':').includes('subagent') === true;

// --- state -------------------------------------------------------------------------------------

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

export interface ModelCursor {
  acked: number;
  notified: number;
  material: number;
  touchedAt: number;
}

export interface ModelNotice {
  readonly target: string;
  readonly text: string;
  notified: number;
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

const pairOrder = (a: readonly [string, string], b: readonly [string, string]): number =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

// --- the model ---------------------------------------------------------------------------------

/** The whole observable state of one facade over one store, advanced call by call. */
export class ReferenceModel {
  readonly sessions = new Map<string, ModelSession>();
  /** watcher -> target -> cursor. */
  readonly cursors = new Map<string, Map<string, ModelCursor>>();
  /** watcher -> target -> queued notice, in queue order (Map insertion order). */
  queue = new Map<string, Map<string, ModelNotice>>();
  /** Every expected wake since the facade (re)started. */
  wakes: string[] = [];
  /** Clock time the last prune run started (the facade's hourly background schedule). */
  lastPruneStartedAt: number | undefined;
  /** Every sequence ever assigned, with its session, to catch a repeat. */
  readonly assigned = new Map<number, string>();

  constructor(readonly retention: ModelRetention) {}

  // --- reads -----------------------------------------------------------------------------------

  session(key: string): ModelSession {
    let session = this.sessions.get(key);
    if (session === undefined) {
      session = { head: 0, pruneWatermark: 0, events: [] };
      this.sessions.set(key, session);
    }
    return session;
  }

  cursor(watcher: string, target: string): ModelCursor | undefined {
    return this.cursors.get(watcher)?.get(target);
  }

  allCursors(): Array<{ watcher: string; target: string; cursor: ModelCursor }> {
    const rows: Array<{ watcher: string; target: string; cursor: ModelCursor }> = [];
    for (const [watcher, targets] of this.cursors) for (const [target, cursor] of targets) rows.push({ watcher, target, cursor });
    return rows.sort((a, b) => pairOrder([a.watcher, a.target], [b.watcher, b.target]));
  }

  pendingTexts(watcher: string): string[] {
    return [...(this.queue.get(watcher)?.values() ?? [])].map((n) => n.text);
  }

  /** Retained events of all sessions in append (sequence) order. */
  retainedInOrder(): ModelEvent[] {
    const all: ModelEvent[] = [];
    for (const session of this.sessions.values()) all.push(...session.events);
    return all.sort((a, b) => a.sequence - b.sequence);
  }

  findByDedupeKey(dedupeKey: string): ModelEvent | undefined {
    for (const session of this.sessions.values()) {
      const found = session.events.find((e) => e.dedupeKey === dedupeKey);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  // --- the notice queue ------------------------------------------------------------------------

  /** SPEC 5: the same text for the pair coalesces (only `notified` refreshes); anything else is a new entry at the back, and wakes. */
  offer(watcher: string, target: string, acked: number, notified: number): void {
    const text = noticeTextOf(target, acked);
    let pairs = this.queue.get(watcher);
    if (pairs === undefined) {
      pairs = new Map();
      this.queue.set(watcher, pairs);
    }
    const current = pairs.get(target);
    if (current !== undefined && current.text === text) {
      current.notified = notified;
      return;
    }
    pairs.delete(target);
    pairs.set(target, { target, text, notified });
    if (!isNested(watcher)) this.wakes.push(watcher);
  }

  private unqueue(watcher: string, target: string): void {
    const pairs = this.queue.get(watcher);
    if (pairs === undefined) return;
    pairs.delete(target);
    if (pairs.size === 0) this.queue.delete(watcher);
  }

  private removeCursor(watcher: string, target: string): void {
    const targets = this.cursors.get(watcher);
    if (targets === undefined) return;
    targets.delete(target);
    if (targets.size === 0) this.cursors.delete(watcher);
    this.unqueue(watcher, target);
  }

  private putCursor(watcher: string, target: string, cursor: ModelCursor): void {
    let targets = this.cursors.get(watcher);
    if (targets === undefined) {
      targets = new Map();
      this.cursors.set(watcher, targets);
    }
    targets.set(target, cursor);
  }

  // --- writes ----------------------------------------------------------------------------------

  /** What an append should do, before the store answers. */
  expectAppend(input: ModelAppend): AppendExpectation {
    if (input.dedupeKey !== undefined) {
      const existing = this.findByDedupeKey(input.dedupeKey);
      if (existing !== undefined) return { type: 'duplicate', event: existing };
    }
    if (input.onlyIfWatched === true) {
      const watched = this.allCursors().some((row) => row.target === input.sessionKey);
      if (!watched) return { type: 'skipped' };
    }
    return { type: 'append' };
  }

  /**
   * Applies an append the store made at `sequence`. `seedWatcher` is the spawn-edge parent.
   * Returns a problem when the sequence is not above the session's head or was used before.
   */
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
      if (!NOTIFYING_KINDS.has(input.kind) || input.actorSessionKey === watcher) continue;
      if (cursor.material <= cursor.acked) {
        if (sequence <= cursor.acked) continue;
        cursor.notified = sequence;
        cursor.material = sequence;
        cursor.touchedAt = now;
        this.offer(watcher, target, cursor.acked, cursor.notified);
      } else {
        if (sequence > cursor.material) {
          cursor.material = sequence;
          cursor.touchedAt = now;
        }
        this.offer(watcher, target, cursor.acked, cursor.notified);
      }
    }
    if (seedWatcher !== undefined) {
      this.putCursor(seedWatcher, input.sessionKey, { acked: sequence, notified: sequence, material: sequence, touchedAt: now });
      this.unqueue(seedWatcher, input.sessionKey);
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
    if (this.cursor(watcher, target) !== undefined) return;
    const head = this.sessions.get(target)?.head ?? 0;
    this.putCursor(watcher, target, { acked: head, notified: head, material: head, touchedAt: now });
  }

  /** Whether `sent` watches (SPEC 4). */
  static sentWatches(input: { senderKey: string; deliveredTo: string; watch: boolean; delivered?: boolean }): boolean {
    return input.watch && input.delivered !== false && input.senderKey !== input.deliveredTo && isAgentKey(input.senderKey) && isAgentKey(input.deliveredTo);
  }

  /** A successful drain: returns the texts consumed, oldest first. */
  drain(watcher: string, now: number): string[] {
    const drained = [...(this.queue.get(watcher)?.values() ?? [])];
    if (drained.length === 0) return [];
    const offers: Array<[number, number, string]> = [];
    for (const entry of drained) {
      const cursor = this.cursor(watcher, entry.target);
      if (cursor === undefined || cursor.material <= cursor.acked) continue;
      if (cursor.notified !== entry.notified) {
        offers.push([cursor.acked, cursor.notified, entry.target]);
        continue;
      }
      cursor.acked = cursor.notified;
      cursor.touchedAt = now;
      if (cursor.material > cursor.notified) {
        cursor.notified = cursor.material;
        offers.push([cursor.acked, cursor.notified, entry.target]);
      }
    }
    for (const entry of drained) this.unqueue(watcher, entry.target);
    for (const [acked, notified, target] of offers) this.offer(watcher, target, acked, notified);
    return drained.map((entry) => entry.text);
  }

  sessionReset(watcher: string): void {
    for (const target of [...(this.cursors.get(watcher)?.keys() ?? [])]) this.removeCursor(watcher, target);
    this.queue.delete(watcher);
  }

  sessionDeleted(key: string): void {
    for (const { watcher, target } of this.allCursors()) if (watcher === key || target === key) this.removeCursor(watcher, target);
    this.queue.delete(key);
    for (const watcher of [...this.queue.keys()]) this.unqueue(watcher, key);
    const session = this.sessions.get(key);
    if (session === undefined) return;
    const last = session.events[session.events.length - 1];
    if (last !== undefined) session.pruneWatermark = Math.max(session.pruneWatermark, last.sequence);
    session.events = [];
  }

  /** Events a full prune run at `now` deletes, in the order the batches take them (age first, then the row cap). */
  pruneOrder(now: number): ModelEvent[] {
    const cutoff = now - this.retention.maxAgeMs;
    const retained = this.retainedInOrder();
    const aged = retained.filter((e) => e.appendedAt < cutoff);
    const fresh = retained.filter((e) => e.appendedAt >= cutoff);
    const overCap = Math.max(0, fresh.length - this.retention.maxRows);
    return [...aged, ...fresh.slice(0, overCap)];
  }

  /**
   * A prune run at `now`. `batches` lists the sizes of the store calls that succeeded (the
   * facade may size them by time); omitted, the run completed. Each batch deletes the next
   * events of `pruneOrder`; cursors idle beyond the age limit expire in the first batch, with
   * their notices.
   */
  prune(now: number, batches?: readonly number[]): { eventsDeleted: number; cursorsExpired: number } {
    this.lastPruneStartedAt = now;
    if (batches !== undefined && batches.length === 0) return { eventsDeleted: 0, cursorsExpired: 0 };
    const order = this.pruneOrder(now);
    const doomed = batches === undefined ? order : order.slice(0, batches.reduce((sum, size) => sum + size, 0));
    const highest = new Map<string, number>();
    const gone = new Set(doomed);
    for (const event of doomed) highest.set(event.sessionKey, Math.max(highest.get(event.sessionKey) ?? 0, event.sequence));
    for (const [key, sequence] of highest) {
      const session = this.session(key);
      session.events = session.events.filter((e) => !gone.has(e));
      session.pruneWatermark = Math.max(session.pruneWatermark, sequence);
    }
    const cutoff = now - this.retention.maxAgeMs;
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
    this.queue = new Map();
    this.wakes = [];
  }

  /** A new facade ran the restart scan at `now` (SPEC 5): one notice per pair with material > acked. */
  restartScan(now: number): void {
    this.stopped();
    for (const { watcher, target, cursor } of this.allCursors()) {
      if (cursor.material <= cursor.acked) continue;
      if (cursor.notified !== cursor.material) {
        cursor.notified = cursor.material;
        cursor.touchedAt = now;
      }
      this.offer(watcher, target, cursor.acked, cursor.notified);
    }
  }

  /** Foreign notifying events on `target` above `since` that a watcher must eventually be told about. */
  foreignAbove(watcher: string, target: string, since: number): ModelEvent[] {
    return (this.sessions.get(target)?.events ?? []).filter(
      (e) => e.sequence > since && NOTIFYING_KINDS.has(e.kind) && e.actorSessionKey !== watcher,
    );
  }
}

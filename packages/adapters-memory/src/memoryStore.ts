// The in-memory StateStore: the whole store port over plain Maps and arrays, for tests and for
// gateways that need no durability. Every rule comes from the domain (planAppend and the cursor
// planners, evolveHead); this file only indexes state, keeps the cursor journal, and commits
// each operation in one step.
import {
  assertAppendRequest,
  assertStoreKey,
  asSequence,
  comparePairs,
  evolveHead,
  initialHead,
  isStoreError,
  noticeText,
  overviewOf,
  planAppend,
  planDrain,
  planHeldNotices,
  planJournalPrune,
  planPruneMaterial,
  planAcknowledgeRead,
  planRemoval,
  planRestartScan,
  planWatch,
  storeError,
  toSessionEvent,
  toStoredEvent,
  type AppendOutcome,
  type AppendPlan,
  type AppendRequest,
  type ChangesPage,
  type CursorFilter,
  type CursorJournalEntry,
  type CursorJournalRecord,
  type CursorPair,
  type CursorRow,
  type DrainAck,
  type DrainOutcome,
  type EndReason,
  type HeadRow,
  type JsonValue,
  type Notice,
  type Payload,
  type PruneBatch,
  type PrunePreview,
  type PruneRequest,
  type PrunedSession,
  type Sequence,
  type SessionChangesPage,
  type SessionKey,
  type SignalLogHead,
  type StateStore,
  type StoredEvent,
  type WatchRequest,
} from '@session-state/domain';

import { forEachInSlices, sortInSlices, turnBudget } from './slices.js';

// --- state ---------------------------------------------------------------------------------

/** One session: its durable head (kept as a tombstone after delete) and retained events, sequence ascending. */
interface SessionState {
  head: SignalLogHead;
  events: StoredEvent[];
}

type CursorIndex = Map<SessionKey, Map<SessionKey, CursorRow>>;

const NO_CURSORS: readonly CursorRow[] = [];
const NO_NOTICES: readonly Notice[] = [];
const NO_JOURNAL: readonly CursorJournalRecord[] = [];
const NO_EVENTS: readonly StoredEvent[] = [];
const SKIPPED: AppendOutcome = { type: 'skipped', reason: 'unwatched' };

// Compact the global append-order queue once this many dead entries pile up at its front.
const COMPACT_AFTER = 4096;


function invalid(field: string, value: unknown, expected: string): Error {
  return new RangeError(`invalid ${field}: expected ${expected}, got ${String(value)}`);
}

function checkInteger(field: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw invalid(field, value, min === 0 ? 'a non-negative safe integer' : `a safe integer ≥ ${min}`);
  }
}

/**
 * A clock reading as every store keeps and compares it: whole milliseconds, floored (the clock
 * port may answer with a fraction, e.g. performance.timeOrigin + performance.now()).
 */
/** Pending cursors the restart scan plans and commits at a time (a fraction of a millisecond's work). */
export const RESTART_SCAN_CHUNK = 100;

function clockMs(field: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, value, 'finite epoch milliseconds');
  return Math.floor(value);
}

/**
 * A stored copy of the payload, so later mutation by the caller cannot change the log (and an
 * unserialisable one fails like in SQLite). The copy is frozen, because reads and results hand
 * out the stored object itself (copying on every read would cost the hot path).
 */
function clonePayload(payload: Payload): Payload {
  const flat = flatCopy(payload);
  if (flat !== undefined) return Object.freeze(flat);
  return deepFreeze(JSON.parse(JSON.stringify(payload)) as Payload);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const nested of Object.values(value)) deepFreeze(nested);
    Object.freeze(value);
  }
  return value;
}

/**
 * The usual payload is one plain level of strings, finite numbers, booleans and nulls: copied
 * key by key, that is what the JSON round trip would give, without building and parsing text.
 * Undefined for anything else (nesting, toJSON, odd prototypes), which takes the round trip.
 */
function flatCopy(payload: Payload): Payload | undefined {
  if (Object.getPrototypeOf(payload) !== Object.prototype) return undefined;
  const copy: Record<string, JsonValue> = {};
  // Object.keys: own enumerable keys in JSON.stringify's order.
  for (const key of Object.keys(payload)) {
    // Assigning it would set the copy's prototype; the round trip keeps it as a plain key.
    if (key === '__proto__') return undefined;
    let value = payload[key];
    switch (typeof value) {
      case 'string':
      case 'boolean':
        break;
      case 'number':
        if (!Number.isFinite(value)) return undefined;
        if (value === 0) value = 0; // -0 becomes 0, as JSON text has no negative zero.
        break;
      default:
        if (value !== null) return undefined;
    }
    copy[key] = value as JsonValue;
  }
  return copy;
}

// --- the store -----------------------------------------------------------------------------

/** The memory store: a StateStore whose state lives in this process only. */
export type MemoryStore = StateStore;

/**
 * Creates an empty in-memory StateStore. One global counter assigns sequences; each method
 * computes its whole effect first and then commits it, so a thrown error changes nothing.
 * After `close()` every method rejects with a StoreError naming the operation.
 *
 * @example const store = createMemoryStore(); const awareness = await createSessionStateAwareness({ store });
 */
export function createMemoryStore(): MemoryStore {
  let closed = false;
  let lastSequence = 0;
  /** Retained events across all sessions. */
  let rowCount = 0;
  const sessions = new Map<SessionKey, SessionState>();
  const dedupe = new Map<string, StoredEvent>();
  const byTarget: CursorIndex = new Map();
  const byWatcher: CursorIndex = new Map();
  // Every appended event in sequence (= append) order; deleted ones stay until skipped past.
  let order: StoredEvent[] = [];
  let orderStart = 0;
  const removed = new Set<StoredEvent>();
  // While append times never went backwards along `order`, the age scan may stop at the first fresh event.
  let appendTimesAscending = true;
  let lastAppendedAt = Number.NEGATIVE_INFINITY;

  // Date#toISOString dominates an append; appends in one millisecond share the string.
  let isoMs = Number.NaN;
  let isoText = '';

  // At or below every cursor's touchedAt (lowered by each write, made exact by prune's read of
  // them all): prune reads the cursors for idle ones only when this is below its cutoff.
  let touchedFloor = Number.POSITIVE_INFINITY;

  // The cursor journal in position order; positions are never reused.
  const journal: CursorJournalEntry[] = [];
  // Each pair's latest journal position, so a retention batch reads only its window of the journal.
  const latestJournal = new Map<SessionKey, Map<SessionKey, number>>();
  let nextPosition = 1;

  // --- helpers ---------------------------------------------------------------------------

  /** The default occurredAt (the append time as ISO), exactly what planAppend would compute. */
  function isoOf(ms: number): string {
    if (ms !== isoMs) {
      isoText = new Date(ms).toISOString();
      isoMs = ms;
    }
    return isoText;
  }

  function guarded<T>(operation: string, body: () => T): Promise<T> {
    try {
      if (closed) throw new Error(`the memory store is closed (${operation})`);
      return Promise.resolve(body());
    } catch (cause) {
      return Promise.reject(isStoreError(cause) ? cause : storeError(operation, cause));
    }
  }

  /** As `guarded`, for work that runs in slices (see slices.ts): a store closed between slices fails it. */
  async function guardedInSlices<T>(operation: string, body: () => Promise<T>): Promise<T> {
    try {
      if (closed) throw new Error(`the memory store is closed (${operation})`);
      return await body();
    } catch (cause) {
      throw isStoreError(cause) ? cause : storeError(operation, cause);
    }
  }

  /**
   * The restart scan in slices (a million cursors never block the event loop for long): the
   * pending pairs, collected and ordered by pair, then planned and committed RESTART_SCAN_CHUNK
   * at a time from their rows as they are then, so a cursor changed between slices is planned as
   * it is (one no longer pending gives nothing). Each cursor's scan step depends on that cursor
   * alone, so the slices give the rows, journal and notices (in pair order) one pass would.
   */
  async function restartScanInSlices(now: number, owns: ((watcher: SessionKey) => boolean) | undefined): Promise<readonly Notice[]> {
    const budget = turnBudget();
    const pending: CursorRow[] = [];
    await forEachInSlices(
      byWatcher,
      ([watcher, rows]) => {
        if (owns !== undefined && !owns(watcher)) return;
        for (const row of rows.values()) if (row.material > row.acked) pending.push(row);
      },
      budget,
    );
    const ordered = await sortInSlices(pending, comparePairs, budget);
    const notices: Notice[] = [];
    for (let start = 0; start < ordered.length; start += RESTART_SCAN_CHUNK) {
      if (closed) throw new Error('the memory store is closed (restartScan)');
      const cursors: CursorRow[] = [];
      for (const pair of ordered.slice(start, start + RESTART_SCAN_CHUNK)) {
        const row = byWatcher.get(pair.watcher)?.get(pair.target);
        if (row !== undefined) cursors.push(row);
      }
      const plan = planRestartScan({ cursors, ...(owns !== undefined ? { owns } : {}), now });
      commitPlan(plan);
      for (const notice of plan.notices) notices.push(notice);
      if (budget.spent()) await budget.yieldTurn();
    }
    return notices;
  }

  function putIndexed(index: CursorIndex, outer: SessionKey, inner: SessionKey, row: CursorRow): void {
    const rows = index.get(outer);
    if (rows === undefined) index.set(outer, new Map([[inner, row]]));
    else rows.set(inner, row);
  }

  function deleteIndexed(index: CursorIndex, outer: SessionKey, inner: SessionKey): void {
    const rows = index.get(outer);
    if (rows === undefined) return;
    rows.delete(inner);
    if (rows.size === 0) index.delete(outer);
  }

  function putCursor(row: CursorRow): void {
    if (row.touchedAt < touchedFloor) touchedFloor = row.touchedAt;
    putIndexed(byTarget, row.target, row.watcher, row);
    putIndexed(byWatcher, row.watcher, row.target, row);
  }

  function removeCursor(pair: CursorPair): void {
    deleteIndexed(byTarget, pair.target, pair.watcher);
    deleteIndexed(byWatcher, pair.watcher, pair.target);
  }

  function appendJournal(records: readonly CursorJournalRecord[]): void {
    for (const record of records) {
      journal.push({ ...record, position: nextPosition });
      const latest = latestJournal.get(record.watcher);
      if (latest === undefined) latestJournal.set(record.watcher, new Map([[record.target, nextPosition]]));
      else latest.set(record.target, nextPosition);
      nextPosition += 1;
    }
  }

  /**
   * Deletes the journal entries at `positions` (all within one retention window): the entries
   * from the first of them are moved down over the gaps, then the gap left at the window's end is
   * cut once, and a deleted entry that was its pair's latest leaves the index.
   */
  function deleteJournalEntries(positions: readonly number[]): void {
    if (positions.length === 0) return;
    const gone = new Set(positions);
    let write = indexOfPosition(positions.reduce((lowest, position) => Math.min(lowest, position), Number.POSITIVE_INFINITY));
    let read = write;
    for (let seen = 0; read < journal.length && seen < gone.size; read++) {
      const entry = journal[read] as CursorJournalEntry;
      if (!gone.has(entry.position)) {
        journal[write++] = entry;
        continue;
      }
      seen += 1;
      const latest = latestJournal.get(entry.watcher);
      if (latest?.get(entry.target) === entry.position) {
        latest.delete(entry.target);
        if (latest.size === 0) latestJournal.delete(entry.watcher);
      }
    }
    journal.splice(write, read - write);
  }

  /** The index of the first journal entry at or above `position` (binary search: positions ascend). */
  function indexOfPosition(position: number): number {
    let low = 0;
    let high = journal.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((journal[middle] as CursorJournalEntry).position >= position) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** Commits a cursor plan: its rows, then its journal entries. */
  function commitPlan(plan: { readonly cursorWrites: readonly CursorRow[]; readonly journal: readonly CursorJournalRecord[] }): void {
    for (const row of plan.cursorWrites) putCursor(row);
    appendJournal(plan.journal);
  }

  /** Removes the planned pairs' cursors and journals their end. */
  function commitRemoval(rows: readonly CursorRow[], reason: EndReason, now: number): CursorPair[] {
    const plan = planRemoval({ cursors: rows, reason, now });
    for (const pair of plan.removed) removeCursor(pair);
    appendJournal(plan.journal);
    return [...plan.removed];
  }

  /** Forgets removed events: drops them from the dedupe index and the row count. */
  function forgetEvents(events: readonly StoredEvent[]): void {
    for (const event of events) {
      removed.add(event);
      if (event.dedupeKey !== undefined && dedupe.get(event.dedupeKey) === event) dedupe.delete(event.dedupeKey);
    }
    rowCount -= events.length;
    compactOrder();
  }

  function compactOrder(): void {
    if (rowCount === 0) {
      // Nothing retained: start the queue afresh (this also forgets any backwards clock step).
      order = [];
      orderStart = 0;
      removed.clear();
      appendTimesAscending = true;
      lastAppendedAt = Number.NEGATIVE_INFINITY;
      return;
    }
    while (orderStart < order.length) {
      const first = order[orderStart] as StoredEvent;
      if (!removed.delete(first)) break;
      orderStart += 1;
    }
    if (removed.size > COMPACT_AFTER && removed.size * 2 > order.length - orderStart) {
      order = order.slice(orderStart).filter((event) => !removed.has(event));
      orderStart = 0;
      removed.clear();
    } else if (orderStart > COMPACT_AFTER && orderStart * 2 > order.length) {
      order = order.slice(orderStart);
      orderStart = 0;
    }
  }

  // --- append ----------------------------------------------------------------------------

  function appendOne(request: AppendRequest): AppendOutcome {
    // The same key checks as the SQL stores, which could not keep an ill-formed key exactly.
    assertAppendRequest(request);
    const { command } = request;
    if (command.dedupeKey !== undefined) {
      const existing = dedupe.get(command.dedupeKey);
      if (existing !== undefined) return { type: 'duplicate', event: existing };
    }
    const onTarget = byTarget.get(command.sessionKey);
    if (command.onlyIfWatched && onTarget === undefined) return SKIPPED;
    const appendedAt = clockMs('appendedAt', request.appendedAt);

    // Compute: everything that may throw happens before the first write.
    const session = sessions.get(command.sessionKey);
    const head = session === undefined ? initialHead : session.head;
    const sequence = asSequence((lastSequence > head.head ? lastSequence : head.head) + 1);
    const payload = command.payload === undefined ? undefined : clonePayload(command.payload);
    const occurredAt = command.occurredAt ?? isoOf(appendedAt);
    // planAppend owns the cursor rules; with no cursor on the target and no spawn edge it has
    // nothing to decide, and the event is built here directly.
    let plan: AppendPlan;
    if (onTarget === undefined && request.seedWatcher === undefined) {
      plan = { event: toStoredEvent(command, sequence, appendedAt, occurredAt, payload), cursorWrites: NO_CURSORS, journal: NO_JOURNAL, notices: NO_NOTICES };
    } else {
      // The store's own copy of the payload in place of the command's (equal to it; payloadJson is
      // unchanged), passed beside the command rather than spread into a copy of it.
      plan = planAppend({
        command,
        sequence,
        appendedAt,
        occurredAt,
        payload,
        cursorsOnTarget: onTarget === undefined ? NO_CURSORS : Array.from(onTarget.values()),
        seedWatcher: request.seedWatcher,
        noticeText,
      });
    }
    const nextHead = evolveHead(head, { type: 'appended', sequence });

    // Commit.
    const event = plan.event;
    lastSequence = sequence;
    if (session === undefined) sessions.set(command.sessionKey, { head: nextHead, events: [event] });
    else {
      session.head = nextHead;
      session.events.push(event);
    }
    order.push(event);
    if (appendedAt < lastAppendedAt) appendTimesAscending = false;
    lastAppendedAt = appendedAt;
    rowCount += 1;
    if (event.dedupeKey !== undefined) dedupe.set(event.dedupeKey, event);
    commitPlan(plan);
    return { type: 'appended', event, notices: plan.notices };
  }

  /** One request of a batch: a request that fails alone is a `failed` outcome. */
  function appendOrFail(request: AppendRequest): AppendOutcome {
    try {
      return appendOne(request);
    } catch (cause) {
      return { type: 'failed', error: storeError('append', cause) };
    }
  }

  // --- retention -------------------------------------------------------------------------

  function pruneBatch(request: PruneRequest): PruneBatch {
    const now = clockMs('now', request.now);
    checkInteger('maxAgeMs', request.maxAgeMs, 0);
    checkInteger('maxRows', request.maxRows, 0);
    checkInteger('batchSize', request.batchSize, 1);
    if (request.cursorMaxAgeMs !== undefined) checkInteger('cursorMaxAgeMs', request.cursorMaxAgeMs, 0);
    if (request.journalAfter !== undefined) checkInteger('journalAfter', request.journalAfter, 0);
    const cutoff = now - request.maxAgeMs;
    const cursorCutoff = now - (request.cursorMaxAgeMs ?? request.maxAgeMs);
    const doomed: StoredEvent[] = [];
    const doomedSet = new Set<StoredEvent>();

    // Age first: every retained event appended before the cutoff. After the clock moved
    // backwards append times no longer follow sequence order, so the whole queue is scanned.
    let moreAged = false;
    for (let i = orderStart; i < order.length; i++) {
      const event = order[i] as StoredEvent;
      if (event.appendedAt >= cutoff) {
        if (appendTimesAscending) break;
        continue;
      }
      if (removed.has(event)) continue;
      if (doomed.length === request.batchSize) {
        moreAged = true;
        break;
      }
      doomed.push(event);
      doomedSet.add(event);
    }
    // Then the row cap: the earliest-appended (lowest sequence) events across all sessions.
    let remaining = rowCount - doomed.length;
    for (let i = orderStart; i < order.length && remaining > request.maxRows && doomed.length < request.batchSize; i++) {
      const event = order[i] as StoredEvent;
      if (removed.has(event) || doomedSet.has(event)) continue;
      doomed.push(event);
      doomedSet.add(event);
      remaining -= 1;
    }

    // Commit events: each affected session loses them and raises its prune watermark.
    const affected = new Map<SessionKey, { highestDeleted: Sequence; count: number }>();
    for (const event of doomed) {
      const seen = affected.get(event.sessionKey);
      if (seen === undefined) affected.set(event.sessionKey, { highestDeleted: event.sequence, count: 1 });
      else {
        seen.count += 1;
        if (event.sequence > seen.highestDeleted) seen.highestDeleted = event.sequence;
      }
    }
    const pruned: PrunedSession[] = [];
    for (const [sessionKey, { highestDeleted, count }] of affected) {
      const session = sessions.get(sessionKey) as SessionState;
      // Usually the doomed events are the session's oldest: cut the prefix, else filter.
      let prefix = 0;
      while (prefix < session.events.length && doomedSet.has(session.events[prefix] as StoredEvent)) prefix += 1;
      if (prefix === count) session.events.splice(0, prefix);
      else session.events = session.events.filter((event) => !doomedSet.has(event));
      const before = session.head.pruneWatermark;
      session.head = evolveHead(session.head, { type: 'pruned', highestDeleted });
      pruned.push({ sessionKey, before, after: session.head.pruneWatermark });
    }
    forgetEvents(doomed);

    // Idle cursors expire by their own age limit (cursorMaxAgeMs, else the log's). The cursors are
    // read only when one may be idle that long: a batch of a run that walks the journal in windows
    // would otherwise read every cursor again each batch.
    const expiring: CursorRow[] = [];
    if (touchedFloor < cursorCutoff) {
      let floor = Number.POSITIVE_INFINITY;
      for (const rows of byWatcher.values()) {
        for (const row of rows.values()) {
          if (row.touchedAt < cursorCutoff) expiring.push(row);
          else if (row.touchedAt < floor) floor = row.touchedAt;
        }
      }
      touchedFloor = floor;
    }
    const expiredCursors = commitRemoval(expiring, 'expired', request.now);

    // The pending cursors whose material the pruned events set keep it in the journal.
    const onPruned: CursorRow[] = [];
    for (const { sessionKey } of pruned) for (const row of byTarget.get(sessionKey)?.values() ?? NO_CURSORS) onPruned.push(row);
    appendJournal(planPruneMaterial({ pruned, cursors: onPruned, now: request.now }).journal);

    // The journal follows the log's retention, keeping the latest entry of every live pair.
    const journalPrune = planJournalPrune({
      entries: journal,
      isLive: (watcher, target) => byWatcher.get(watcher)?.has(target) === true,
      cutoff,
      maxRows: request.maxRows,
      batchSize: request.batchSize,
      after: request.journalAfter ?? 0,
      latestOf: (watcher, target) => latestJournal.get(watcher)?.get(target),
    });
    deleteJournalEntries(journalPrune.positions);

    return {
      eventsDeleted: doomed.length,
      expiredCursors,
      done: !moreAged && remaining <= request.maxRows && journalPrune.done,
      journalAfter: journalPrune.journalAfter,
    };
  }

  /** What pruneBatch run to completion would delete and expire: counted, nothing changed. */
  function previewPrune(request: PruneRequest): PrunePreview {
    const now = clockMs('now', request.now);
    const cutoff = now - request.maxAgeMs;
    const cursorCutoff = now - (request.cursorMaxAgeMs ?? request.maxAgeMs);
    let aged = 0;
    for (let i = orderStart; i < order.length; i++) {
      const event = order[i] as StoredEvent;
      if (!removed.has(event) && event.appendedAt < cutoff) aged += 1;
    }
    let cursorsToExpire = 0;
    for (const rows of byWatcher.values()) for (const row of rows.values()) if (row.touchedAt < cursorCutoff) cursorsToExpire += 1;
    return { eventsToDelete: aged + Math.max(0, rowCount - aged - request.maxRows), cursorsToExpire };
  }

  // --- the restart scan and held notices ----------------------------------------------------

  /** Every pending cursor (material > acked) whose watcher passes `owns`. */
  function pendingByWatcher(owns: ((watcher: SessionKey) => boolean) | undefined): CursorRow[] {
    const pending: CursorRow[] = [];
    for (const [watcher, rows] of byWatcher) {
      if (owns !== undefined && !owns(watcher)) continue;
      for (const row of rows.values()) if (row.material > row.acked) pending.push(row);
    }
    return pending;
  }

  /** The pending cursors on `targets` only (each target once, however often it is listed), by the target index. */
  function pendingOnTargets(targets: readonly SessionKey[], owns: ((watcher: SessionKey) => boolean) | undefined): CursorRow[] {
    const pending: CursorRow[] = [];
    for (const target of new Set(targets)) {
      for (const row of byTarget.get(target)?.values() ?? NO_CURSORS) {
        if (row.material > row.acked && (owns === undefined || owns(row.watcher))) pending.push(row);
      }
    }
    return pending;
  }

  // --- reads -----------------------------------------------------------------------------

  /** Retained events of the session after `since` (binary search), at most `limit`, with its head. */
  function readPage(sessionKey: SessionKey, since: Sequence, limit: number): ChangesPage {
    checkInteger('since', since, 0);
    checkInteger('limit', limit, 1);
    const session = sessions.get(sessionKey);
    const events = session === undefined ? NO_EVENTS : session.events;
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((events[mid] as StoredEvent).sequence <= since) lo = mid + 1;
      else hi = mid;
    }
    return {
      head: session === undefined ? initialHead : session.head,
      events: events.slice(lo, lo + limit),
      hasMore: lo + limit < events.length,
    };
  }

  // --- the port --------------------------------------------------------------------------

  /** Every head row above 0, by session key. */
  function allHeads(): HeadRow[] {
    return [...sessions.entries()]
      .filter(([, session]) => session.head.head > 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([sessionKey, session]) => ({ sessionKey, ...session.head }));
  }

  /** Every cursor, by watcher then target. */
  function allCursors(): CursorRow[] {
    const rows: CursorRow[] = [];
    for (const targets of byWatcher.values()) for (const row of targets.values()) rows.push(row);
    return rows.sort(comparePairs);
  }

  return {
    // As `guarded`, written out: an append builds no closure per call.
    append: (batch) => {
      try {
        if (closed) throw new Error('the memory store is closed (append)');
        return Promise.resolve(batch.map(appendOrFail));
      } catch (cause) {
        return Promise.reject(isStoreError(cause) ? cause : storeError('append', cause));
      }
    },

    watch: (request: WatchRequest) =>
      guarded('watch', () => {
        assertStoreKey('watcher', request.watcher);
        assertStoreKey('target', request.target);
        const now = clockMs('now', request.now);
        const plan = planWatch({
          request: { ...request, now },
          existing: byWatcher.get(request.watcher)?.get(request.target),
          head: sessions.get(request.target)?.head.head ?? initialHead.head,
        });
        commitPlan(plan);
        return { created: plan.created };
      }),

    readChanges: (sessionKey, since, limit) => guarded('readChanges', () => readPage(sessionKey, since, limit)),

    readSessionChanges: (sessionKey, since, limit) =>
      guarded('readSessionChanges', (): SessionChangesPage => {
        const page = readPage(sessionKey, since, limit);
        return { head: page.head, events: page.events.map(toSessionEvent), hasMore: page.hasMore };
      }),

    readHeads: (sessionKeys) =>
      guarded('readHeads', (): readonly HeadRow[] => {
        if (sessionKeys === undefined) return allHeads();
        const rows: HeadRow[] = [];
        const seen = new Set<SessionKey>();
        for (const sessionKey of sessionKeys) {
          if (seen.has(sessionKey)) continue;
          seen.add(sessionKey);
          const session = sessions.get(sessionKey);
          if (session !== undefined && session.head.head > 0) rows.push({ sessionKey, ...session.head });
        }
        return rows;
      }),

    listCursors: (filter?: CursorFilter) =>
      guarded('listCursors', (): readonly CursorRow[] => {
        let rows: CursorRow[];
        if (filter?.watcher !== undefined) {
          rows = Array.from(byWatcher.get(filter.watcher)?.values() ?? []);
          if (filter.target !== undefined) rows = rows.filter((row) => row.target === filter.target);
        } else if (filter?.target !== undefined) {
          rows = Array.from(byTarget.get(filter.target)?.values() ?? []);
        } else {
          return allCursors();
        }
        return rows.sort(comparePairs);
      }),

    readOverview: (limits) => guarded('readOverview', () => overviewOf(allHeads(), allCursors(), limits)),

    readCursorJournal: (filter?: CursorFilter) =>
      guarded('readCursorJournal', (): readonly CursorJournalEntry[] =>
        journal.filter(
          (entry) => (filter?.watcher === undefined || entry.watcher === filter.watcher) && (filter?.target === undefined || entry.target === filter.target),
        ),
      ),

    drain: (watcher, acks: readonly DrainAck[], clockNow) =>
      guarded('drain', (): readonly DrainOutcome[] => {
        assertStoreKey('watcher', watcher);
        const now = clockMs('now', clockNow);
        const rows = byWatcher.get(watcher);
        const cursors: CursorRow[] = [];
        for (const ack of acks) {
          const row = rows?.get(ack.target);
          if (row !== undefined) cursors.push(row);
        }
        const plan = planDrain({ watcher, acks, cursors, now });
        commitPlan(plan);
        return plan.outcomes;
      }),

    restartScan: (clockNow, owns) => guardedInSlices('restartScan', () => restartScanInSlices(clockMs('now', clockNow), owns)),

    pendingNotices: (owns, targets) =>
      guarded('pendingNotices', (): readonly Notice[] =>
        planHeldNotices({
          cursors: targets === undefined ? pendingByWatcher(owns) : pendingOnTargets(targets, owns),
          ...(owns !== undefined ? { owns } : {}),
          ...(targets !== undefined ? { targets } : {}),
        }),
      ),

    countPendingCursors: () => guarded('countPendingCursors', (): number => pendingByWatcher(undefined).length),

    acknowledgeRead: (request) =>
      guarded('acknowledgeRead', () => {
        assertStoreKey('watcher', request.watcher);
        assertStoreKey('target', request.target);
        const now = clockMs('now', request.now);
        const plan = planAcknowledgeRead({ request: { ...request, now }, existing: byWatcher.get(request.watcher)?.get(request.target) });
        commitPlan(plan);
        return plan.outcome;
      }),

    unwatch: (watcher, target, clockNow) =>
      guarded('unwatch', () => {
        assertStoreKey('watcher', watcher);
        assertStoreKey('target', target);
        const now = clockMs('now', clockNow);
        const row = byWatcher.get(watcher)?.get(target);
        return { removed: commitRemoval(row === undefined ? NO_CURSORS : [row], 'unwatched', now).length > 0 };
      }),

    resetWatcher: (watcher, clockNow) =>
      guarded('resetWatcher', (): readonly CursorPair[] => {
        assertStoreKey('watcher', watcher);
        const now = clockMs('now', clockNow);
        return commitRemoval(Array.from(byWatcher.get(watcher)?.values() ?? NO_CURSORS), 'reset', now);
      }),

    deleteSession: (sessionKey, clockNow) =>
      guarded('deleteSession', () => {
        assertStoreKey('sessionKey', sessionKey);
        const now = clockMs('now', clockNow);
        // Every cursor where the session is watcher or target (a self-cursor once: planRemoval dedupes).
        const rows = [...(byWatcher.get(sessionKey)?.values() ?? NO_CURSORS), ...(byTarget.get(sessionKey)?.values() ?? NO_CURSORS)];
        const session = sessions.get(sessionKey);
        const events = session === undefined ? NO_EVENTS : session.events;
        const last = events[events.length - 1];
        const removedCursors = commitRemoval(rows, 'deleted', now);
        if (session !== undefined && last !== undefined) {
          session.events = [];
          session.head = evolveHead(session.head, { type: 'deleted', highestDeleted: last.sequence });
          forgetEvents(events);
        }
        return { eventsDeleted: events.length, removedCursors };
      }),

    prune: (request) => guarded('prune', () => pruneBatch(request)),

    previewPrune: (request) => guarded('previewPrune', () => previewPrune(request)),

    close: () => {
      closed = true;
      return Promise.resolve();
    },
  };
}

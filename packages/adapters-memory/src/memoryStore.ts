// The in-memory StateStore: the store port over plain Maps and arrays, for tests and for gateways
// that need no durability. Every rule comes from the domain's planners; each operation computes
// its whole effect first and then commits it, so a thrown error changes nothing.
import { assertAppendRequest, assertStoreKey, asSequence, comparePairs, evolveHead, initialHead, isStoreError, overviewOf, planAppend, planDrain, planAcknowledgeRead, planWatch, assertScanLimit, planScan, splitBatch, isolatedOutcome, storeError, toSessionEvent, type AppendOutcome, type AppendRequest, type ChangesPage, type CorruptRowInfo, type CursorFilter, type CursorPair, type CursorRow, type DrainOutcome, type DrainRequest, type HeadRow, type OverviewSource, type SessionEvent, type SessionKey, type StateStore, type StoreMaintenance } from '@session-state/domain';

import { previewPrune, pruneBatch } from './prune.js';
import { allCursors, checkInteger, clockMs, commitPlan, payloadFromJson, commitRemoval, emptyState, forgetEvents, sound, soundCursors, type MemoryState } from './state.js';

/** A stored row a test may mark unreadable. */
export type MemoryRowRef =
  | { readonly table: 'events'; readonly sequence: number }
  | { readonly table: 'cursors'; readonly watcher: SessionKey; readonly target: SessionKey }
  | { readonly table: 'cursor_journal'; readonly position: number };

/** The memory store: the port, the overview and the prune preview, over state that lives in this process only. */
export type MemoryStore = StateStore & OverviewSource & StoreMaintenance;

const states = new WeakMap<MemoryStore, MemoryState>();

export interface MemoryStoreOptions {
  /** Where an unreadable row is reported (only rows marked by `corruptMemoryRow`). Default: a console warning. */
  readonly onCorruptRow?: (info: CorruptRowInfo) => void;
}

const warnCorruptRow = (info: CorruptRowInfo): void => console.warn(`session-state memory store: skipped a corrupt ${info.table} row in ${info.operation}: ${info.reason}`);

/**
 * Creates an empty in-memory StateStore; after `close()` every method rejects with a StoreError naming the operation.
 *
 * @example const store = createMemoryStore(); const awareness = await createSessionStateAwareness({ store });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const state: MemoryState = emptyState(options.onCorruptRow ?? warnCorruptRow);
  let closed = false;

  function guarded<T>(operation: string, body: () => T): Promise<T> {
    try {
      if (closed) throw new Error(`the memory store is closed (${operation})`);
      return Promise.resolve(body());
    } catch (cause) {
      return Promise.reject(isStoreError(cause) ? cause : storeError(operation, cause));
    }
  }

  const assertPair = (watcher: SessionKey, target: SessionKey): void => {
    assertStoreKey('watcher', watcher);
    assertStoreKey('target', target);
  };
  const cursorOf = (watcher: SessionKey, target: SessionKey): CursorRow | undefined => state.byWatcher.get(watcher)?.get(target);
  const onTarget = (target: SessionKey): CursorRow[] => [...(state.byTarget.get(target)?.values() ?? [])];
  const ofWatcher = (watcher: SessionKey): CursorRow[] => [...(state.byWatcher.get(watcher)?.values() ?? [])];
  const inFilter = (filter: CursorFilter | undefined, row: CursorPair): boolean =>
    (filter?.watcher === undefined || row.watcher === filter.watcher) && (filter?.target === undefined || row.target === filter.target);

  function appendOne(request: AppendRequest): AppendOutcome {
    assertAppendRequest(request);
    const { command } = request;
    const existing = command.dedupeKey === undefined ? undefined : state.dedupe.get(command.dedupeKey);
    if (existing !== undefined) {
      if (!sound(state, 'append', 'events', existing)) throw new Error('the event holding this dedupe key cannot be read');
      return { type: 'duplicate', event: existing };
    }
    const cursors = state.byTarget.get(command.sessionKey);
    if (command.onlyIfWatched && cursors === undefined) return { type: 'skipped', reason: 'unwatched' };
    const appendedAt = clockMs('appendedAt', request.appendedAt);
    const session = state.sessions.get(command.sessionKey);
    const head = session?.head ?? initialHead;
    const sequence = asSequence(Math.max(state.lastSequence, head.head) + 1);
    const payload = command.payloadJson === undefined ? undefined : payloadFromJson(command.payloadJson);
    const plan = planAppend({ command, sequence, appendedAt, payload, cursorsOnTarget: cursors === undefined ? [] : soundCursors(state, 'append', cursors.values()), seedWatcher: request.seedWatcher, headBefore: head.head });
    const nextHead = evolveHead(head, { type: 'appended', sequence });
    state.lastSequence = sequence;
    if (session === undefined) state.sessions.set(command.sessionKey, { head: nextHead, events: [plan.event] });
    else {
      session.head = nextHead;
      session.events.push(plan.event);
    }
    state.order.push(plan.event);
    if (plan.event.dedupeKey !== undefined) state.dedupe.set(plan.event.dedupeKey, plan.event);
    commitPlan(state, plan);
    return { type: 'appended', event: plan.event, notices: plan.notices };
  }

  /** The readable events after `since`, at most `limit`, and whether a readable one follows. */
  function readPage(sessionKey: SessionKey, since: number, limit: number): ChangesPage {
    checkInteger('since', since, 0);
    checkInteger('limit', limit, 1);
    const session = state.sessions.get(sessionKey);
    const events: SessionEvent[] = [];
    let hasMore = false;
    for (const event of session?.events ?? []) {
      if (event.sequence <= since || !sound(state, 'readChanges', 'events', event)) continue;
      if (events.length === limit) {
        hasMore = true;
        break;
      }
      events.push(toSessionEvent(event));
    }
    return { head: session?.head ?? initialHead, events, hasMore, earliestRetained: session?.events[0]?.sequence ?? asSequence(0) };
  }

  function drainNow({ watcher, acks, now: clockNow, takenUntil }: DrainRequest): readonly DrainOutcome[] {
    assertStoreKey('watcher', watcher);
    const now = clockMs('now', clockNow);
    const rows = acks.flatMap((ack) => cursorOf(watcher, ack.target) ?? []);
    const lease = takenUntil === undefined ? {} : { takenUntil: clockMs('takenUntil', takenUntil) };
    const plan = planDrain({ watcher, acks, cursors: soundCursors(state, 'drain', rows), now, ...lease });
    commitPlan(state, plan);
    return plan.outcomes;
  }

  const headRow = (sessionKey: SessionKey): HeadRow[] => {
    const head = state.sessions.get(sessionKey)?.head;
    return head !== undefined && head.head > 0 ? [{ sessionKey, ...head }] : [];
  };
  const allHeads = (): HeadRow[] => [...state.sessions.keys()].sort().flatMap(headRow);

  const store: MemoryStore = {
    append: (batch) =>
      guarded('append', () => {
        const { drain, appends } = splitBatch(batch);
        const outcomes: AppendOutcome[] = drain === undefined ? [] : [isolatedOutcome('drain', () => ({ type: 'drained', outcomes: drainNow(drain) }))];
        for (const request of appends) outcomes.push(isolatedOutcome('append', () => appendOne(request)));
        return outcomes;
      }),

    watch: (request) =>
      guarded('watch', () => {
        assertPair(request.watcher, request.target);
        const plan = planWatch({ request: { ...request, now: clockMs('now', request.now) }, existing: cursorOf(request.watcher, request.target), head: state.sessions.get(request.target)?.head.head ?? initialHead.head });
        commitPlan(state, plan);
        return { created: plan.created };
      }),

    readChanges: (sessionKey, since, limit) => guarded('readChanges', () => readPage(sessionKey, since, limit)),

    readHeads: (sessionKeys) =>
      guarded('readHeads', (): readonly HeadRow[] => (sessionKeys === undefined ? allHeads() : [...new Set(sessionKeys)].flatMap(headRow))),

    listCursors: (filter) =>
      guarded('listCursors', () => {
        const rows = filter?.watcher !== undefined ? ofWatcher(filter.watcher) : filter?.target !== undefined ? onTarget(filter.target) : allCursors(state);
        return soundCursors(state, 'listCursors', rows.filter((row) => inFilter(filter, row))).sort(comparePairs);
      }),

    readOverview: (limits) => guarded('readOverview', () => overviewOf(allHeads(), allCursors(state).sort(comparePairs), limits)),

    readCursorJournal: (filter) =>
      guarded('readCursorJournal', () => state.journal.filter((entry) => inFilter(filter, entry) && sound(state, 'readCursorJournal', 'cursor_journal', entry))),

    drain: (request) => guarded('drain', () => drainNow(request)),

    scanPending: (request) =>
      guarded('scanPending', () => {
        assertScanLimit(request.limit);
        const { owns, targets, raise } = request;
        const rows = targets === undefined ? allCursors(state) : [...new Set(targets)].flatMap(onTarget);
        const page = rows.filter((row) => row.material > row.acked).filter((row) => request.after === undefined || comparePairs(row, request.after) > 0).sort(comparePairs).slice(0, request.limit);
        const cursors = soundCursors(state, 'scanPending', page.filter((row) => owns === undefined || owns(row.watcher)));
        const plan = planScan({ ...request, cursors, ...(raise !== undefined ? { raise: { now: clockMs('now', raise.now) } } : {}) });
        commitPlan(state, plan);
        const last = page.length === request.limit ? page[page.length - 1] : undefined;
        return { notices: plan.notices, ...(last !== undefined ? { next: { watcher: last.watcher, target: last.target } } : {}) };
      }),

    acknowledgeRead: (request) =>
      guarded('acknowledgeRead', () => {
        assertPair(request.watcher, request.target);
        const plan = planAcknowledgeRead({ request: { ...request, now: clockMs('now', request.now) }, existing: cursorOf(request.watcher, request.target) });
        commitPlan(state, plan);
        return plan.outcome;
      }),

    unwatch: (watcher, target, clockNow) =>
      guarded('unwatch', () => {
        assertPair(watcher, target);
        const row = cursorOf(watcher, target);
        return { removed: commitRemoval(state, row === undefined ? [] : [row], 'unwatched', clockMs('now', clockNow)).length > 0 };
      }),

    resetWatcher: (watcher, clockNow) =>
      guarded('resetWatcher', () => {
        assertStoreKey('watcher', watcher);
        return commitRemoval(state, ofWatcher(watcher), 'reset', clockMs('now', clockNow));
      }),

    deleteSession: (sessionKey, clockNow) =>
      guarded('deleteSession', () => {
        assertStoreKey('sessionKey', sessionKey);
        const session = state.sessions.get(sessionKey);
        const events = session?.events ?? [];
        const last = events[events.length - 1];
        const removedCursors = commitRemoval(state, [...ofWatcher(sessionKey), ...onTarget(sessionKey)], 'deleted', clockMs('now', clockNow));
        if (session !== undefined && last !== undefined) {
          session.events = [];
          session.head = evolveHead(session.head, { type: 'deleted', highestDeleted: last.sequence });
          forgetEvents(state, events);
        }
        return { eventsDeleted: events.length, removedCursors };
      }),

    prune: (request) => guarded('prune', () => pruneBatch(state, request)),

    previewPrune: (request) => guarded('previewPrune', () => previewPrune(state, request)),

    close: () => {
      closed = true;
      return Promise.resolve();
    },
  };
  states.set(store, state);
  return store;
}

/** Test only: marks a stored row unreadable, as a damaged file would leave it; operations then skip it and report `reason`. */
export function corruptMemoryRow(store: MemoryStore, row: MemoryRowRef, reason: string): void {
  const state = states.get(store);
  const found =
    row.table === 'events'
      ? state?.order.find((event) => event.sequence === row.sequence)
      : row.table === 'cursors'
        ? state?.byWatcher.get(row.watcher)?.get(row.target)
        : state?.journal.find((entry) => entry.position === row.position);
  if (state === undefined || found === undefined) throw new Error(`corruptMemoryRow: no such ${row.table} row in this store`);
  state.corrupt.set(found, reason);
}

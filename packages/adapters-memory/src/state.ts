// The memory store's state and the steps every operation commits with: the cursor indexes, the
// cursor journal, the checks of clock readings and numbers, and the test-only corrupt-row marks.
import { planRemoval, type CorruptRowInfo, type CursorJournalEntry, type CursorJournalRecord, type CursorPair, type CursorRow, type EndReason, type Payload, type SessionKey, type SignalLogHead, type StoredEvent } from '@session-state/domain';

type CursorIndex = Map<SessionKey, Map<SessionKey, CursorRow>>;

/** Everything a memory store holds; `order` is every retained event in sequence (append) order. */
export interface MemoryState {
  lastSequence: number;
  readonly sessions: Map<SessionKey, { head: SignalLogHead; events: StoredEvent[] }>;
  order: StoredEvent[];
  readonly dedupe: Map<string, StoredEvent>;
  readonly byTarget: CursorIndex;
  readonly byWatcher: CursorIndex;
  journal: CursorJournalEntry[];
  nextPosition: number;
  /** Rows a test marked unreadable, with the reason reported for them. */
  readonly corrupt: WeakMap<object, string>;
  readonly onCorruptRow: (info: CorruptRowInfo) => void;
}

export function emptyState(onCorruptRow: (info: CorruptRowInfo) => void): MemoryState {
  return { lastSequence: 0, sessions: new Map(), order: [], dedupe: new Map(), byTarget: new Map(), byWatcher: new Map(), journal: [], nextPosition: 1, corrupt: new WeakMap(), onCorruptRow };
}

export function checkInteger(field: string, value: number, min: number): void {
  if (Number.isSafeInteger(value) && value >= min) return;
  throw new RangeError(`invalid ${field}: expected ${min === 0 ? 'a non-negative safe integer' : `a safe integer ≥ ${min}`}, got ${String(value)}`);
}

/** A clock reading as every store keeps it: whole milliseconds, floored. */
export function clockMs(field: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`invalid ${field}: expected finite epoch milliseconds, got ${String(value)}`);
  return Math.floor(value);
}

/** The store's own frozen copy of a payload, parsed from the JSON text it was validated as, as the SQL stores keep it. */
export function payloadFromJson(payloadJson: string): Payload {
  return deepFreeze(JSON.parse(payloadJson) as Payload);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key in value) deepFreeze(value[key]);
    Object.freeze(value);
  }
  return value;
}

/** Whether `row` is readable; a marked one is reported (never its content) and must be skipped. */
export function sound(state: MemoryState, operation: string, table: CorruptRowInfo['table'], row: object): boolean {
  const reason = state.corrupt.get(row);
  if (reason === undefined) return true;
  const sequence = table === 'events' ? (row as StoredEvent).sequence : undefined;
  state.onCorruptRow({ operation, table, ...(sequence !== undefined ? { sequence } : {}), reason });
  return false;
}

export function soundCursors(state: MemoryState, operation: string, rows: Iterable<CursorRow>): CursorRow[] {
  return [...rows].filter((row) => sound(state, operation, 'cursors', row));
}

export function allCursors(state: MemoryState): CursorRow[] {
  return [...state.byWatcher.values()].flatMap((rows) => [...rows.values()]);
}

function putIndexed(index: CursorIndex, outer: SessionKey, inner: SessionKey, row: CursorRow | undefined): void {
  const rows = index.get(outer) ?? new Map<SessionKey, CursorRow>();
  if (row === undefined) rows.delete(inner);
  else rows.set(inner, row);
  if (rows.size === 0) index.delete(outer);
  else index.set(outer, rows);
}

function appendJournal(state: MemoryState, records: readonly CursorJournalRecord[]): void {
  for (const record of records) state.journal.push({ ...record, position: state.nextPosition++ });
}

/** Commits a cursor plan: its rows, then its journal entries. */
export function commitPlan(state: MemoryState, plan: { readonly cursorWrites?: readonly CursorRow[]; readonly journal: readonly CursorJournalRecord[] }): void {
  for (const row of plan.cursorWrites ?? []) {
    putIndexed(state.byTarget, row.target, row.watcher, row);
    putIndexed(state.byWatcher, row.watcher, row.target, row);
  }
  appendJournal(state, plan.journal);
}

/** Removes the rows' cursors and journals the end of each watch. */
export function commitRemoval(state: MemoryState, rows: readonly CursorRow[], reason: EndReason, now: number): CursorPair[] {
  const plan = planRemoval({ cursors: rows, reason, now });
  for (const pair of plan.removed) {
    putIndexed(state.byTarget, pair.target, pair.watcher, undefined);
    putIndexed(state.byWatcher, pair.watcher, pair.target, undefined);
  }
  appendJournal(state, plan.journal);
  return [...plan.removed];
}

/** Forgets removed events: the retained order and the dedupe keys they held. */
export function forgetEvents(state: MemoryState, events: readonly StoredEvent[]): void {
  if (events.length === 0) return;
  const gone = new Set(events);
  state.order = state.order.filter((event) => !gone.has(event));
  for (const event of events) if (event.dedupeKey !== undefined && state.dedupe.get(event.dedupeKey) === event) state.dedupe.delete(event.dedupeKey);
}

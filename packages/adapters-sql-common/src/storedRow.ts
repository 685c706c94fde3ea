// Reads stored rows back as the domain's events and cursors: the checks and the field-by-field
// building both SQL adapters share, so a damaged or hand-edited row is refused the same way in
// each of them. Rows are positional arrays in the column order of `columns.ts`.
import {
  ActorType,
  asSequence,
  EVENT_KINDS,
  isSequence,
  type CorruptRowSink,
  type CursorRow,
  type Payload,
  type SessionEvent,
  type SessionKey,
  type StoredEvent,
  type Watermarks,
} from '@session-state/domain';

// --- events --------------------------------------------------------------------------------

/** The column order of every event select (a StoredEvent's fields); `P` is how the payload column arrives. */
export type StoredEventValues<P = unknown> = [
  sequence: number,
  sessionKey: string,
  kind: string,
  actorType: string,
  actorSessionKey: string | null,
  summary: string,
  payload: P | null,
  dedupeKey: string | null,
  occurredAt: string,
  appendedAt: number,
];

/** The column order of the lean `status` select: a SessionEvent's fields. */
export type SessionEventValues<P = unknown> = [
  sequence: number,
  kind: string,
  actorType: string,
  actorSessionKey: string | null,
  summary: string,
  payload: P | null,
  occurredAt: string,
];

/**
 * Parses a payload column that is not null, for a store that keeps it as JSON text: the parsed
 * value, or undefined when the text does not parse. Only a JSON object is then a payload.
 */
export type ParseStoredPayload = (column: unknown) => unknown;

/** A decoded event, or why the row is unusable (the reason names no stored content). */
export type DecodedEvent = { readonly ok: true; readonly event: StoredEvent } | { readonly ok: false; readonly reason: string };

const KINDS: ReadonlySet<string> = new Set<string>(EVENT_KINDS);
const ACTOR_TYPES: ReadonlySet<string> = new Set<string>(Object.keys(ActorType.keys));

/** A parsed payload column as a payload: only a JSON object is one (not an array, not null). */
function payloadObject(value: unknown): Payload | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Payload) : undefined;
}

/**
 * Decodes the StoredEventValues starting at `offset` of a row (joined selects put other columns
 * first), checking the kind, the actor type and the payload; an unusable row gives the reason.
 */
export type StoredEventDecoder = (row: readonly unknown[], offset?: number) => DecodedEvent;

/**
 * Decodes the SessionEventValues starting at `offset` of a row into a SessionEvent (the
 * `stateChanges` shape, keys in `toSessionEvent`'s order), or undefined for a row the
 * StoredEventDecoder refuses (a caller wanting the reason reads the full row).
 */
export type StoredSessionEventDecoder = (row: readonly unknown[], offset?: number) => SessionEvent | undefined;

/**
 * An adapter's event decoders, made once when the adapter loads: `parsePayload` for a payload
 * column kept as JSON text, none when the driver hands the column over parsed. Why a factory:
 * the per-row call then runs this module's code directly, whereas a function imported through
 * a package index is read through a getter under CommonJS on every call, which costs the read
 * path more than the decoding does.
 *
 * @example const { decodeEvent, decodeSessionEvent } = storedEventDecoders(parseJsonText);
 */
export function storedEventDecoders(parsePayload: ParseStoredPayload = (column) => column): {
  readonly decodeEvent: StoredEventDecoder;
  readonly decodeSessionEvent: StoredSessionEventDecoder;
} {
  return {
    decodeEvent: (row, offset = 0) => decodeStoredEvent(row, offset, parsePayload),
    decodeSessionEvent: (row, offset = 0) => decodeStoredSessionEvent(row, offset, parsePayload),
  };
}

function decodeStoredEvent(row: readonly unknown[], offset: number, parsePayload: ParseStoredPayload): DecodedEvent {
  const kind = row[offset + 2] as string;
  if (!KINDS.has(kind)) return { ok: false, reason: 'unknown kind' };
  const actorType = row[offset + 3] as string;
  if (!ACTOR_TYPES.has(actorType)) return { ok: false, reason: 'unknown actor type' };
  const payloadColumn = row[offset + 6];
  let payload: Payload | undefined;
  if (payloadColumn !== null) {
    payload = payloadObject(parsePayload(payloadColumn));
    if (payload === undefined) return { ok: false, reason: 'payload is not a JSON object' };
  }
  const actorSessionKey = row[offset + 4] as string | null;
  const dedupeKey = row[offset + 7] as string | null;
  // Built by assignment, not spreads, to keep the read path allocation-light (column order).
  // The branded types are trusted: every row was validated by the domain before it was stored.
  const event: Record<string, unknown> = { sessionKey: row[offset + 1], sequence: row[offset], kind, actorType };
  if (actorSessionKey !== null) event['actorSessionKey'] = actorSessionKey;
  event['summary'] = row[offset + 5];
  if (payload !== undefined) event['payload'] = payload;
  if (dedupeKey !== null) event['dedupeKey'] = dedupeKey;
  event['occurredAt'] = row[offset + 8];
  event['appendedAt'] = row[offset + 9];
  return { ok: true, event: event as unknown as StoredEvent };
}

function decodeStoredSessionEvent(row: readonly unknown[], offset: number, parsePayload: ParseStoredPayload): SessionEvent | undefined {
  const kind = row[offset + 1] as string;
  const actorType = row[offset + 2] as string;
  if (!KINDS.has(kind) || !ACTOR_TYPES.has(actorType)) return undefined;
  const payloadColumn = row[offset + 5];
  let payload: Payload | undefined;
  if (payloadColumn !== null) {
    payload = payloadObject(parsePayload(payloadColumn));
    if (payload === undefined) return undefined;
  }
  const actorSessionKey = row[offset + 3] as string | null;
  const event: Record<string, unknown> = { sequence: row[offset], kind, actorType };
  if (actorSessionKey !== null) event['actorSessionKey'] = actorSessionKey;
  event['summary'] = row[offset + 4];
  event['occurredAt'] = row[offset + 6];
  if (payload !== undefined) event['payload'] = payload;
  return event as unknown as SessionEvent;
}

// --- cursors -------------------------------------------------------------------------------

/** The column order of every cursor select: a CursorRow's fields. */
export type CursorValues = [watcher: string, target: string, acked: number, notified: number, material: number, touchedAt: number];

/**
 * Why the pair and watermark columns of a stored cursor row (its first five, in CursorValues
 * order, as a pending-cursor scan reads them) cannot be used, or undefined when they are sound:
 * the pair is text and the watermarks are sequences in order (acked ≤ notified ≤ material).
 * The reason names no stored value.
 */
export function storedWatermarksProblem(row: readonly unknown[]): string | undefined {
  if (typeof row[0] !== 'string' || typeof row[1] !== 'string') return 'watcher or target is not text';
  const acked = row[2];
  const notified = row[3];
  const material = row[4];
  if (!isSequence(acked) || !isSequence(notified) || !isSequence(material)) return 'a watermark is not a non-negative integer';
  if (!(acked <= notified && notified <= material)) return 'watermarks are out of order';
  return undefined;
}

/** Why stored CursorValues cannot be used (`storedWatermarksProblem`, then touched_at must be a number), or undefined. */
export function storedCursorProblem(row: readonly unknown[]): string | undefined {
  return storedWatermarksProblem(row) ?? (typeof row[5] !== 'number' ? 'touched_at is not a number' : undefined);
}

/**
 * The watermarks of a stored cursor row's first five columns, or undefined after reporting them
 * to `sink` when `storedWatermarksProblem` refuses them.
 */
export function decodeStoredWatermarks(sink: CorruptRowSink, operation: string, row: readonly unknown[]): Watermarks | undefined {
  const problem = storedWatermarksProblem(row);
  if (problem !== undefined) {
    sink.onCorruptRow({ operation, table: 'cursors', reason: problem });
    return undefined;
  }
  return { acked: asSequence(row[2] as number), notified: asSequence(row[3] as number), material: asSequence(row[4] as number) };
}

/**
 * Stored CursorValues as a CursorRow, or undefined after reporting them to `sink` (naming the
 * operation and the failed check) when `storedCursorProblem` refuses them.
 */
export function decodeStoredCursor(sink: CorruptRowSink, operation: string, row: readonly unknown[]): CursorRow | undefined {
  const problem = storedCursorProblem(row);
  if (problem !== undefined) {
    sink.onCorruptRow({ operation, table: 'cursors', reason: problem });
    return undefined;
  }
  return {
    watcher: row[0] as SessionKey,
    target: row[1] as SessionKey,
    acked: asSequence(row[2] as number),
    notified: asSequence(row[3] as number),
    material: asSequence(row[4] as number),
    touchedAt: row[5] as number,
  };
}

/** The sound rows of a cursor select, in order; each corrupt one is reported to `sink` and left out. */
export function decodeStoredCursors(sink: CorruptRowSink, operation: string, rows: readonly (readonly unknown[])[]): CursorRow[] {
  return soundRows(rows, (values) => decodeStoredCursor(sink, operation, values));
}

/**
 * Pending-cursor rows (`pendingColumns`: the pair and the watermarks, as the covering index of
 * pending cursors holds them) of the watchers that pass `owns`, as the planners' CursorRows
 * touched at `touchedAt` (every row a plan writes is touched at the operation's time anyway). A
 * corrupt row is reported and left out; an unowned one is not decoded at all.
 */
export function decodePendingRows(
  sink: CorruptRowSink,
  operation: string,
  rows: Iterable<readonly unknown[]>,
  touchedAt: number,
  owns?: (watcher: SessionKey) => boolean,
): CursorRow[] {
  const cursors: CursorRow[] = [];
  for (const row of rows) {
    const watcher = row[0] as SessionKey;
    if (owns !== undefined && !owns(watcher)) continue;
    const stored = decodeStoredWatermarks(sink, operation, row);
    if (stored !== undefined) cursors.push({ watcher, target: row[1] as SessionKey, ...stored, touchedAt });
  }
  return cursors;
}

/** The rows `decodeOne` accepts, in order (it reports the others). */
export function soundRows<T>(rows: readonly (readonly unknown[])[], decodeOne: (row: readonly unknown[]) => T | undefined): T[] {
  const decoded: T[] = [];
  for (const row of rows) {
    const one = decodeOne(row);
    if (one !== undefined) decoded.push(one);
  }
  return decoded;
}

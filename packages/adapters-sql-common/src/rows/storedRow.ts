// Stored rows (positional arrays) read back as events and cursors with the checks both SQL adapters share, so a bad row is refused alike.
import { ActorType, asSequence, EVENT_KINDS, isSequence, lease, watchClass, type CorruptRowSink, type CursorRow, type Payload, type SessionEvent, type SessionKey, type StoredEvent, type Watermarks } from '@session-state/domain';

/** The column order of every event select (EVENT_FIELDS); `P` is how the payload column arrives. A changes read selects the first seven. */
export type StoredEventValues<P = unknown> = [sequence: number, kind: string, actorType: string, actorSessionKey: string | null, summary: string, occurredAt: string, payload: P | null, sessionKey: string, dedupeKey: string | null, appendedAt: number];

/** Parses a non-null payload column kept as JSON text (undefined when it does not parse). */
export type ParseStoredPayload = (column: unknown) => unknown;

/** A decoded event, or why the row is unusable (the reason names no stored content). */
type DecodedEvent<E = StoredEvent> = { readonly ok: true; readonly event: E } | { readonly ok: false; readonly reason: string };

const KINDS: ReadonlySet<string> = new Set<string>(EVENT_KINDS);
const ACTOR_TYPES: ReadonlySet<string> = new Set<string>(Object.keys(ActorType.keys));

/** Decodes the StoredEventValues from `offset` of a row (or the first seven, as a SessionEvent), checking kind, actor type and payload. */
export type StoredEventDecoder<E = StoredEvent> = (row: readonly unknown[], offset?: number) => DecodedEvent<E>;

/** An adapter's event decoders, made once at load (so a row's call skips a package-index getter); `parsePayload` for JSON text. */
export function storedEventDecoders(parsePayload: ParseStoredPayload = (column) => column) {
  return {
    decodeEvent: ((row, offset = 0) => decodeEventValues(row, offset, parsePayload, true)) as StoredEventDecoder,
    decodeSessionEvent: ((row, offset = 0) => decodeEventValues(row, offset, parsePayload, false)) as StoredEventDecoder<SessionEvent>,
  };
}

function decodeEventValues(row: readonly unknown[], offset: number, parsePayload: ParseStoredPayload, stored: boolean): DecodedEvent<unknown> {
  const kind = row[offset + 1] as string;
  if (!KINDS.has(kind)) return { ok: false, reason: 'unknown kind' };
  const actorType = row[offset + 2] as string;
  if (!ACTOR_TYPES.has(actorType)) return { ok: false, reason: 'unknown actor type' };
  const column = row[offset + 6];
  const payload = column === null ? undefined : parsePayload(column);
  // Only a JSON object is a payload (not an array, not null, not a column that did not parse).
  const isObject = typeof payload === 'object' && payload !== null && !Array.isArray(payload);
  if (column !== null && !isObject) return { ok: false, reason: 'payload is not a JSON object' };
  const actorSessionKey = row[offset + 3] as string | null;
  // Built by assignment in the public key order; the branded types are trusted (the domain validated every row stored).
  const event: Record<string, unknown> = { sequence: row[offset], kind, actorType };
  if (actorSessionKey !== null) event['actorSessionKey'] = actorSessionKey;
  event['summary'] = row[offset + 4];
  event['occurredAt'] = row[offset + 5];
  if (payload !== undefined) event['payload'] = payload as Payload;
  if (!stored) return { ok: true, event };
  event['sessionKey'] = row[offset + 7];
  const dedupeKey = row[offset + 8] as string | null;
  if (dedupeKey !== null) event['dedupeKey'] = dedupeKey;
  event['appendedAt'] = row[offset + 9];
  return { ok: true, event };
}

/** The column order of every cursor select: a CursorRow's fields (`takenUntil` null while not taken, `ambient` 1 or 0). */
export type CursorValues = [watcher: string, target: string, acked: number, notified: number, material: number, touchedAt: number, takenUntil: number | null, ambient: number];

/** Why a cursor row's pair and watermarks (its first five columns) cannot be used: text pair, sequences acked ≤ notified ≤ material. */
export function storedWatermarksProblem(row: readonly unknown[]): string | undefined {
  if (typeof row[0] !== 'string' || typeof row[1] !== 'string') return 'watcher or target is not text';
  const [, , acked, notified, material] = row;
  if (!isSequence(acked) || !isSequence(notified) || !isSequence(material)) return 'a watermark is not a non-negative integer';
  if (!(acked <= notified && notified <= material)) return 'watermarks are out of order';
  return undefined;
}

/** Why a lease column cannot be used: it is null or clock milliseconds. */
export const storedLeaseProblem = (takenUntil: unknown): string | undefined => (takenUntil === null || typeof takenUntil === 'number' ? undefined : 'taken_until is not a number');

/** Why stored CursorValues cannot be used (`storedWatermarksProblem`, then touched_at and taken_until), or undefined. */
export function storedCursorProblem(row: readonly unknown[]): string | undefined {
  return storedWatermarksProblem(row) ?? (typeof row[5] !== 'number' ? 'touched_at is not a number' : storedLeaseProblem(row[6]));
}

function refused(sink: CorruptRowSink, operation: string, reason: string): undefined {
  sink.onCorruptRow({ operation, table: 'cursors', reason });
  return undefined;
}

/** The watermarks of a cursor row's first five columns, the lease in `leaseAt` and the class after it, or undefined after reporting a refused row to `sink`. */
export function decodeStoredWatermarks(sink: CorruptRowSink, operation: string, row: readonly unknown[], leaseAt = 5): Watermarks | undefined {
  const problem = storedWatermarksProblem(row) ?? storedLeaseProblem(row[leaseAt]);
  if (problem !== undefined) return refused(sink, operation, problem);
  return { acked: asSequence(row[2] as number), notified: asSequence(row[3] as number), material: asSequence(row[4] as number), ...lease(row[leaseAt] as number | null), ...watchClass(row[leaseAt + 1]) };
}

/** Stored CursorValues as a CursorRow, or undefined after reporting a refused row to `sink`. */
export function decodeStoredCursor(sink: CorruptRowSink, operation: string, row: readonly unknown[]): CursorRow | undefined {
  const problem = storedCursorProblem(row);
  if (problem !== undefined) return refused(sink, operation, problem);
  return { watcher: row[0] as SessionKey, target: row[1] as SessionKey, acked: asSequence(row[2] as number), notified: asSequence(row[3] as number), material: asSequence(row[4] as number), touchedAt: row[5] as number, ...lease(row[6] as number | null), ...watchClass(row[7]) };
}

/** The sound rows of a cursor select, in order; each corrupt one is reported to `sink` and left out. */
export function decodeStoredCursors(sink: CorruptRowSink, operation: string, rows: readonly (readonly unknown[])[]): CursorRow[] {
  return rows.flatMap((row) => decodeStoredCursor(sink, operation, row) ?? []);
}

/** PENDING_FIELDS rows of the watchers passing `owns`, as CursorRows touched at `touchedAt`; a corrupt row is reported and left out. */
export function decodePendingRows(sink: CorruptRowSink, operation: string, rows: Iterable<readonly unknown[]>, touchedAt: number, owns?: (watcher: SessionKey) => boolean): CursorRow[] {
  return Array.from(rows).flatMap((row) => {
    const watcher = row[0] as SessionKey;
    const stored = owns === undefined || owns(watcher) ? decodeStoredWatermarks(sink, operation, row) : undefined;
    return stored === undefined ? [] : [{ watcher, target: row[1] as SessionKey, ...stored, touchedAt }];
  });
}

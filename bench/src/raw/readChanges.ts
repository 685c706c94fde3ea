// The raw `status` read: the head ⟕ events statement (`LIMIT limit+1`), its positional rows shaped
// as the library's `stateChanges` (the PostgreSQL baseline shapes its rows the same way).
import type { RawDb } from './rawDb.js';

export interface RawStatus {
  readonly stateVersion: number;
  readonly events: readonly Record<string, unknown>[];
  readonly historyGap: boolean;
  readonly hasMore: boolean;
  readonly nextSince: number;
}

/** Shapes [head, prune_watermark, sequence, kind, actor_type, actor_session_key, summary, payload, occurred_at] rows. */
export function shapeChanges(rows: readonly unknown[][], since: number, limit: number, payloadOf: (stored: unknown) => unknown): RawStatus {
  const first = rows[0];
  if (first === undefined) return { stateVersion: 0, events: [], historyGap: false, hasMore: false, nextSince: since };
  const events: Record<string, unknown>[] = [];
  for (let i = 0; i < rows.length && i < limit; i++) {
    const r = rows[i];
    if (r === undefined || r[2] === null) break;
    const event: Record<string, unknown> = { sequence: r[2], kind: r[3], actorType: r[4], summary: r[6], occurredAt: r[8] };
    if (r[5] !== null) event['actorSessionKey'] = r[5];
    if (r[7] !== null) event['payload'] = payloadOf(r[7]);
    events.push(event);
  }
  const last = events[events.length - 1];
  return {
    stateVersion: first[0] as number,
    events,
    historyGap: since < (first[1] as number),
    hasMore: rows.length > limit,
    nextSince: last === undefined ? since : (last['sequence'] as number),
  };
}

const parse = (stored: unknown): unknown => JSON.parse(stored as string);

/** A reader of at most `limit` events after `since` for a session. */
export function rawReader(db: Pick<RawDb, 'st'>): (sessionKey: string, since: number, limit: number) => RawStatus {
  return (sessionKey, since, limit) => shapeChanges(db.st.changesSince.all(since, sessionKey, limit + 1), since, limit, parse);
}

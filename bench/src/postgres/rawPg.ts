// The raw PostgreSQL baseline: a pg Pool with the store's connection settings, the store's
// statements (adapters-postgres statements.ts) as plain SQL run as named prepared statements, and
// the store's operations in its transaction shapes. When the store changes a query, mirror it here.
import pg from 'pg';

import { shapeChanges, type RawRecord, type RawStatus } from '../raw/rawDb.js';

type RawStatement = { readonly name: string; readonly text: string };

/** The cursor update to the rows `unnest(arrays) AS v(columns)` matched by `where`, at $1, with the moved cursors' journal entries ($7-$12: watcher, target, type, acked, notified, material arrays). */
const movedBy = (arrays: string, columns: string, where: string): string => `WITH moved AS (
  UPDATE cursors SET acked = v.acked, notified = v.notified, material = v.material, touched_at = $1
  FROM unnest(${arrays}) AS v(${columns})
  WHERE ${where}
), journal AS (
  INSERT INTO cursor_journal (watcher, target, type, reason, via, acked, notified, material, recorded_at)
  SELECT j.watcher, j.target, j.type, NULL, NULL, j.acked, j.notified, j.material, $1
  FROM unnest($7::text[], $8::text[], $9::text[], $10::bigint[], $11::bigint[], $12::bigint[])
    WITH ORDINALITY AS j(watcher, target, type, acked, notified, material, ord)
  ORDER BY j.ord
)
SELECT 1`;

const RAW_PG_SQL = {
  appendEvent: `WITH head AS (
  INSERT INTO heads (session_key, head, prune_watermark) VALUES ($1, nextval('event_sequence'), 0)
  ON CONFLICT (session_key) DO UPDATE SET head = nextval('event_sequence')
  RETURNING head
)
INSERT INTO events (sequence, session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at)
SELECT head.head, $2, $3, $4, $5, $6, $7::json, $8, $9, $10
FROM head
RETURNING sequence`,
  cursorsOnTarget: 'SELECT watcher, target, acked, notified, material, touched_at FROM cursors WHERE cursors.target = $1 ORDER BY cursors.watcher ASC FOR UPDATE',
  moveCursors: movedBy('$2::text[], $3::bigint[], $4::bigint[], $5::bigint[]', 'watcher, acked, notified, material', 'cursors.target = $6 AND cursors.watcher = v.watcher'),
  moveCursorPairs: movedBy('$2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[]', 'watcher, target, acked, notified, material', 'cursors.watcher = v.watcher AND cursors.target = v.target'),
  journalExpired: `INSERT INTO cursor_journal (watcher, target, type, reason, via, acked, notified, material, recorded_at)
SELECT j.watcher, j.target, 'watch_ended', 'expired', NULL, j.acked, j.notified, j.material, $1
FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[]) WITH ORDINALITY AS j(watcher, target, acked, notified, material, ord)
ORDER BY j.ord`,
  deleteAgedJournal: `DELETE FROM cursor_journal WHERE recorded_at < $1 AND (
  NOT EXISTS (SELECT 1 FROM cursors c WHERE c.watcher = cursor_journal.watcher AND c.target = cursor_journal.target)
  OR EXISTS (SELECT 1 FROM cursor_journal l WHERE l.watcher = cursor_journal.watcher AND l.target = cursor_journal.target AND l.position > cursor_journal.position))`,
  notify: 'SELECT pg_notify($1, $2)',
  sessionChangesSince: `SELECT heads.head, heads.prune_watermark, (SELECT min(sequence) FROM events WHERE session_key = CAST($2 AS TEXT)), events.sequence,
       events.kind, events.actor_type, events.actor_session_key, events.summary, events.payload, events.occurred_at
  FROM heads LEFT JOIN events ON (events.session_key = heads.session_key AND events.sequence > $1)
 WHERE heads.session_key = CAST($2 AS TEXT) ORDER BY events.sequence ASC LIMIT CAST($3 AS BIGINT)`,
  pendingCursors: 'SELECT watcher, target, acked, notified, material, touched_at FROM cursors WHERE cursors.material > cursors.acked ORDER BY cursors.watcher ASC, cursors.target ASC',
  lockCursorPairs: `SELECT cursors.watcher, cursors.target, cursors.acked, cursors.notified, cursors.material, cursors.touched_at FROM cursors
WHERE (cursors.watcher, cursors.target) IN (SELECT * FROM unnest($1::text[], $2::text[]))
ORDER BY cursors.target, cursors.watcher FOR UPDATE`,
  drainCursors: `SELECT cursors.watcher, cursors.target, cursors.acked, cursors.notified, cursors.material, cursors.touched_at FROM cursors
WHERE cursors.watcher = $1 AND cursors.target = ANY($2::text[])
ORDER BY cursors.target FOR UPDATE`,
  lockHeads: 'SELECT 1 FROM heads WHERE heads.session_key = ANY($1::text[]) ORDER BY heads.session_key FOR UPDATE',
  raisePruneWatermarks: `UPDATE heads SET prune_watermark = GREATEST(heads.prune_watermark, v.sequence)
FROM unnest($1::text[], $2::bigint[]) AS v(session_key, sequence)
WHERE heads.session_key = v.session_key`,
  deleteAgedEvents: `DELETE FROM events WHERE events.sequence IN (
  SELECT events.sequence FROM events WHERE events.appended_at < $1
  ORDER BY events.appended_at, events.sequence LIMIT $2 FOR UPDATE SKIP LOCKED
) RETURNING sequence, session_key`,
  deleteLowestEvents: `DELETE FROM events WHERE events.sequence IN (
  SELECT events.sequence FROM events ORDER BY events.sequence LIMIT $1 FOR UPDATE SKIP LOCKED
) RETURNING sequence, session_key`,
  countEvents: 'SELECT count(*) FROM events',
  expireIdleCursors: `DELETE FROM cursors WHERE (cursors.watcher, cursors.target) IN (
  SELECT cursors.watcher, cursors.target FROM cursors WHERE cursors.touched_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED
) RETURNING watcher, target, acked, notified, material`,
  notifyTargets: 'SELECT pg_notify($1, t) FROM (SELECT DISTINCT unnest($2::text[]) AS t) AS distinct_targets',
};

/** Each statement named `raw_<its key in snake case>` (the label the query count prints). */
const RAW_PG = Object.fromEntries(
  Object.entries(RAW_PG_SQL).map(([key, text]) => [key, { name: `raw_${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`, text }]),
) as Record<keyof typeof RAW_PG_SQL, RawStatement>;

const INT8_OID = 20;

/** bigint → number, as the store reads them. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as never,
};

/** A pool on `schema` (first on the search_path), with the store's type parsing and keep-alive. */
export function openRawPool(url: string, schema: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, types, keepAlive: true, max });
  pool.on('error', () => undefined);
  return pool;
}

/** Runs a named statement on `client`; rows come back as arrays, as the store reads them. */
async function runRaw(client: pg.PoolClient | pg.Pool, st: RawStatement, values: readonly unknown[]): Promise<unknown[][]> {
  const result = await client.query<unknown[]>({ name: st.name, text: st.text, values: values as unknown[], rowMode: 'array' });
  return result.rows;
}

/** BEGIN, `work`, COMMIT on one pooled connection (ROLLBACK on a failure), as the store's transactions run. */
async function rawTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** The raw `status` read on the pool, shaped as raw/rawDb.ts shapes SQLite's. */
export function rawPgReader(pool: pg.Pool): (sessionKey: string, since: number, limit: number) => Promise<RawStatus> {
  return async (sessionKey, since, limit) => shapeChanges(await runRaw(pool, RAW_PG.sessionChangesSince, [since, sessionKey, limit + 1]), since, limit, (payload) => payload);
}

/** [watcher, target, acked, notified, material, touchedAt]. */
type CursorValues = [string, string, number, number, number, number];

export function rawPgAppender(pool: pg.Pool, channel: string): (record: RawRecord, now: number) => Promise<number> {
  return (record, now) =>
    rawTransaction(pool, async (client) => {
      const payload = record.payload === undefined ? null : JSON.stringify(record.payload);
      const [inserted] = await runRaw(client, RAW_PG.appendEvent, [record.sessionKey, record.sessionKey, record.kind, record.actorType, record.actorSessionKey ?? null, record.summary, payload, null, new Date(now).toISOString(), now]);
      const sequence = inserted?.[0] as number;
      const moved: [string, number, number][] = [];
      const raised: [string, number][] = [];
      for (const [watcher, , a, n, m] of (await runRaw(client, RAW_PG.cursorsOnTarget, [record.sessionKey])) as CursorValues[]) {
        if (!record.notifies || watcher === record.actorSessionKey) continue;
        if (m <= a && sequence > a) {
          moved.push([watcher, a, sequence]);
          raised.push([watcher, a]);
        } else if (m > a && sequence > m) moved.push([watcher, a, n]);
      }
      if (moved.length > 0) {
        const key = record.sessionKey;
        await runRaw(client, RAW_PG.moveCursors, [now, moved.map((c) => c[0]), moved.map((c) => c[1]), moved.map((c) => c[2]), moved.map(() => sequence), key,
          raised.map(([w]) => w), raised.map(() => key), raised.map(() => 'notice_raised'), raised.map(([, a]) => a), raised.map(() => sequence), raised.map(() => sequence)]);
      }
      if (raised.length > 0) await runRaw(client, RAW_PG.notify, [channel, [record.sessionKey, ...raised.map(([w]) => w)].join(' ')]);
      return sequence;
    });
}

/** Sets each row's cursor to acked = its column `acked`, notified = material = material at `now`, journaled as `type` says (nothing when no rows). */
async function movePairs(client: pg.PoolClient, now: number, rows: readonly CursorValues[], acked: 2 | 3, type: (row: CursorValues) => string): Promise<void> {
  if (rows.length === 0) return;
  const col = (i: number) => rows.map((c) => c[i]);
  await runRaw(client, RAW_PG.moveCursorPairs, [now, col(0), col(1), col(acked), col(4), col(4), col(0), col(1), rows.map(type), col(acked), col(4), col(4)]);
}

/** Drains `watcher`'s notices on `targets`; resolves with how many cursors had one. */
export function rawPgDrain(pool: pg.Pool, watcher: string, targets: readonly string[], now: number): Promise<number> {
  return rawTransaction(pool, async (client) => {
    const pending = ((await runRaw(client, RAW_PG.drainCursors, [watcher, targets])) as CursorValues[]).filter(([, , acked, , material]) => material > acked);
    await movePairs(client, now, pending, 3, (c) => (c[4] > c[3] ? 'notice_reopened' : 'notice_acknowledged'));
    return pending.length;
  });
}

/** Runs the scan at `now`; resolves with how many pairs are pending. */
export async function rawPgRestartScan(pool: pg.Pool, now: number): Promise<number> {
  const pending = (await runRaw(pool, RAW_PG.pendingCursors, [])) as CursorValues[];
  const toWrite = pending.filter(([, , , notified, material]) => notified !== material);
  if (toWrite.length === 0) return pending.length;
  await rawTransaction(pool, async (client) => {
    const locked = (await runRaw(client, RAW_PG.lockCursorPairs, [toWrite.map((c) => c[0]), toWrite.map((c) => c[1])])) as CursorValues[];
    await movePairs(client, now, locked.filter(([, , acked, notified, material]) => notified !== material && material > acked), 2, () => 'notice_recovered');
  });
  return pending.length;
}

/** Each session's highest sequence among deleted [sequence, sessionKey] rows. */
function highestPerSession(rows: readonly unknown[][], into: Map<string, number>): void {
  for (const [sequence, sessionKey] of rows as [number, string][]) into.set(sessionKey, Math.max(sequence, into.get(sessionKey) ?? 0));
}

/** Prunes to `maxRows` / `maxAgeMs` at `now`, signalling on `channel`; resolves with the events deleted. */
export function rawPgPrune(pool: pg.Pool, channel: string, now: number, maxAgeMs: number, maxRows: number): Promise<number> {
  const cutoff = now - maxAgeMs;
  return rawTransaction(pool, async (client) => {
    const highest = new Map<string, number>();
    const aged = await runRaw(client, RAW_PG.deleteAgedEvents, [cutoff, null]);
    highestPerSession(aged, highest);
    const [counted] = await runRaw(client, RAW_PG.countEvents, []);
    const excess = Number(counted?.[0] ?? 0) - maxRows;
    const lowest = excess > 0 ? await runRaw(client, RAW_PG.deleteLowestEvents, [excess]) : [];
    highestPerSession(lowest, highest);
    if (highest.size > 0) {
      const keys = [...highest.keys()].sort();
      await runRaw(client, RAW_PG.lockHeads, [keys]);
      await runRaw(client, RAW_PG.raisePruneWatermarks, [keys, keys.map((key) => highest.get(key) as number)]);
    }
    const expired = await runRaw(client, RAW_PG.expireIdleCursors, [cutoff, null]);
    if (expired.length > 0) {
      await runRaw(client, RAW_PG.journalExpired, [now, ...[0, 1, 2, 3, 4].map((i) => expired.map((row) => row[i]))]);
      await runRaw(client, RAW_PG.notifyTargets, [channel, expired.map((pair) => pair[1])]);
    }
    await runRaw(client, RAW_PG.deleteAgedJournal, [cutoff]);
    return aged.length + lowest.length;
  });
}

export const channelOf = (schema: string): string => `session_state:${schema}`;

/**
 * A raw gateway on `pool`: the append on it, and a dedicated connection that ran `LISTEN channel`
 * handing each notification's target and watchers to `heard`; `close` ends both.
 */
export async function openRawGateway(url: string, pool: pg.Pool, channel: string, heard: (target: string, watchers: string[]) => void) {
  const client = new pg.Client({ connectionString: url, keepAlive: true });
  client.on('error', () => undefined);
  client.on('notification', (message) => {
    if (message.channel !== channel || message.payload === undefined) return;
    const [target = '', ...watchers] = message.payload.split(' ');
    heard(target, watchers);
  });
  await client.connect();
  try {
    await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  return {
    append: rawPgAppender(pool, channel),
    close: async (): Promise<void> => {
      await client.end();
      await pool.end();
    },
  };
}

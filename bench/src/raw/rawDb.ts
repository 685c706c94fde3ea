// The raw SQLite baseline: the store's own migration SQL and pragmas, every statement it runs prepared
// once (better-sqlite3, and node:sqlite's DatabaseSync), and the store's operations as plain SQL:
// the single append, the `status` read, the restart scan and the prune. When the store changes a
// query, mirror it here. Also the seeds: events, heads and cursors written by plain SQL into a file
// (raw, or the library's own beside the store), so both sides start identical.
import Database from 'better-sqlite3';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { MIGRATIONS } from '@session-state/adapters-sqlite';

/** The store's committed migrations, concatenated: exactly the library's tables and indexes. */
const RAW_SCHEMA = MIGRATIONS.map((m) => m.sql).join('\n');

type RawCursor = { watcher: string; target: string; acked: number; notified: number; material: number };

/** A raw connection (better-sqlite3 unless said: node:sqlite's DatabaseSync) and RAW_SQL prepared on it. */
export interface RawDb<C = Database.Database> {
  readonly client: C;
  readonly st: RawStatements;
}

/** One text per statement: the better-sqlite3 and node:sqlite baselines prepare the same. */
const RAW_SQL = {
  insertEvent: `INSERT INTO events (session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  raiseHead: `INSERT INTO heads (session_key, head, prune_watermark) VALUES (?, ?, 0)
       ON CONFLICT (session_key) DO UPDATE SET head = max(head, excluded.head)`,
  cursorsOnTarget: 'SELECT watcher, target, acked, notified, material, touched_at FROM cursors WHERE target = ?',
  updateCursor: 'UPDATE cursors SET acked = ?, notified = ?, material = ?, touched_at = ? WHERE watcher = ? AND target = ?',
  changesSince: `SELECT h.head, h.prune_watermark, (SELECT min(sequence) FROM events WHERE session_key = CAST(? AS TEXT)), e.sequence,
              e.kind, e.actor_type, e.actor_session_key, e.summary, e.payload, e.occurred_at
         FROM heads h LEFT JOIN events e ON e.session_key = h.session_key AND e.sequence > ?
        WHERE h.session_key = CAST(? AS TEXT) ORDER BY e.sequence LIMIT CAST(? AS BIGINT)`,
  pendingCursors: 'SELECT watcher, target, acked, notified, material FROM cursors WHERE material > acked ORDER BY watcher, target',
  raiseNotified: 'UPDATE cursors SET notified = material, touched_at = ? WHERE watcher = ? AND target = ?',
  insertJournal: `INSERT INTO cursor_journal (watcher, target, type, reason, via, acked, notified, material, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
};

/** Every RAW_SQL statement prepared; the rows of the ones read typed (changesSince's positional: [head, prune_watermark, earliest retained, sequence, kind, actor_type, actor_session_key, summary, payload, occurred_at]). */
type Read = {
  readonly cursorsOnTarget: Database.Statement<[string], RawCursor>;
  readonly changesSince: Database.Statement<[string, number, string, number], unknown[]>;
  readonly pendingCursors: Database.Statement<[], RawCursor>;
};
type RawStatements = Read & Record<Exclude<keyof typeof RAW_SQL, keyof Read>, Database.Statement>;

type RawOpen = { readonly existing?: boolean };

/** The store's pragmas and (unless `existing`) the schema on either driver's connection, then RAW_SQL prepared; `asArrays` makes changesSince return positional rows. */
function prepareAll<S, C extends { exec(sql: string): unknown; prepare(sql: string): S }>(client: C, { existing }: RawOpen, asArrays: (changesSince: S) => unknown): RawDb<C> {
  client.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000');
  if (existing !== true) client.exec(RAW_SCHEMA);
  const st = Object.fromEntries(Object.entries(RAW_SQL).map(([name, sql]) => [name, client.prepare(sql)])) as Record<keyof typeof RAW_SQL, S>;
  asArrays(st.changesSince);
  return { client, st: st as unknown as RawStatements };
}

export const openRawDb = (path: string, options: RawOpen = {}): RawDb => prepareAll(new Database(path), options, (s: Database.Statement) => s.raw(true));
export const openNodeRawDb = (path: string, options: RawOpen = {}): RawDb<DatabaseSync> => prepareAll(new DatabaseSync(path), options, (s: StatementSync) => s.setReturnArrays(true));

/** What the bench records; `notifies` says whether the kind moves watchers' cursors. */
export interface RawRecord {
  readonly sessionKey: string;
  readonly kind: string;
  readonly actorType: string;
  readonly actorSessionKey?: string;
  readonly summary: string;
  readonly payload?: Readonly<Record<string, unknown>>;
  readonly notifies: boolean;
}

/** One record per call, one transaction each; returns the sequence. */
export function rawAppender(db: RawDb): (record: RawRecord, now: number) => number {
  const tx = db.client.transaction(appendIn(db.st));
  return (record, now) => tx.immediate(record, now);
}

/** The statements of one append, inside the caller's transaction. */
function appendIn(st: RawStatements): (record: RawRecord, now: number) => number {
  return (record, now) => {
    const onTarget = st.cursorsOnTarget.all(record.sessionKey);
    const payload = record.payload === undefined ? null : JSON.stringify(record.payload);
    const result = st.insertEvent.run(record.sessionKey, record.kind, record.actorType, record.actorSessionKey ?? null, record.summary, payload, null, new Date(now).toISOString(), now);
    const sequence = Number(result.lastInsertRowid);
    st.raiseHead.run(record.sessionKey, sequence);
    for (const c of onTarget) {
      if (!record.notifies || c.watcher === record.actorSessionKey) continue;
      if (c.material <= c.acked) {
        if (sequence <= c.acked) continue;
        st.updateCursor.run(c.acked, sequence, sequence, now, c.watcher, c.target);
        st.insertJournal.run(c.watcher, c.target, 'notice_raised', null, null, c.acked, sequence, sequence, now);
      } else if (sequence > c.material) {
        st.updateCursor.run(c.acked, c.notified, sequence, now, c.watcher, c.target);
      }
    }
    return sequence;
  };
}

/** Shapes [head, prune_watermark, earliest retained, sequence, kind, actor_type, actor_session_key, summary, payload, occurred_at] rows. */
export function shapeChanges(rows: readonly unknown[][], since: number, limit: number, payloadOf: (stored: unknown) => unknown) {
  const first = rows[0];
  const events: Record<string, unknown>[] = [];
  if (first === undefined) return { stateVersion: 0, events, historyGap: false, earliestRetained: 0, hasMore: false, nextSince: since };
  for (let i = 0; i < rows.length && i < limit; i++) {
    const r = rows[i];
    if (r === undefined || r[3] === null) break;
    const event: Record<string, unknown> = { sequence: r[3], kind: r[4], actorType: r[5], summary: r[7], occurredAt: r[9] };
    if (r[6] !== null) event['actorSessionKey'] = r[6];
    if (r[8] !== null) event['payload'] = payloadOf(r[8]);
    events.push(event);
  }
  const last = events[events.length - 1];
  return {
    stateVersion: first[0] as number,
    events,
    historyGap: since < (first[1] as number),
    earliestRetained: (first[2] as number | null) ?? 0,
    hasMore: rows.length > limit,
    nextSince: last === undefined ? since : (last['sequence'] as number),
  };
}

export type RawStatus = ReturnType<typeof shapeChanges>;

export function rawReader(db: Pick<RawDb, 'st'>): (sessionKey: string, since: number, limit: number) => RawStatus {
  return (sessionKey, since, limit) => shapeChanges(db.st.changesSince.all(sessionKey, since, sessionKey, limit + 1), since, limit, (stored) => JSON.parse(stored as string));
}

/** Runs the scan at `now`; returns how many pairs are pending. */
export function rawRestartScan(db: RawDb, now: number): number {
  const { st } = db;
  return db.client
    .transaction((): number => {
      const pending = st.pendingCursors.all();
      for (const c of pending) {
        if (c.notified === c.material) continue;
        st.raiseNotified.run(now, c.watcher, c.target);
        st.insertJournal.run(c.watcher, c.target, 'notice_recovered', null, null, c.acked, c.material, c.material, now);
      }
      return pending.length;
    })
    .immediate();
}

/** Prunes to `maxRows` / `maxAgeMs` at `now`; returns the events deleted. */
export function rawPruneAll(db: RawDb, now: number, maxAgeMs: number, maxRows: number): number {
  const { client } = db;
  const cutoff = now - maxAgeMs;
  const byAge = `SELECT sequence, session_key FROM events WHERE appended_at < @cutoff`;
  const byCap = `SELECT sequence, session_key FROM events WHERE appended_at >= @cutoff ORDER BY sequence
                  LIMIT max(0, (SELECT count(*) FROM events WHERE appended_at >= @cutoff) - @maxRows)`;
  const victims = `${byAge} UNION ALL SELECT * FROM (${byCap})`;
  return client
    .transaction((): number => {
      client
        .prepare(
          `UPDATE heads SET prune_watermark = max(prune_watermark, v.m)
             FROM (SELECT session_key, max(sequence) AS m FROM (${victims}) GROUP BY session_key) AS v
            WHERE heads.session_key = v.session_key`,
        )
        .run({ cutoff, maxRows });
      const deleted = client.prepare(`DELETE FROM events WHERE sequence IN (SELECT sequence FROM (${victims}))`).run({ cutoff, maxRows }).changes;
      const journal = client.prepare(
        `INSERT INTO cursor_journal (watcher, target, type, reason, via, acked, notified, material, recorded_at) VALUES (?, ?, 'watch_ended', 'expired', NULL, ?, ?, ?, ?)`,
      );
      const expired = client.prepare('DELETE FROM cursors WHERE touched_at < ? RETURNING watcher, target, acked, notified, material').all(cutoff) as Record<string, string | number>[];
      for (const c of expired) journal.run(c['watcher'], c['target'], c['acked'], c['notified'], c['material'], now);
      client
        .prepare(
          `DELETE FROM cursor_journal WHERE recorded_at < ? AND (
             NOT EXISTS (SELECT 1 FROM cursors c WHERE c.watcher = cursor_journal.watcher AND c.target = cursor_journal.target)
             OR EXISTS (SELECT 1 FROM cursor_journal l WHERE l.watcher = cursor_journal.watcher AND l.target = cursor_journal.target AND l.position > cursor_journal.position))`,
        )
        .run(cutoff);
      return deleted;
    })
    .immediate();
}

export function nodeRawAppender(db: RawDb<DatabaseSync>): (record: RawRecord, now: number) => number {
  const [begin, commit, rollback] = ['BEGIN IMMEDIATE', 'COMMIT', 'ROLLBACK'].map((sql) => db.client.prepare(sql)) as [StatementSync, StatementSync, StatementSync];
  const append = appendIn(db.st);
  return (record, now) => {
    begin.run();
    try {
      const sequence = append(record, now);
      commit.run();
      return sequence;
    } catch (error) {
      if (db.client.isTransaction) rollback.run();
      throw error;
    }
  };
}

/** Events appended round-robin over the keys, heads raised to match; cursor rows inserted as they are. */
export type EventSeed = { readonly count: number; readonly sessionKeys: readonly string[]; readonly appendedAt: number };
export type CursorSeed = { readonly watcher: string; readonly target: string; readonly acked: number; readonly notified: number; readonly material: number; readonly touchedAt: number };

/** The event every seed and workload writes: a human turn with a small payload. */
export const SEED_EVENT = { kind: 'human_direct_message', actorType: 'human', summary: 'human message via bench', payload: { channel: 'bench' } } as const;

export function seedEvents(client: Database.Database, seed: EventSeed): void {
  const insert = client.prepare(
    `INSERT INTO events (session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at) VALUES (?, ?, ?, NULL, ?, ?, NULL, ?, ?)`,
  );
  const head = client.prepare(`INSERT INTO heads (session_key, head, prune_watermark) VALUES (?, ?, 0) ON CONFLICT (session_key) DO UPDATE SET head = max(head, excluded.head)`);
  const payload = JSON.stringify(SEED_EVENT.payload);
  const occurredAt = new Date(seed.appendedAt).toISOString();
  client.transaction(() => {
    for (let i = 0; i < seed.count; i++) {
      const key = seed.sessionKeys[i % seed.sessionKeys.length] as string;
      head.run(key, Number(insert.run(key, SEED_EVENT.kind, SEED_EVENT.actorType, SEED_EVENT.summary, payload, occurredAt, seed.appendedAt).lastInsertRowid));
    }
  })();
}

export function seedCursors(client: Database.Database, rows: Iterable<CursorSeed>): void {
  const insert = client.prepare('INSERT INTO cursors (watcher, target, acked, notified, material, touched_at) VALUES (?, ?, ?, ?, ?, ?)');
  client.transaction(() => {
    for (const r of rows) insert.run(r.watcher, r.target, r.acked, r.notified, r.material, r.touchedAt);
  })();
}

/** The cursor `sent({ watch: true })` makes before any append: at head 0, idle. */
export const idleCursor = (pair: { readonly watcher: string; readonly target: string }, now: number): CursorSeed => ({ ...pair, acked: 0, notified: 0, material: 0, touchedAt: now });

// Seeds a database file (raw, or the library's own beside the store) with events, heads and
// cursors by plain SQL, so both sides start identical.
import type Database from 'better-sqlite3';

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

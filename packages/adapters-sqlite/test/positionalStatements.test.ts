// A statement bound by position must take its values in the order drizzle renders its
// placeholders: a mismatch is refused when the statements are rendered, so no value lands in another column.
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';

import { renderPositional } from '../src/sql/render.js';
import { openStoreDb } from '../src/db/openStoreDb.js';
import { heads } from '../src/schema.js';

test('renderPositional refuses an order that is not the rendered placeholder order, naming the statement', () => {
  const client = new Database(':memory:');
  try {
    const orm = drizzle(client);
    const query = orm.insert(heads).values({ sessionKey: sql.placeholder('sessionKey'), head: sql.placeholder('head'), pruneWatermark: sql.placeholder('pruneWatermark') });
    expect(() => renderPositional(query, 'writeHead', ['head', 'sessionKey', 'pruneWatermark'])).toThrow(/writeHead: the placeholders render as \(sessionKey, head, pruneWatermark\)/);
    expect(() => renderPositional(query, 'writeHead', ['sessionKey', 'head'])).toThrow(/writeHead/);
  } finally {
    client.close();
  }
});

test('the positional event insert stores each value in its own column', () => {
  const db = openStoreDb({ path: ':memory:' });
  try {
    const at = Date.UTC(2026, 0, 2);
    const iso = new Date(at).toISOString();
    const result = db.statements.insertEvent.run('agent:a:main', 'compacted', 'system', 'agent:b:main', 'a summary', '{"k":1}', 'dk', iso, at);
    const row = db.client.prepare('SELECT session_key, kind, actor_type, actor_session_key, summary, payload, dedupe_key, occurred_at, appended_at FROM events WHERE sequence = ?').get(result.lastInsertRowid);
    expect(row).toEqual({
      session_key: 'agent:a:main',
      kind: 'compacted',
      actor_type: 'system',
      actor_session_key: 'agent:b:main',
      summary: 'a summary',
      payload: '{"k":1}',
      dedupe_key: 'dk',
      occurred_at: iso,
      appended_at: at,
    });
  } finally {
    db.client.close();
  }
});

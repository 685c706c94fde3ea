// The raw baseline on node:sqlite: the same schema, pragmas and statements as rawDb.ts, prepared
// on Node's DatabaseSync, and the append in a BEGIN IMMEDIATE … COMMIT of prepared statements, as
// a gateway using node:sqlite directly would write it.
import { DatabaseSync, type StatementSync } from 'node:sqlite';

import { appendIn, type RawRecord } from './append.js';
import { RAW_SQL, type RawStatements } from './rawDb.js';
import { RAW_SCHEMA } from './schema.js';

export interface NodeRawDb {
  readonly client: DatabaseSync;
  /** StatementSync takes and returns what better-sqlite3's statements do for the calls the baseline makes. */
  readonly st: RawStatements;
}

/** Opens `path` with the library's pragmas, creating the mirrored schema unless `existing`. */
export function openNodeRawDb(path: string, options: { readonly existing?: boolean } = {}): NodeRawDb {
  const client = new DatabaseSync(path);
  client.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000');
  if (options.existing !== true) client.exec(RAW_SCHEMA);
  const st: Record<string, StatementSync> = {};
  for (const [name, sql] of Object.entries(RAW_SQL)) st[name] = client.prepare(sql);
  st['changesSince']?.setReturnArrays(true);
  return { client, st: st as unknown as RawStatements };
}

/** One record per call in its own write transaction; returns the sequence. */
export function nodeRawAppender(db: NodeRawDb): (record: RawRecord, now: number) => number {
  const begin = db.client.prepare('BEGIN IMMEDIATE');
  const commit = db.client.prepare('COMMIT');
  const rollback = db.client.prepare('ROLLBACK');
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

// The raw baseline on node:sqlite: the same schema, pragmas and statements as rawDb.ts, on
// Node's DatabaseSync, the append in a BEGIN IMMEDIATE … COMMIT of prepared statements.
import { DatabaseSync, type StatementSync } from 'node:sqlite';

import { appendIn, type RawRecord } from './append.js';
import { RAW_PRAGMAS, RAW_SCHEMA, RAW_SQL, type RawStatements } from './rawDb.js';

export interface NodeRawDb {
  readonly client: DatabaseSync;
  readonly st: RawStatements;
}

export function openNodeRawDb(path: string, options: { readonly existing?: boolean } = {}): NodeRawDb {
  const client = new DatabaseSync(path);
  client.exec(RAW_PRAGMAS);
  if (options.existing !== true) client.exec(RAW_SCHEMA);
  const st: Record<string, StatementSync> = {};
  for (const [name, sql] of Object.entries(RAW_SQL)) st[name] = client.prepare(sql);
  st['changesSince']?.setReturnArrays(true);
  return { client, st: st as unknown as RawStatements };
}

/** One record per call in its own write transaction; returns the sequence. */
export function nodeRawAppender(db: NodeRawDb): (record: RawRecord, now: number) => number {
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

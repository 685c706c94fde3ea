// The corrupt-row policy is part of the StateStore contract (testkit corruptRows.features.ts); this
// is SQLite's default report: without onCorruptRow a corrupt row is a console warning naming the
// sequence, never the content.
import Database from 'better-sqlite3';
import { asSequence, decodeRecordInput, type SessionKey } from '@session-state/domain';
import { tempDbPath } from '@session-state/testkit';

import { openSqliteStore } from '../src/index.js';

const KEY = 'agent:a:main' as SessionKey;
const SECRET = 'do-not-log-this-content';

test('by default a corrupt row is reported with console.warn, naming the sequence and never the content', async () => {
  const temp = tempDbPath();
  const store = openSqliteStore({ path: temp.path });
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    const outcomes = await store.append(
      [0, 1].map((i) => {
        const decoded = decodeRecordInput({ sessionKey: KEY, kind: 'goal_changed', actorType: 'agent', summary: `event ${i}`, payload: { n: i } });
        if (decoded._tag === 'Left') throw new Error(decoded.left.message);
        return { command: decoded.right, appendedAt: 1_000 };
      }),
    );
    const seqs = outcomes.map((o) => (o.type === 'appended' ? o.event.sequence : Number.NaN));
    const raw = new Database(temp.path);
    raw.prepare('UPDATE events SET payload = ? WHERE sequence = ?').run(`{${SECRET}`, seqs[0]);
    raw.close();
    const page = await store.readChanges(KEY, asSequence(0), 200);
    expect(page.events.map((e) => e.sequence)).toEqual([seqs[1]]);
    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0]?.[0]);
    expect(message).toContain(`sequence ${seqs[0]}`);
    expect(message).not.toContain(SECRET);
  } finally {
    warn.mockRestore();
    await store.close();
    temp.remove();
  }
});

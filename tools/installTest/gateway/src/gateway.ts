// A tiny gateway, as a project outside the repository writes it against the installed packages:
// for each store, a parent spawns a child, a human takes a turn in the child, the parent's next
// turn drains the one notice and reconciles with status. Exits 1 on the first surprise.
import { createSessionStateAwareness, InvalidInputError, type SessionStateAwareness, type StateStore } from '@session-state/app';
import { createMemoryStore } from '@session-state/adapters-memory';
import { openPostgresStore } from '@session-state/adapters-postgres';
import { openSqliteStore } from '@session-state/adapters-sqlite';

const PARENT = 'agent:main:main';
const CHILD = 'agent:main:subagent:researcher';

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`install test gateway: ${what}`);
}

async function oneStory(name: string, store: StateStore): Promise<void> {
  const wakes: string[] = [];
  const warnings: string[] = [];
  const logger = { warn: (_fields: object, message: string) => void warnings.push(message), error: (_fields: object, message: string) => void warnings.push(message) };
  const awareness: SessionStateAwareness = await createSessionStateAwareness({ store, logger, wake: (watcher) => void wakes.push(watcher) });
  try {
    const spawn = await awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    check(spawn.ok, `${name}: childSpawned failed`);
    const spawnedAt = spawn.ok ? spawn.event.sequence : 0;

    const human = await awareness.record({ sessionKey: CHILD, kind: 'human_direct_message', actorType: 'human', summary: 'human message via telegram', payload: { channel: 'telegram' } });
    check(human.ok, `${name}: record failed`);
    check(wakes.length === 1 && wakes[0] === PARENT, `${name}: expected one wake of the parent, got ${JSON.stringify(wakes)}`);

    const notices = await awareness.drain(PARENT);
    check(notices.length === 1, `${name}: expected one notice, got ${notices.length}`);
    const since = notices[0]?.changesSince ?? -1;
    check(since === spawnedAt, `${name}: the notice says changesSince ${since}, expected ${spawnedAt}`);
    check(notices[0]?.text.endsWith(`changesSince ${since}.`) === true, `${name}: the notice text does not end with its changesSince`);

    const { stateVersion, stateChanges } = await awareness.status(CHILD, { changesSince: since });
    const kinds = (stateChanges?.events ?? []).map((event) => event.kind);
    check(kinds.join() === 'human_direct_message', `${name}: status since ${since} lists ${kinds.join()}`);

    const refused = await awareness.record({ sessionKey: 'not a key', kind: 'goal_changed', actorType: 'human', summary: 's' });
    check(!refused.ok && refused.error instanceof InvalidInputError, `${name}: a bad key was not an InvalidInputError`);
    check(warnings.length === 1, `${name}: expected the refused record in the log, got ${warnings.length} lines`);
    console.log(`${name}: spawn #${spawnedAt}, 1 wake, 1 notice (changesSince ${since}), status version ${stateVersion}: ${kinds.join()}`);
  } finally {
    await awareness.close();
  }
}

async function main(): Promise<void> {
  const [sqlitePath, postgresUrl, postgresSchema] = process.argv.slice(2);
  await oneStory('memory', createMemoryStore());
  if (sqlitePath === undefined) throw new Error('usage: node dist/gateway.js <sqlite file> [<postgres url> <schema>]');
  await oneStory('sqlite', openSqliteStore({ path: sqlitePath }));
  if (postgresUrl !== undefined && postgresUrl !== '') {
    await oneStory('postgres', await openPostgresStore({ connectionString: postgresUrl, schema: postgresSchema ?? 'install_test' }));
  } else {
    console.log('postgres: not run (SESSION_STATE_PG_URL is not set)');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

// A state file left by a gateway that was SIGKILLed mid-work: its last commits are still in the
// -wal (never checkpointed), beside the -shm, as a crash leaves them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const APP_DIST = path.resolve(__dirname, '..', '..', '..', 'app', 'dist', 'index.js');

/** What the crashed gateway committed: the session it wrote to and its head. */
export interface CrashedGateway {
  readonly sessionKey: string;
  readonly head: number;
  readonly watcher: string;
}

const CHILD = `
const { createSessionStateAwareness } = require(${JSON.stringify(APP_DIST)});
const { openSqliteStore } = require('@session-state/adapters-sqlite');
(async () => {
  const awareness = await createSessionStateAwareness({ store: openSqliteStore({ path: process.argv[1] }), logger: { warn() {}, error() {} } });
  await awareness.sent({ senderKey: 'agent:watcher:main', deliveredTo: 'agent:crashed:main', watch: true });
  let head = 0;
  for (let i = 0; i < 5; i += 1) {
    const result = await awareness.record({ sessionKey: 'agent:crashed:main', kind: 'goal_changed', actorType: 'human', summary: 'goal ' + i });
    head = result.event.sequence;
  }
  process.stdout.write(String(head));
  process.kill(process.pid, 'SIGKILL');
})();`;

/** Makes `file` as a gateway that crashed would leave it; fails unless the -wal holds its commits. */
export function crashedGatewayFile(file: string): CrashedGateway {
  const child = spawnSync(process.execPath, ['-e', CHILD, file], { encoding: 'utf8', cwd: path.dirname(APP_DIST), timeout: 30_000 });
  if (child.signal !== 'SIGKILL') throw new Error(`the gateway child did not crash: ${child.stderr}`);
  if (!fs.existsSync(`${file}-wal`) || fs.statSync(`${file}-wal`).size === 0 || !fs.existsSync(`${file}-shm`)) {
    throw new Error('the crashed gateway left no -wal with commits');
  }
  return { sessionKey: 'agent:crashed:main', head: Number(child.stdout), watcher: 'agent:watcher:main' };
}

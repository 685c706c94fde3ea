// The demo's state file: made fresh for each run, and only ever replacing a file the demo made.
import fs from 'node:fs';

import { StorageError, UsageError } from '../output/errors.js';
import type { StateFilePath } from './stateLocation.js';

/** The label the demo writes into every file it makes, and the only proof it accepts that it made one. */
export const DEMO_LABEL = 'session-state demo';

/**
 * The refusal to replace `file`, with the way out: another --db, given to the tool directly or
 * through `npm start` (whose script runs the demo on the default file), since `npm start --db x`
 * would give --db to npm rather than to the demo.
 */
function refuse({ path: file, tool }: StateFilePath, why: string): UsageError {
  return new UsageError(
    '--db',
    `${file} ${why}; the demo only replaces a file it made itself, so refusing to remove it; ` +
      `choose another --db: "${tool} demo --db demo.db", or from this repository "npm start -- --db demo.db"`,
  );
}

/**
 * Removes a previous demo file (and its -wal/-shm) at `file`. The decision is positive: the file
 * must carry the demo's label (written only by the demo, never by a gateway) and hold none but
 * the demo's sessions (a demo file a gateway went on to use is kept). Everything is read
 * read-only, so a refused file is left byte for byte as it was.
 */
export async function removePreviousDemoFile(at: StateFilePath, demoKeys: readonly string[]): Promise<boolean> {
  const { path: file, file: opened } = at;
  const { openSqliteStore, probeStateFile, stateFileLabels } = await import('@session-state/adapters-sqlite');
  const probe = probeStateFile(opened);
  if (probe.kind === 'missing') return false;
  if (probe.kind === 'not-a-file') throw refuse(at, `is ${probe.what}, not a state file`);
  if (probe.kind === 'unreadable') throw new StorageError(`cannot read ${file}: ${probe.reason}; refusing to remove it`);
  if (probe.kind === 'empty') throw refuse(at, 'is an empty file');
  if (probe.kind === 'foreign') throw refuse(at, `is not a session-state file (${probe.reason})`);
  if (!stateFileLabels(opened).includes(DEMO_LABEL)) {
    throw refuse(at, 'is a session-state file the demo did not make (if it is a demo file of an older version, delete it yourself)');
  }
  const previous = openSqliteStore({ path: opened, readOnly: true });
  const [heads, cursors] = await Promise.all([previous.readHeads(), previous.listCursors()]).finally(() => previous.close());
  const keys = [...heads.map((row) => row.sessionKey), ...cursors.flatMap((row) => [row.watcher, row.target])];
  const foreign = keys.find((key) => !demoKeys.includes(key));
  if (foreign !== undefined) throw refuse(at, `holds sessions other than the demo's (${foreign})`);
  (await import('./stateFile.js')).requireWritable(at);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${opened}${suffix}`, { force: true });
  return true;
}

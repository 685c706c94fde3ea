// Where the state file is: the path as the user named it and as it is opened. Kept apart from
// stateFile.ts (which loads the SQLite adapter) so that naming a file costs no driver load.
import fs from 'node:fs';
import nodePath from 'node:path';

import { orElse } from '../orElse.js';
import { toolCommand } from '../toolCommand.js';

/** The state file when neither `--db` nor `SESSION_STATE_DB` names one. */
export const DEFAULT_DB_PATH = './session-state.db';

/** The environment variable that names the state file. */
export const DB_ENV = 'SESSION_STATE_DB';

/**
 * A state file as the user named it (`path`, the text every message shows) and as it is opened
 * (`file`, resolved against the run's working directory rather than the process's, symbolic
 * links resolved: SQLite keeps the -wal and -shm beside the link's target), and the
 * command that runs this tool from that directory (`tool`), for the hints messages give.
 */
export interface StateFilePath {
  readonly path: string;
  readonly file: string;
  readonly tool: string;
}

/** `file` with its links resolved; a file not created yet by its folder's real path; as given when that cannot be resolved either. */
function realFile(file: string): string {
  return orElse(() => fs.realpathSync(file), undefined) ?? orElse(() => nodePath.join(fs.realpathSync(nodePath.dirname(file)), nodePath.basename(file)), file);
}

/** The state file `path` names when relative paths start at `cwd` (`:memory:` is SQLite's name for no file, kept as it is). */
export function stateFilePath(path: string, cwd: string): StateFilePath {
  return { path, file: path === ':memory:' ? path : realFile(nodePath.resolve(cwd, path)), tool: toolCommand(cwd) };
}

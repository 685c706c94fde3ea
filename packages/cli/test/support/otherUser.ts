// Running the CLI as another OS user than the owner of the state file: as root, through
// `setpriv` as nobody (root itself bypasses file permissions); as any other user, as itself.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

import { CLI_MAIN, type CliRun } from './runCli.js';

/** The command prefix that runs a program as a user who does not own the test's files. */
export function otherUserPrefix(): string[] {
  if (process.getuid?.() !== 0) return [];
  if (!fs.existsSync('/usr/bin/setpriv')) throw new Error('running as root needs setpriv (util-linux) to test as another user');
  return ['/usr/bin/setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
}

/** The uid the other user has (the files it creates belong to it). */
export function otherUid(): number {
  return process.getuid?.() === 0 ? 65534 : (process.getuid?.() ?? -1);
}

/** Runs `session-state <args>` as the other user, to completion. */
export function runCliAsOtherUser(args: readonly string[]): CliRun {
  const [program, ...prefixArgs] = [...otherUserPrefix(), process.execPath];
  const env: Record<string, string | undefined> = { ...process.env };
  delete env['SESSION_STATE_DB'];
  delete env['SESSION_STATE_PG_SCHEMA'];
  const result = spawnSync(program ?? process.execPath, [...prefixArgs, CLI_MAIN, ...args], { encoding: 'utf8', env, timeout: 30_000 });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A folder anyone may enter and write (as a shared /tmp folder would be), so only the file's own permissions decide. */
export function openToEveryone(dir: string): void {
  fs.chmodSync(dir, 0o777);
}

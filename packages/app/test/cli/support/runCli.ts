// Runs the built `session-state` tool as a child process, as a user would, against temp files.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The built entry point; `npm test` builds it first (or `npx tsc -b packages/app`). */
export const CLI_MAIN = path.resolve(__dirname, '..', '..', '..', 'dist', 'cli', 'main.js');

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Fails early, with the fix, when the CLI has not been built. */
export function requireBuiltCli(): void {
  if (!fs.existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: build first with npx tsc -b packages/app`);
}

/** Runs `session-state <args>` to completion; the environment never names a state file or schema by accident. */
export function runCli(args: readonly string[], env: Readonly<Record<string, string>> = {}): CliRun {
  const baseEnv: Record<string, string | undefined> = { ...process.env };
  delete baseEnv['SESSION_STATE_DB'];
  delete baseEnv['SESSION_STATE_PG_SCHEMA'];
  const result: SpawnSyncReturns<string> = spawnSync(process.execPath, [CLI_MAIN, ...args], {
    encoding: 'utf8',
    env: { ...baseEnv, ...env },
    timeout: 30_000,
  });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A fresh temp directory for one suite's state files. */
export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'session-state-cli-'));
}

/** Parses a command's JSON stdout. */
export function jsonOf<T>(run: CliRun): T {
  return JSON.parse(run.stdout) as T;
}

/** The spec's notice text (SPEC 5), written out here so the tests check the CLI against the spec. */
export function specNotice(target: string, acked: number): string {
  return `Session "${target}" changed (other actor). Reconcile before acting: session_status sessionKey "${target}" changesSince ${acked}.`;
}

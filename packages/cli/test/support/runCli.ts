// Runs the `session-state` tool for a test: in this process through `main(argv, io)` (most tests:
// no child, the sources themselves), or as a child process from the built bin (the smoke tests of
// what only a real process shows: start-up, exit codes, pipes, signals, another OS user), which
// first checks that the build is not older than the sources.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { CliIo } from '../../src/output/io.js';
import { main } from '../../src/main.js';

/** The bin a user runs: the committed launcher, which loads the built entry point. */
export const CLI_MAIN = path.resolve(__dirname, '..', '..', 'bin', 'session-state.js');
/** The built entry point the launcher loads; `npm test` builds it first (or `npm run build`). */
const BUILT_MAIN = path.resolve(__dirname, '..', '..', 'dist', 'main.js');

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The test's environment without the variables that would name a state file or schema by accident. */
function cleanEnv(env: Readonly<Record<string, string>>): Record<string, string | undefined> {
  const base: Record<string, string | undefined> = { ...process.env };
  delete base['SESSION_STATE_DB'];
  delete base['SESSION_STATE_PG_SCHEMA'];
  return { ...base, ...env };
}

// --- in process ------------------------------------------------------------------------------------

/**
 * Runs `session-state <args>` in this process to completion, its output collected, with `cwd`
 * (this process's by default) as its working directory; the environment never names a state
 * file or schema by accident.
 */
export async function runCli(args: readonly string[], env: Readonly<Record<string, string>> = {}, cwd = process.cwd()): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: {
      write: (text: string) => {
        stdout += text;
        return true;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
        return true;
      },
    },
    env: cleanEnv(env),
    cwd,
    // No test interrupts an in-process run: following until Ctrl-C is a spawned test's job.
    onInterrupt: () => () => undefined,
  };
  const status = await main(args, io);
  return { status, stdout, stderr };
}

// --- as a child process ------------------------------------------------------------------------------

const PACKAGES = path.resolve(__dirname, '..', '..', '..');

/** The newest source file of a package and its time, or undefined when it has none. */
function newestSource(dir: string): { readonly file: string; readonly mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const { mtimeMs } = fs.statSync(file);
        if (newest === undefined || mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return newest;
}

/**
 * Fails early, with the fix, unless every workspace package's build (its dist/.tsbuildinfo,
 * which `tsc -b` rewrites whenever it builds the package) is at least as new as its newest
 * source: a spawned test must never pass or fail on a stale build. `npm test` builds first.
 */
export function requireBuiltCli(): void {
  if (!fs.existsSync(BUILT_MAIN)) throw new Error(`${BUILT_MAIN} is missing: build first with npm run build`);
  for (const name of fs.readdirSync(PACKAGES)) {
    const source = newestSource(path.join(PACKAGES, name, 'src'));
    if (source === undefined) continue;
    const buildInfo = path.join(PACKAGES, name, 'dist', '.tsbuildinfo');
    const builtAt = fs.existsSync(buildInfo) ? fs.statSync(buildInfo).mtimeMs : -1;
    if (builtAt < source.mtimeMs) {
      throw new Error(`the build of packages/${name} is older than ${path.relative(PACKAGES, source.file)}: run npm run build before the spawned CLI tests`);
    }
  }
}

/**
 * Runs the built `session-state <args>` as a child process to completion (in `cwd`, this
 * process's by default); the environment never names a state file or schema by accident.
 */
export function spawnCli(args: readonly string[], env: Readonly<Record<string, string>> = {}, cwd?: string): CliRun {
  const result: SpawnSyncReturns<string> = spawnSync(process.execPath, [CLI_MAIN, ...args], {
    encoding: 'utf8',
    env: cleanEnv(env),
    timeout: 30_000,
    ...(cwd !== undefined ? { cwd } : {}),
  });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// --- helpers ---------------------------------------------------------------------------------------

/** A fresh temp directory for one suite's state files. */
export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'session-state-cli-'));
}

/**
 * A fresh temp directory for the whole suite, made before its first test and removed after its
 * last; call it at the top level of a test file and read `path` inside the tests.
 */
export function suiteTempDir(): { readonly path: string } {
  let dir: string | undefined;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => {
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get path(): string {
      if (dir === undefined) throw new Error('suiteTempDir: read path inside a test, not while the file loads');
      return dir;
    },
  };
}

/** Parses a command's JSON stdout. */
export function jsonOf<T>(run: CliRun): T {
  return JSON.parse(run.stdout) as T;
}

/** The spec's notice text (SPEC 5), written out here so the tests check the CLI against the spec. */
export function specNotice(target: string, acked: number): string {
  return `Session "${target}" changed (other actor). Reconcile before acting: session_status sessionKey "${target}" changesSince ${acked}.`;
}

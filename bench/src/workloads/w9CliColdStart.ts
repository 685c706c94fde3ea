// Workload 9: the command line's cold start (`--version`, `status <key>`), spawned to exit, against
// `node -e 0`; the figure is the median, the samples alternate between the sides.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

import { summarise } from '../harness/measure.js';
import type { BenchContext, Check, SideResult, WorkloadResult } from '../harness/context.js';

const CLI_BIN = resolve(import.meta.dirname, '..', '..', '..', 'packages', 'cli', 'bin', 'session-state.js');
/** Targets: median spawn-to-exit time as a multiple of `node -e 0`'s. */
const COLD_START_TARGETS = { version: 2, status: 3.5 } as const;
const SESSION = 'agent:main:main';

/** Runs `args` under node to exit, without the variables that would point the CLI elsewhere; its wall time in ns. */
function spawnOnce(args: readonly string[]): number {
  const env = { ...process.env };
  delete env['SESSION_STATE_DB'];
  delete env['SESSION_STATE_PG_SCHEMA'];
  const t0 = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', env });
  const ns = Number(process.hrtime.bigint() - t0);
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${String(result.status)}: ${result.stderr}`);
  return ns;
}

/** Alternating samples of the CLI run and `node -e 0`, after one unmeasured run of each. */
function measurePair(cliArgs: readonly string[], samples: number, op: string): [SideResult, SideResult] {
  const cliNs: number[] = [];
  const nodeNs: number[] = [];
  spawnOnce([CLI_BIN, ...cliArgs]);
  spawnOnce(['-e', '0']);
  for (let i = 0; i < samples; i++) {
    cliNs.push(spawnOnce([CLI_BIN, ...cliArgs]));
    nodeNs.push(spawnOnce(['-e', '0']));
  }
  return [{ side: 'library', op, ...summarise(cliNs) }, { side: 'raw', op: 'node -e 0, spawned to exit', ...summarise(nodeNs) }];
}

function check(name: string, [cli, node]: readonly SideResult[], target: number): Check {
  const r = (cli?.p50Us ?? Number.NaN) / (node?.p50Us ?? Number.NaN);
  return { target: `${name} median spawn-to-exit ≤ ${target}× node -e 0`, measured: `${r.toFixed(2)}× (${((cli?.p50Us ?? 0) / 1000).toFixed(0)} ms against ${((node?.p50Us ?? 0) / 1000).toFixed(0)} ms)`, met: r <= target };
}

export function w9CliColdStart(ctx: BenchContext): Promise<WorkloadResult[]> {
  const samples = ctx.quick ? 6 : 30;
  const db = ctx.tempDb('w9-cli');
  spawnOnce([CLI_BIN, 'record', SESSION, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'cold start', '--db', db]);
  ctx.progress.update('9 CLI cold start: --version', 0, 2);
  const version = measurePair(['--version'], samples, 'session-state --version, spawned to exit');
  ctx.progress.update('9 CLI cold start: status', 1, 2);
  const status = measurePair(['status', SESSION, '--db', db], samples, 'session-state status on a state file, spawned to exit');
  return Promise.resolve([
    { id: '9', title: 'CLI cold start: --version', sides: version, checks: [check('--version', version, COLD_START_TARGETS.version)] },
    { id: '9s', title: 'CLI cold start: status (SQLite)', sides: status, checks: [check('status', status, COLD_START_TARGETS.status)] },
  ]);
}

// Runs heapChurn.mjs (record while the heap churns, then close) in a child process on the Node
// running the suite: the SQLite driver must not abort or crash the process on any supported Node.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, 'heapChurn.mjs');

test('recording while the heap churns, then closing, exits 0 on this Node', () => {
  const dir = mkdtempSync(join(tmpdir(), 'session-state-churn-'));
  try {
    const run = spawnSync(process.execPath, [SCRIPT, join(dir, 'state.db')], { encoding: 'utf8', timeout: 60_000 });
    expect({ signal: run.signal, status: run.status, stderr: run.stderr }).toEqual({ signal: null, status: 0, stderr: '' });
    expect(run.stdout.trim()).toBe('ok 10 20000');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

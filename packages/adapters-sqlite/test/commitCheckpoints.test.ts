// The checkpoints of everyday writes: in the worker at the WAL's one bound with every operation
// waiting for it, and when the writes pause with enough of the WAL not copied back; never beside a
// steady write load.
import { createCommitCheckpoints, createWriteGate, type CommitCheckpointOptions, type WalSize, type WriteGate } from '../src/worker/walBound.js';
import { manualCheckpointer, type ManualCheckpointer } from './support/manualCheckpointer.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A schedule over a manual checkpointer and a WAL whose size the test sets; `reads` counts the size reads. */
function setUp(options: Partial<CommitCheckpointOptions> = {}) {
  const checkpointer = manualCheckpointer();
  const gate = createWriteGate();
  const wal = { size: { walFrames: 0, checkpointed: 0 } as WalSize, reads: 0 };
  const schedule = createCommitCheckpoints(checkpointer, gate, {
    walSize: () => {
      wal.reads += 1;
      return wal.size;
    },
    walFramesBeforeWait: 1000,
    idleCheckpointFrames: 100,
    idleMs: 20,
    onFallback: () => undefined,
    ...options,
  });
  return { checkpointer, gate, wal, schedule };
}

/** Whether an operation run through the gate now runs before the test's next turn. */
async function runsAtOnce(gate: WriteGate): Promise<{ readonly ran: boolean; readonly settled: Promise<void> }> {
  let ran = false;
  const settled = Promise.resolve(
    gate.run(() => {
      ran = true;
    }),
  );
  await turn();
  return { ran, settled };
}

test('a commit that leaves the WAL at its bound, not all copied back, holds every operation until a checkpoint ends', async () => {
  const { checkpointer, gate, wal, schedule } = setUp();
  wal.size = { walFrames: 1000, checkpointed: 200 };
  schedule.committed();
  expect(checkpointer.runs).toBe(1);
  const held = await runsAtOnce(gate);
  expect(held.ran).toBe(false);
  await checkpointer.finish();
  await held.settled;
  // The next commit starts the WAL over: operations run at once again.
  wal.size = { walFrames: 10, checkpointed: 0 };
  schedule.committed();
  expect((await runsAtOnce(gate)).ran).toBe(true);
  expect(checkpointer.runs).toBe(1);
});

test('at the bound with every frame copied back (the next commit starts the WAL over), nothing waits and no checkpoint starts', async () => {
  const { checkpointer, gate, wal, schedule } = setUp();
  wal.size = { walFrames: 1200, checkpointed: 1200 };
  schedule.committed();
  expect(checkpointer.runs).toBe(0);
  expect((await runsAtOnce(gate)).ran).toBe(true);
});

test('below half the bound, commits that keep coming start no checkpoint beside them', async () => {
  const { checkpointer, wal, schedule } = setUp();
  wal.size = { walFrames: 450, checkpointed: 0 };
  for (let i = 0; i < 8; i += 1) {
    schedule.committed();
    await sleep(5);
  }
  expect(checkpointer.runs).toBe(0);
});

/** Commits `count` more of `frames` frames each onto the WAL's current size. */
function commitFrames(setup: ReturnType<typeof setUp>, count: number, frames: number): void {
  for (let i = 0; i < count; i += 1) {
    setup.wal.size = { walFrames: setup.wal.size.walFrames + frames, checkpointed: setup.wal.size.checkpointed };
    setup.schedule.committed();
  }
}

test('small commits start no checkpoint beside the writes on the way to the bound, half way and past it', async () => {
  const setup = setUp();
  // 5 frames a commit: 200 commits fill the 1,000-frame bound.
  commitFrames(setup, 199, 5);
  await sleep(5);
  expect(setup.checkpointer.runs).toBe(0);
  expect((await runsAtOnce(setup.gate)).ran).toBe(true);
  commitFrames(setup, 1, 5);
  expect(setup.checkpointer.runs).toBe(1);
  expect((await runsAtOnce(setup.gate)).ran).toBe(false);
});

test('a pause in the writes with enough frames not copied back starts a checkpoint that holds nothing', async () => {
  const { checkpointer, gate, wal, schedule } = setUp();
  wal.size = { walFrames: 300, checkpointed: 0 };
  schedule.committed();
  await sleep(40);
  expect(checkpointer.runs).toBe(1);
  expect((await runsAtOnce(gate)).ran).toBe(true);
});

test('a pause with fewer frames not copied back than the idle threshold starts no checkpoint', async () => {
  const { checkpointer, wal, schedule } = setUp();
  wal.size = { walFrames: 400, checkpointed: 350 };
  for (let i = 0; i < 8; i += 1) schedule.committed();
  await sleep(40);
  expect(checkpointer.runs).toBe(0);
});

test('below half the bound with small commits the size is read at the first commit and once in eight after, from half the bound on at every commit', () => {
  const { wal, schedule } = setUp();
  wal.size = { walFrames: 100, checkpointed: 0 };
  for (let i = 0; i < 16; i += 1) schedule.committed();
  expect(wal.reads).toBe(2);
  wal.size = { walFrames: 500, checkpointed: 0 };
  schedule.committed();
  expect(wal.reads).toBe(3);
  for (let i = 0; i < 4; i += 1) schedule.committed();
  expect(wal.reads).toBe(7);
});

test('when checkpoints fall back to the store connection, the schedule hands the WAL back to the auto-checkpoint once and reads it no more', async () => {
  let fallbacks = 0;
  const { checkpointer, wal, schedule } = setUp({
    onFallback: () => {
      fallbacks += 1;
    },
  });
  wal.size = { walFrames: 1000, checkpointed: 0 };
  schedule.committed();
  (checkpointer as ManualCheckpointer).usable = false;
  await checkpointer.finish();
  expect(fallbacks).toBe(1);
  const reads = wal.reads;
  for (let i = 0; i < 16; i += 1) schedule.committed();
  await sleep(40);
  expect(wal.reads).toBe(reads);
  expect(checkpointer.runs).toBe(1);
  expect(fallbacks).toBe(1);
});

test('once stopped (the store closing), a pending pause starts no checkpoint and commits read nothing', async () => {
  const { checkpointer, wal, schedule } = setUp();
  wal.size = { walFrames: 300, checkpointed: 0 };
  schedule.committed();
  schedule.stop();
  const reads = wal.reads;
  schedule.committed();
  await sleep(40);
  expect(checkpointer.runs).toBe(0);
  expect(wal.reads).toBe(reads);
});

test('large commits wait at the same one bound: commits of 60 frames run at once until the WAL holds 1,000 frames', async () => {
  const setup = setUp();
  commitFrames(setup, 16, 60);
  expect(setup.checkpointer.runs).toBe(0);
  expect((await runsAtOnce(setup.gate)).ran).toBe(true);
  commitFrames(setup, 1, 60);
  expect(setup.checkpointer.runs).toBe(1);
  const held = await runsAtOnce(setup.gate);
  expect(held.ran).toBe(false);
  await setup.checkpointer.finish();
  await held.settled;
});

test('commits large enough to pass half the bound within the skipped reads are read at every commit, also far below it', () => {
  const setup = setUp();
  // Read at the first and the ninth commit: 60 frames a commit.
  commitFrames(setup, 9, 60);
  expect(setup.wal.reads).toBe(2);
  // The WAL started over; eight such commits would pass half of the 1,000-frame bound.
  setup.wal.size = { walFrames: 0, checkpointed: 0 };
  commitFrames(setup, 2, 60);
  expect(setup.wal.reads).toBe(4);
});

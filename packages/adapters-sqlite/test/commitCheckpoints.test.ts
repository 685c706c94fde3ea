// The checkpoints of everyday writes: started after commits, one at a time and at most one per
// interval, and once one reports the WAL at its bound, the store's operations wait for the next.
import { createCommitCheckpoints } from '../src/commitCheckpoints';
import { createWriteGate } from '../src/writeGate';
import { manualCheckpointer } from './support/manualCheckpointer';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const noFallback = { intervalMs: 0, firstAfterCommits: 0, firstAfterMs: 0, walFramesBeforeWait: 1000, onFallback: () => undefined };

test('a commit starts a checkpoint; commits while it runs start one more after it, not one each', async () => {
  const checkpointer = manualCheckpointer();
  const schedule = createCommitCheckpoints(checkpointer, createWriteGate(), noFallback);
  await turn();
  expect(checkpointer.runs).toBe(0);
  schedule.committed();
  expect(checkpointer.runs).toBe(1);
  schedule.committed();
  schedule.committed();
  expect(checkpointer.runs).toBe(1);
  await checkpointer.finish({ walFrames: 30, checkpointed: 10 });
  expect(checkpointer.runs).toBe(2);
  await checkpointer.finish({ walFrames: 30, checkpointed: 30 });
  // Nothing committed since the last one started: no further checkpoint.
  await turn();
  expect(checkpointer.runs).toBe(2);
});

test('checkpoints start at most once per interval', async () => {
  const checkpointer = manualCheckpointer();
  const schedule = createCommitCheckpoints(checkpointer, createWriteGate(), { ...noFallback, intervalMs: 40 });
  schedule.committed();
  await checkpointer.finish({ walFrames: 5, checkpointed: 5 });
  schedule.committed();
  await turn();
  expect(checkpointer.runs).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(checkpointer.runs).toBe(2);
});

test('a checkpoint that reports the WAL at its bound holds every operation until the next checkpoint ends', async () => {
  const checkpointer = manualCheckpointer();
  const gate = createWriteGate();
  const schedule = createCommitCheckpoints(checkpointer, gate, noFallback);
  schedule.committed();
  schedule.committed();
  await checkpointer.finish({ walFrames: 1000, checkpointed: 400 });
  expect(checkpointer.runs).toBe(2);
  let ran = false;
  const held = gate.run(() => {
    ran = true;
  });
  await turn();
  expect(ran).toBe(false);
  await checkpointer.finish({ walFrames: 1000, checkpointed: 1000 });
  await held;
  expect(ran).toBe(true);
});

test('below the bound, or with everything checkpointed, operations never wait', async () => {
  for (const report of [
    { walFrames: 999, checkpointed: 0 },
    { walFrames: 5000, checkpointed: 5000 },
  ]) {
    const checkpointer = manualCheckpointer();
    const gate = createWriteGate();
    const schedule = createCommitCheckpoints(checkpointer, gate, noFallback);
    schedule.committed();
    await checkpointer.finish(report);
    let ran = false;
    void gate.run(() => {
      ran = true;
    });
    expect(ran).toBe(true);
    expect(checkpointer.runs).toBe(1);
  }
});

test('when checkpoints fall back to the store connection, the schedule hands back to the auto-checkpoint once and starts no more', async () => {
  const checkpointer = manualCheckpointer();
  let fallbacks = 0;
  const schedule = createCommitCheckpoints(checkpointer, createWriteGate(), {
    ...noFallback,
    onFallback: () => {
      fallbacks += 1;
    },
  });
  schedule.committed();
  checkpointer.offThread = false;
  await checkpointer.finish(undefined);
  expect(fallbacks).toBe(1);
  schedule.committed();
  schedule.committed();
  await turn();
  expect(checkpointer.runs).toBe(1);
  expect(fallbacks).toBe(1);
});

test('a commit during a checkpoint a long write started gets a checkpoint of its own after it', async () => {
  const checkpointer = manualCheckpointer();
  const schedule = createCommitCheckpoints(checkpointer, createWriteGate(), noFallback);
  void checkpointer.run();
  schedule.committed();
  expect(checkpointer.runs).toBe(1);
  await checkpointer.finish({ walFrames: 10, checkpointed: 10 });
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(checkpointer.runs).toBe(2);
});

test('once stopped (the store closing), commits start no checkpoint', async () => {
  const checkpointer = manualCheckpointer();
  const schedule = createCommitCheckpoints(checkpointer, createWriteGate(), noFallback);
  schedule.stop();
  schedule.committed();
  await turn();
  expect(checkpointer.runs).toBe(0);
});

test('a checkpoint at the bound that copied every frame it saw still holds operations when commits came after it started', async () => {
  const checkpointer = manualCheckpointer();
  const gate = createWriteGate();
  const schedule = createCommitCheckpoints(checkpointer, gate, noFallback);
  schedule.committed();
  schedule.committed();
  await checkpointer.finish({ walFrames: 1000, checkpointed: 1000 });
  let ran = false;
  const held = gate.run(() => {
    ran = true;
  });
  await turn();
  expect(ran).toBe(false);
  expect(checkpointer.runs).toBe(2);
  await checkpointer.finish({ walFrames: 1010, checkpointed: 1010 });
  await held;
  expect(ran).toBe(true);
});

test('the first checkpoint waits for enough commits or time, so a process that writes a little and closes starts no worker', async () => {
  const checkpointer = manualCheckpointer();
  const schedule = createCommitCheckpoints(checkpointer, createWriteGate(), { ...noFallback, firstAfterCommits: 3, firstAfterMs: 40 });
  schedule.committed();
  schedule.committed();
  await turn();
  expect(checkpointer.runs).toBe(0);
  schedule.committed();
  expect(checkpointer.runs).toBe(1);

  const timed = manualCheckpointer();
  const alone = createCommitCheckpoints(timed, createWriteGate(), { ...noFallback, firstAfterCommits: 3, firstAfterMs: 40 });
  alone.committed();
  await turn();
  expect(timed.runs).toBe(0);
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(timed.runs).toBe(1);
});

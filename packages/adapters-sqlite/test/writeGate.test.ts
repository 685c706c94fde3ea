// The write gate: operations held by a batch run in call order once it settles, in a turn of the
// event loop of their own, so an append resumed when a worker's message arrives never shares a
// turn with the next one the group commit schedules (walBound.ts).
import { createWriteGate } from '../src/worker/walBound.js';

/** A batch that settles when the test says so. */
function batch(): { readonly promise: Promise<void>; readonly settle: () => void } {
  let settle!: () => void;
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

test('with no batch running an operation runs at once', () => {
  const gate = createWriteGate();
  let ran = false;
  gate.run(() => {
    ran = true;
  });
  expect(ran).toBe(true);
});

test('operations held by a batch run in call order after it settles, in a turn of their own, not in the callback that settled it', async () => {
  const gate = createWriteGate();
  const held = batch();
  void gate.hold(held.promise);
  const order: string[] = [];
  const first = gate.run(() => order.push('first held operation'));
  const second = gate.run(() => order.push('second held operation'));
  await new Promise<void>((resolve) =>
    setTimeout(() => {
      // Check-phase work queued by the callback that settles the batch (as the group commit's next
      // batch is, after an append): it runs before the held operations, not after them.
      setImmediate(() => {
        order.push('turn queued before the batch settled');
        resolve();
      });
      held.settle();
    }, 0),
  );
  await Promise.all([first, second]);
  expect(order).toEqual(['turn queued before the batch settled', 'first held operation', 'second held operation']);
});

test('a rejected batch releases the operations it held as well', async () => {
  const gate = createWriteGate();
  const failing = gate.hold(Promise.reject(new Error('worker batch failed')));
  const ran = gate.run(() => 'ran');
  await expect(failing).rejects.toThrow('worker batch failed');
  await expect(Promise.resolve(ran)).resolves.toBe('ran');
});

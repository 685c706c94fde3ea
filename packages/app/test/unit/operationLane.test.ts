// The operation lane alone: operations run one at a time in call order; a failure stops nothing.
import { createOperationLane } from '../../src/pipeline/lane.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the operation lane', () => {
  test('runs operations one at a time, in call order, even when earlier ones are slower', async () => {
    const lane = createOperationLane();
    const log: string[] = [];
    let running = 0;
    const op = (name: string, ticks: number) => async (): Promise<string> => {
      running += 1;
      expect(running).toBe(1);
      log.push(`start ${name}`);
      for (let i = 0; i < ticks; i += 1) await tick();
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all([lane.run(op('a', 3)), lane.run(op('b', 0)), lane.run(op('c', 1))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  test('a rejected operation rejects its caller only; idle waits for everything queued', async () => {
    const lane = createOperationLane();
    let done = false;
    const failing = lane.run(() => Promise.reject(new Error('boom')));
    const next = lane.run(async () => {
      await tick();
      done = true;
      return 1;
    });
    await expect(failing).rejects.toThrow('boom');
    await lane.idle();
    expect(done).toBe(true);
    await expect(next).resolves.toBe(1);
  });
});

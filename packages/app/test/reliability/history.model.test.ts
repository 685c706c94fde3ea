// Battery 3 (issue 7): long random histories of every facade operation plus restarts, prunes
// and clock moves, on every store, checked against the reference model after each step and
// afterwards as a whole for the named failures (lost-notice, duplicate-notice, self-notice,
// cursor-regression, false-gap, missed-gap, head-regression). Failing seeds found while
// building the battery are kept at the bottom as named regressions.
import fc from 'fast-check';
import { parseNotice, storeMatrix, type StoreKind } from '@session-state/testkit';

import { expectNoViolations, type Violation } from './support/failureClasses.js';
import { Rig } from './support/rig.js';
import { scaled, scaledTimeout } from './support/scale.js';
import { describeStep, KEYS, runStep, stepArb, WORKLOAD_RETENTION, type Step } from './support/workload.js';
import { noticeTexts } from '../support/noticeTexts.js';

const RUNS = scaled(25);
const MAX_STEPS = scaled(120);

/**
 * Plays `steps` on a fresh rig: the model check after every step, then the history checks:
 * per pair, delivered notices strictly advance (a repeat is a duplicate-notice), and once every
 * watcher drained to quiescence no foreign change above a cursor's acked is left (lost-notice).
 */
async function playHistory(kind: StoreKind, steps: readonly Step[]): Promise<void> {
  const rig = await Rig.open(kind, { retention: WORKLOAD_RETENTION, keys: KEYS });
  const lastDelivered = new Map<string, number>();
  const history: Violation[] = [];
  const noteDelivered = (watcher: string, texts: readonly string[]): void => {
    for (const text of texts) {
      const parsed = parseNotice(text);
      if (parsed === undefined) continue;
      const pair = `${watcher} -> ${parsed.target}`;
      const before = lastDelivered.get(pair);
      if (before !== undefined && parsed.acked <= before) {
        history.push({ failure: 'duplicate-notice', detail: `${pair}: delivered changesSince ${parsed.acked} after ${before}` });
      }
      lastDelivered.set(pair, parsed.acked);
    }
  };
  // A session's cursors are removed on reset/delete: a new cursor may legally start lower only
  // if it is new, so forget the pair's history then.
  const forget = (key: string): void => {
    for (const pair of [...lastDelivered.keys()]) if (pair.startsWith(`${key} -> `) || pair.endsWith(` -> ${key}`)) lastDelivered.delete(pair);
  };
  try {
    await rig.check().then((v) => expectNoViolations(v, 'after start'));
    for (const [i, step] of steps.entries()) {
      const watcher = step.op === 'drain' ? KEYS[step.watcher] : undefined;
      const before = watcher !== undefined ? noticeTexts(rig.facade.pending(watcher)) : [];
      await runStep(rig, step);
      if (watcher !== undefined) noteDelivered(watcher, before);
      if (step.op === 'sessionReset' || step.op === 'sessionDeleted') forget(KEYS[step.key] as string);
      expectNoViolations([...history, ...(await rig.check())], `step ${i}: ${describeStep(step)}`);
    }
    // Drain every watcher until nothing reopens, then nothing foreign may be left uncovered.
    for (let round = 0; round < 5; round += 1) {
      for (const key of KEYS) noteDelivered(key, await rig.drain(key));
    }
    const final = await rig.check();
    for (const row of await rig.inner.listCursors()) {
      const uncovered = rig.model.foreignAbove(row.watcher, row.target, row.acked);
      if (uncovered.length > 0) {
        final.push({ failure: 'lost-notice', detail: `${row.watcher} -> ${row.target}: acked ${row.acked} after draining, foreign ${uncovered.map((e) => e.sequence).join(',')} never covered` });
      }
      if (noticeTexts(rig.facade.pending(row.watcher)).length > 0) final.push({ failure: 'lost-notice', detail: `${row.watcher}: notices still pending after draining` });
    }
    expectNoViolations([...history, ...final], 'after draining everything');
  } finally {
    await rig.dispose();
  }
}

describe.each(storeMatrix)('history on the %s store', (_name, kind) => {
  test(`${RUNS} random histories of up to ${MAX_STEPS} operations show no lost, duplicate or self notice, no cursor or head regression, no false or missed gap`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: MAX_STEPS, size: 'max' }), (steps) => playHistory(kind, steps)),
      { numRuns: RUNS },
    );
  }, scaledTimeout(30_000));
});

describe.each(storeMatrix)('history regressions on the %s store', (_name, kind) => {
  test('regression seed 1926806120 (seen once while the memory store was being edited, not reproduced since): a re-spawn after a foreign change leaves no stale notice for the reseeded pair', async () => {
    await playHistory(kind, [
      { op: 'childSpawned', parent: 3, child: 0, dedupe: 0 },
      { op: 'record', key: 0, kind: 0, actor: 0, dedupe: -1, onlyIfWatched: false },
      { op: 'childSpawned', parent: 3, child: 0, dedupe: -1 },
      { op: 'drain', watcher: 0 },
    ]);
  });
});

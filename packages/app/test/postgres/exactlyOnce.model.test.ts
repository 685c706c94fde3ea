// Exactly once at the model, measured (issue 27), on PostgreSQL: the walk of ../support/gatewayWalk.ts
// with three gateway processes on one schema, each owning a share of the watchers (`ownsSession`, its
// own pool and LISTEN connection), records and tool reads going through any of them. Prints its counts;
// EXACTLY_ONCE_SEED replays a seed and EXACTLY_ONCE_RUNS scales the runs.
import { describeCounts, walkGateways, type WalkOptions } from '../support/gatewayWalk.js';
import { dropSharedSchemas, postgresShared } from '../support/sharedStores.js';

const SEED = Number(process.env['EXACTLY_ONCE_SEED'] ?? Math.floor(Math.random() * 1e9));
const RUNS = Number(process.env['EXACTLY_ONCE_RUNS'] ?? 20);
const STEPS_PER_RUN = 500;

afterAll(dropSharedSchemas);

describe.each([['postgres', 3, 10]] as const)('exactly once at the model on the %s store', (name, gateways, crashEvery) => {
  test(`${gateways} gateways: every foreign notifying change on a live watch reaches a prompt of its watcher (0 never shown), a notice is rendered twice only after a crash or cancel between its render and its confirm, and every wake finds a notice pending`, async () => {
    const options: WalkOptions = { kind: postgresShared, gateways, runs: RUNS, stepsPerRun: STEPS_PER_RUN, seed: SEED, crashEvery };
    const counts = await walkGateways(options);
    console.log(describeCounts(name, options, counts));
    expect(counts.failures.slice(0, 10)).toEqual([]);
    expect(counts.steps).toBe(RUNS * STEPS_PER_RUN);
    expect({ neverShown: counts.neverShown, unexplainedDuplicates: counts.unexplainedDuplicates, meaninglessWakes: counts.meaninglessWakes }).toEqual({
      neverShown: 0,
      unexplainedDuplicates: 0,
      meaninglessWakes: 0,
    });
    // Not vacuous: changes were owed and shown, turns crashed at every point between take and confirm, and left duplicates behind.
    expect(counts.shown).toBeGreaterThan(counts.steps / 10);
    expect(Object.values(counts.crashes).every((crashes) => crashes > 0)).toBe(true);
    expect(counts.duplicatesAfterCrash).toBeGreaterThan(0);
  }, 300_000);
});

// One model-based test of the facade on every store: random command sequences (record, spawn,
// sent, unwatch, drain, status with and without reader, restart, prune) against the test kit's
// reference model of heads, cursor watermarks and the notice queue. Invariants: pending notices,
// wakes, versions and deltas always match the model; and no foreign notifying change is ever
// skipped: a cursor's acked only rises over what a delivered notice or the watcher's own read
// covered, and every pending cursor has its one queued notice from its acked (issue 15).
import { isAgentQualified } from '@session-state/domain';
import fc from 'fast-check';
import { isAgentKey, ReferenceModel, storeMatrix, type ModelAppend, type ModelRetention, type StoreKind } from '@session-state/testkit';

import type { RecordInput } from '../src/index.js';
import { openFixture, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

const RUNS = Number(process.env['MODEL_RUNS'] ?? 30);
const MAX_ROWS = 6;

// Three agent sessions (one a nested sub-agent, never woken) and the shared global key.
const KEYS = ['agent:main:main', 'agent:main:subagent:b', 'agent:ops:main', 'global'] as const;
type Key = (typeof KEYS)[number];
const AGENT_KEYS = KEYS.filter(isAgentQualified);

// --- the model: the kit's reference model -----------------------------------------------------

interface Real {
  f: Fixture;
  /** What the last command let watchers read: (from, to] of a pair, by a drained notice or a reader's status. */
  covered: Coverage[];
}

/** A range of a target's changes a watcher was handed: a drained notice (from its changesSince) or its own read. */
interface Coverage {
  readonly watcher: string;
  readonly target: string;
  readonly from: number;
  readonly to: number;
}

/** No age limit applies here: the clock never moves, so only the row cap prunes. */
const retention = (): ModelRetention => ({ maxAgeMs: Number.POSITIVE_INFINITY, maxRows: MAX_ROWS });
const headOf = (m: ReferenceModel, key: Key): number => m.sessions.get(key)?.head ?? 0;

/**
 * A command's session: a fixed key, or `{ pick }` - the pick-th (mod n) of the keys that matter
 * right now (watched targets for a record, watchers with queued notices for a drain), so short
 * runs reach repeats and reopens often. Resolved from the model, hence deterministic on replay.
 */
type Choice = Key | { readonly pick: number };

function resolve(choice: Choice, candidates: readonly Key[]): Key {
  if (typeof choice === 'string') return choice;
  return candidates.length === 0 ? 'agent:main:main' : (candidates[choice.pick % candidates.length] as Key);
}

const watchedTargets = (m: ReferenceModel): Key[] => KEYS.filter((k) => m.allCursors().some((row) => row.target === k));
const watchersWithNotices = (m: ReferenceModel): Key[] => KEYS.filter((k) => m.pendingTexts(k).length > 0);
const showChoice = (choice: Choice, resolved: Key | undefined): string =>
  resolved ?? (typeof choice === 'string' ? choice : `pick ${choice.pick}`);

// --- shared checks ---------------------------------------------------------------------------

function expectQueueMatches(m: ReferenceModel, r: Real): void {
  for (const key of KEYS) expect(noticeTexts(r.f.awareness.pending(key))).toEqual(m.pendingTexts(key));
}

/**
 * No change is skipped: every cursor whose acked rose (the same watch: neither removed nor
 * re-seeded) rose over a range a delivered notice or the watcher's own read covered; every
 * pending cursor has exactly one queued notice, whose changesSince is its acked.
 */
function expectNothingSkipped(before: ReadonlyMap<string, number>, m: ReferenceModel, r: Real, reseeded: ReadonlySet<string>): void {
  for (const { watcher, target, cursor } of m.allCursors()) {
    const pair = `${watcher} ${target}`;
    const was = before.get(pair);
    if (was !== undefined && !reseeded.has(pair) && cursor.acked > was) {
      const covering = r.covered.filter((c) => c.watcher === watcher && c.target === target && c.from <= was && c.to >= cursor.acked);
      expect({ pair, ackedFrom: was, ackedTo: cursor.acked, covering: covering.length > 0 }).toEqual({ pair, ackedFrom: was, ackedTo: cursor.acked, covering: true });
    }
    const queued = r.f.awareness.pending(watcher).filter((notice) => notice.target === target);
    expect({ pair, queued: queued.map((notice) => notice.changesSince) }).toEqual({ pair, queued: cursor.material > cursor.acked ? [cursor.acked] : [] });
  }
}

/** Runs `act`, then checks the wakes it caused against the model's (as a multiset), the whole queue, and that nothing was skipped. */
async function checked(m: ReferenceModel, r: Real, act: () => Promise<void>, reseeded: ReadonlySet<string> = new Set()): Promise<void> {
  const before = r.f.wakes.length;
  const modelBefore = m.wakes.length;
  const acked = new Map(m.allCursors().map(({ watcher, target, cursor }) => [`${watcher} ${target}`, cursor.acked]));
  r.covered = [];
  await act();
  expect([...r.f.wakes.slice(before)].sort()).toEqual(m.wakes.slice(modelBefore).sort());
  expectQueueMatches(m, r);
  expectNothingSkipped(acked, m, r, reseeded);
}

// --- commands --------------------------------------------------------------------------------

type Actor = { readonly type: 'human' } | { readonly type: 'agent'; readonly key: Key };

class RecordCommand implements fc.AsyncCommand<ReferenceModel, Real> {
  private session: Key | undefined;
  constructor(
    readonly choice: Choice,
    readonly kind: 'human_direct_message' | 'goal_changed' | 'run_completed' | 'compacted',
    readonly actor: Actor,
    readonly onlyIfWatched: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: ReferenceModel, r: Real): Promise<void> {
    const session = resolve(this.choice, watchedTargets(m));
    this.session = session;
    await checked(m, r, async () => {
      const input: RecordInput = {
        sessionKey: session,
        kind: this.kind,
        actorType: this.actor.type,
        summary: `${this.kind} by ${this.actor.type}`,
        ...(this.actor.type === 'agent' ? { actorSessionKey: this.actor.key } : {}),
        ...(this.onlyIfWatched ? { onlyIfWatched: true } : {}),
      };
      const modelInput: ModelAppend = {
        sessionKey: session,
        kind: this.kind,
        ...(this.actor.type === 'agent' ? { actorSessionKey: this.actor.key } : {}),
        ...(this.onlyIfWatched ? { onlyIfWatched: true } : {}),
      };
      const expected = m.expectAppend(modelInput);
      const result = await r.f.awareness.record(input);
      if (expected.type === 'skipped') {
        expect(result).toEqual({ ok: true, outcome: 'skipped', reason: 'unwatched' });
        return;
      }
      if (!result.ok || !('event' in result)) throw new Error(`record failed: ${JSON.stringify(result)}`);
      const seq = result.event.sequence;
      expect(seq).toBeGreaterThan(headOf(m, session));
      expect(m.applyAppend(modelInput, seq, r.f.clock.now())).toBeUndefined();
    });
  }
  toString(): string {
    const by = this.actor.type === 'agent' ? this.actor.key : 'human';
    return `record(${showChoice(this.choice, this.session)}, ${this.kind}, ${by}${this.onlyIfWatched ? ', onlyIfWatched' : ''})`;
  }
}

class SpawnCommand implements fc.AsyncCommand<ReferenceModel, Real> {
  constructor(
    readonly parent: Key,
    readonly child: Key,
    readonly dedupeKey: string | undefined,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: ReferenceModel, r: Real): Promise<void> {
    // A spawn edge starts a new watch over any old one: its acked is the new event, not a skip.
    const reseeded = new Set([`${this.parent} ${this.child}`]);
    await checked(m, r, async () => {
      const modelInput: ModelAppend = {
        sessionKey: this.child,
        kind: 'child_spawned',
        actorSessionKey: this.parent,
        ...(this.dedupeKey !== undefined ? { dedupeKey: this.dedupeKey } : {}),
      };
      const expected = m.expectAppend(modelInput);
      const result = await r.f.awareness.childSpawned({
        parentKey: this.parent,
        childKey: this.child,
        ...(this.dedupeKey !== undefined ? { dedupeKey: this.dedupeKey } : {}),
      });
      if (!result.ok) throw result.error;
      if (expected.type === 'duplicate') {
        expect(result.event).toMatchObject({ sessionKey: expected.event.sessionKey, sequence: expected.event.sequence });
        return;
      }
      const seq = result.event.sequence;
      expect(seq).toBeGreaterThan(headOf(m, this.child));
      // SPEC 4: a spawn edge between two agent sessions seeds the parent's cursor on the child.
      const seeds = isAgentKey(this.parent) && isAgentKey(this.child) && this.parent !== this.child;
      expect(m.applyAppend(modelInput, seq, r.f.clock.now(), seeds ? this.parent : undefined)).toBeUndefined();
    }, reseeded);
  }
  toString(): string {
    return `childSpawned(${this.parent} -> ${this.child}${this.dedupeKey !== undefined ? `, ${this.dedupeKey}` : ''})`;
  }
}

class SentCommand implements fc.AsyncCommand<ReferenceModel, Real> {
  constructor(
    readonly sender: Key,
    readonly target: Key,
    readonly watch: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: ReferenceModel, r: Real): Promise<void> {
    await checked(m, r, async () => {
      const input = { senderKey: this.sender, deliveredTo: this.target, watch: this.watch };
      const watched = ReferenceModel.sentWatches(input);
      expect(await r.f.awareness.sent(input)).toEqual({ watched });
      if (watched) m.watch(this.sender, this.target, r.f.clock.now());
    });
  }
  toString(): string {
    return `sent(${this.sender} -> ${this.target}, watch: ${this.watch})`;
  }
}

class DrainCommand implements fc.AsyncCommand<ReferenceModel, Real> {
  private watcher: Key | undefined;
  constructor(readonly choice: Choice) {}
  check(): boolean {
    return true;
  }
  async run(m: ReferenceModel, r: Real): Promise<void> {
    const watcher = resolve(this.choice, watchersWithNotices(m));
    this.watcher = watcher;
    await checked(m, r, async () => {
      const queued = new Map(m.queue.of(watcher).map((entry) => [entry.target, entry.notified]));
      const expected = m.drain(watcher, r.f.clock.now());
      const drained = await r.f.awareness.drain(watcher);
      expect(noticeTexts(drained)).toEqual(expected);
      // Each drained notice hands the watcher its target's changes after its changesSince, up to the watermark it froze.
      for (const notice of drained) r.covered.push({ watcher, target: notice.target, from: notice.changesSince, to: queued.get(notice.target) ?? -1 });
    });
  }
  toString(): string {
    return `drain(${showChoice(this.choice, this.watcher)})`;
  }
}

class StatusCommand implements fc.AsyncCommand<ReferenceModel, Real> {
  constructor(
    readonly session: Key,
    readonly sinceBack: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: ReferenceModel, r: Real): Promise<void> {
    await checked(m, r, async () => {
      const session = m.sessions.get(this.session);
      const head = headOf(m, this.session);
      const since = Math.max(0, head - this.sinceBack);
      const status = await r.f.awareness.status(this.session, { changesSince: since });
      const retained = (session?.events ?? []).filter((e) => e.sequence > since).map((e) => e.sequence);
      expect(status.stateVersion).toBe(head);
      expect(status.stateChanges).toEqual({
        events: retained.map((sequence) => expect.objectContaining({ sequence })),
        historyGap: since < (session?.pruneWatermark ?? 0),
        earliestRetained: session?.events[0]?.sequence ?? 0,
        hasMore: false,
        nextSince: retained[retained.length - 1] ?? since,
      });
    });
  }
  toString(): string {
    return `status(${this.session}, head - ${this.sinceBack})`;
  }
}

/**
 * The reconcile an agent runs after a notice, with itself as `reader`: `status(target,
 * { changesSince, reader })` from its cursor's acked (or `sinceBack` below it, or one above it),
 * on one of the targets it watches. The page always reaches the head here (at most MAX_ROWS events).
 */
class ReaderStatusCommand implements fc.AsyncCommand<ReferenceModel, Real> {
  private pair: string | undefined;
  constructor(
    readonly choice: Choice,
    readonly targetPick: number,
    readonly sinceBack: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: ReferenceModel, r: Real): Promise<void> {
    const watchers = KEYS.filter((k) => m.cursors.has(k));
    const reader = resolve(this.choice, watchers);
    const targets = [...(m.cursors.get(reader)?.keys() ?? [])];
    const target = (targets[this.targetPick % Math.max(1, targets.length)] ?? 'agent:ops:main') as Key;
    this.pair = `${reader} -> ${target}`;
    await checked(m, r, async () => {
      const acked = m.cursor(reader, target)?.acked ?? 0;
      const since = Math.max(0, acked - this.sinceBack);
      const head = headOf(m, target);
      const status = await r.f.awareness.status(target, { changesSince: since, reader });
      expect(status.stateVersion).toBe(head);
      expect(status.stateChanges?.hasMore).toBe(false);
      r.covered.push({ watcher: reader, target, from: since, to: head });
      m.read(reader, target, since, head, r.f.clock.now());
    });
  }
  toString(): string {
    return `status(as reader ${this.pair ?? showChoice(this.choice, undefined)}, acked - ${this.sinceBack})`;
  }
}

class UnwatchCommand implements fc.AsyncCommand<ReferenceModel, Real> {
  constructor(
    readonly watcher: Key,
    readonly target: Key,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: ReferenceModel, r: Real): Promise<void> {
    await checked(m, r, async () => {
      const had = m.unwatch(this.watcher, this.target);
      expect(await r.f.awareness.unwatch(this.watcher, this.target)).toEqual({ unwatched: had });
    });
  }
  toString(): string {
    return `unwatch(${this.watcher} -> ${this.target})`;
  }
}

class PruneCommand implements fc.AsyncCommand<ReferenceModel, Real> {
  check(): boolean {
    return true;
  }
  async run(m: ReferenceModel, r: Real): Promise<void> {
    await checked(m, r, async () => {
      const expected = m.prune(r.f.clock.now());
      expect(expected.cursorsExpired).toBe(0);
      expect(await r.f.awareness.prune()).toEqual(expected);
    });
  }
  toString(): string {
    return 'prune()';
  }
}

class RestartCommand implements fc.AsyncCommand<ReferenceModel, Real> {
  check(): boolean {
    return true;
  }
  async run(m: ReferenceModel, r: Real): Promise<void> {
    r.f = await r.f.restart();
    // The scan re-queues one notice per lagging pair, in the store's order; the model adopts it.
    m.restartScan(r.f.clock.now());
    expect([...r.f.wakes].sort()).toEqual([...m.wakes].sort());
    for (const key of KEYS) {
      const real = noticeTexts(r.f.awareness.pending(key));
      expect([...real].sort()).toEqual(m.pendingTexts(key).sort());
      m.queue.reorder(key, real);
    }
    // The start-up prune runs in the background; prune() waits for it, then finds nothing more.
    expect((await r.f.awareness.prune()).eventsDeleted).toBe(0);
    m.prune(r.f.clock.now());
    expectQueueMatches(m, r);
  }
  toString(): string {
    return 'restart()';
  }
}

// --- arbitraries -----------------------------------------------------------------------------

const key = fc.constantFrom(...KEYS);
const agentKey = fc.constantFrom(...AGENT_KEYS);
const actor: fc.Arbitrary<Actor> = fc.oneof(
  { arbitrary: fc.constant<Actor>({ type: 'human' }), weight: 2 },
  { arbitrary: agentKey.map((k): Actor => ({ type: 'agent', key: k })), weight: 1 },
);
// Mostly agent keys, so most spawn edges and watches really create a cursor.
const mostlyAgentKey = fc.oneof({ arbitrary: agentKey, weight: 4 }, { arbitrary: key, weight: 1 });
const choice: fc.Arbitrary<Choice> = fc.oneof(
  { arbitrary: key, weight: 1 },
  { arbitrary: fc.nat(99).map((pick) => ({ pick })), weight: 3 },
);
const recordCommand = fc
  .tuple(
    choice,
    fc.constantFrom('human_direct_message', 'human_direct_message', 'goal_changed', 'run_completed', 'compacted'),
    actor,
    fc.boolean(),
  )
  .map(([s, kind, a, only]) => new RecordCommand(s, kind, a, only));
// Spawns and drains are listed twice and records four times, so notices, repeats and reopens
// are common in short runs rather than rare.
const spawnCommand = fc
  .tuple(mostlyAgentKey, mostlyAgentKey, fc.option(fc.constantFrom('spawn:1', 'spawn:2'), { nil: undefined }))
  .map(([p, c, d]) => new SpawnCommand(p, c, d));
const drainCommand = choice.map((w) => new DrainCommand(w));
const commands = fc.commands(
  [
    recordCommand,
    recordCommand,
    recordCommand,
    recordCommand,
    spawnCommand,
    spawnCommand,
    fc.tuple(mostlyAgentKey, mostlyAgentKey, fc.boolean()).map(([s, t, w]) => new SentCommand(s, t, w)),
    drainCommand,
    drainCommand,
    fc.tuple(key, fc.nat(4)).map(([s, back]) => new StatusCommand(s, back)),
    // -1: a read that started above acked, which must acknowledge nothing.
    fc.tuple(choice, fc.nat(9), fc.integer({ min: -1, max: 2 })).map(([c, t, back]) => new ReaderStatusCommand(c, t, back)),
    fc.tuple(choice, fc.nat(9), fc.integer({ min: -1, max: 2 })).map(([c, t, back]) => new ReaderStatusCommand(c, t, back)),
    fc.tuple(mostlyAgentKey, mostlyAgentKey).map(([w, t]) => new UnwatchCommand(w, t)),
    fc.constant(new PruneCommand()),
    fc.constant(new RestartCommand()),
  ],
  { maxCommands: 40, size: 'max' },
);

// --- the test --------------------------------------------------------------------------------

describe.each(storeMatrix)('the facade model on the %s store', (_name, kind: StoreKind) => {
  test('pending notices, wakes, versions and deltas always match the model, and no foreign notifying change is ever skipped (covered by a read or a notice)', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const real: Real = { f: await openFixture(kind, { retention: { maxRows: MAX_ROWS } }), covered: [] };
        try {
          await fc.asyncModelRun(() => ({ model: new ReferenceModel(retention()), real }), cmds);
        } finally {
          await real.f.dispose();
        }
      }),
      { numRuns: RUNS },
    );
    // About 2 s per 30 runs here; the budget grows with MODEL_RUNS so a long search is not cut short.
  }, Math.max(60_000, RUNS * 2_000));
});

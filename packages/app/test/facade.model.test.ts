// One model-based test of the facade on every store: random command sequences (record, spawn,
// sent, drain, status, restart, prune) against a tiny model of heads, cursor watermarks and the
// notice queue. Invariant: pending notices, wakes, versions and deltas always match the model.
import { isAgentQualified, isNestedSubagent } from '@session-state/domain';
import fc from 'fast-check';
import { noticeTextOf, storeMatrix, type StoreKind } from '@session-state/testkit';

import type { RecordInput } from '../src';
import { openFixture, type Fixture } from './support/harness';

const RUNS = Number(process.env['MODEL_RUNS'] ?? 30);
const MAX_ROWS = 6;

// Three agent sessions (one a nested sub-agent, never woken) and the shared global key.
const KEYS = ['agent:main:main', 'agent:main:subagent:b', 'agent:ops:main', 'global'] as const;
type Key = (typeof KEYS)[number];
const AGENT_KEYS = KEYS.filter(isAgentQualified);

// --- the model -------------------------------------------------------------------------------

interface ModelCursor {
  acked: number;
  notified: number;
  material: number;
}
interface ModelEntry {
  text: string;
  notified: number;
}
interface ModelEvent {
  readonly session: Key;
  readonly sequence: number;
  readonly dedupeKey?: string;
}

interface Model {
  heads: Map<Key, number>;
  pruneWatermarks: Map<Key, number>;
  /** Retained events, oldest first (one clock time, so sequence order is append order). */
  events: ModelEvent[];
  /** `${watcher} ${target}` → cursor. */
  cursors: Map<string, ModelCursor>;
  /** watcher → target → entry, oldest first. */
  queue: Map<string, Map<string, ModelEntry>>;
}

interface Real {
  f: Fixture;
}

const pair = (watcher: string, target: string): string => `${watcher} ${target}`;
const headOf = (m: Model, key: Key): number => m.heads.get(key) ?? 0;

/** Offers a notice like the facade's queue; returns the watcher to wake, if any. */
function offer(m: Model, watcher: string, target: string, entry: ModelEntry): string | undefined {
  let entries = m.queue.get(watcher);
  if (entries === undefined) {
    entries = new Map();
    m.queue.set(watcher, entries);
  }
  const current = entries.get(target);
  if (current !== undefined && current.text === entry.text) {
    current.notified = entry.notified;
    return undefined;
  }
  entries.delete(target);
  entries.set(target, entry);
  return isNestedSubagent(watcher) ? undefined : watcher;
}

function removeEntry(m: Model, watcher: string, target: string): void {
  m.queue.get(watcher)?.delete(target);
}

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

const watchedTargets = (m: Model): Key[] =>
  KEYS.filter((k) => [...m.cursors.keys()].some((p) => p.endsWith(` ${k}`)));
const watchersWithNotices = (m: Model): Key[] => KEYS.filter((k) => (m.queue.get(k)?.size ?? 0) > 0);
const showChoice = (choice: Choice, resolved: Key | undefined): string =>
  resolved ?? (typeof choice === 'string' ? choice : `pick ${choice.pick}`);

// --- shared checks ---------------------------------------------------------------------------

function expectQueueMatches(m: Model, r: Real): void {
  for (const key of KEYS) {
    const modelTexts = [...(m.queue.get(key)?.values() ?? [])].map((e) => e.text);
    expect(r.f.awareness.pending(key)).toEqual(modelTexts);
  }
}

/** Runs `act`, then checks the wakes it caused (as a multiset) and the whole queue. */
async function checked(m: Model, r: Real, expectedWakes: () => string[], act: () => Promise<void>): Promise<void> {
  const before = r.f.wakes.length;
  await act();
  expect([...r.f.wakes.slice(before)].sort()).toEqual(expectedWakes().sort());
  expectQueueMatches(m, r);
}

// --- commands --------------------------------------------------------------------------------

type Actor = { readonly type: 'human' } | { readonly type: 'agent'; readonly key: Key };

class RecordCommand implements fc.AsyncCommand<Model, Real> {
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
  async run(m: Model, r: Real): Promise<void> {
    const wakes: string[] = [];
    const session = resolve(this.choice, watchedTargets(m));
    this.session = session;
    await checked(m, r, () => wakes, async () => {
      const input: RecordInput = {
        sessionKey: session,
        kind: this.kind,
        actorType: this.actor.type,
        summary: `${this.kind} by ${this.actor.type}`,
        ...(this.actor.type === 'agent' ? { actorSessionKey: this.actor.key } : {}),
        ...(this.onlyIfWatched ? { onlyIfWatched: true } : {}),
      };
      const result = await r.f.awareness.record(input);
      const watched = [...m.cursors.keys()].some((k) => k.endsWith(` ${session}`));
      if (this.onlyIfWatched && !watched) {
        expect(result).toEqual({ ok: true, skipped: 'unwatched' });
        return;
      }
      if (!result.ok || !('event' in result)) throw new Error(`record failed: ${JSON.stringify(result)}`);
      const seq = result.event.sequence;
      expect(seq).toBeGreaterThan(headOf(m, session));
      m.heads.set(session, seq);
      m.events.push({ session: session, sequence: seq });
      const notifies = this.kind === 'human_direct_message' || this.kind === 'goal_changed';
      for (const [k, c] of m.cursors) {
        const [watcher, target] = k.split(' ') as [string, string];
        if (target !== session || !notifies) continue;
        if (this.actor.type === 'agent' && this.actor.key === watcher) continue;
        if (c.material <= c.acked) {
          c.notified = seq;
          c.material = seq;
        } else {
          c.material = Math.max(c.material, seq);
        }
        const woken = offer(m, watcher, target, { text: noticeTextOf(target, c.acked), notified: c.notified });
        if (woken !== undefined) wakes.push(woken);
      }
    });
  }
  toString(): string {
    const by = this.actor.type === 'agent' ? this.actor.key : 'human';
    return `record(${showChoice(this.choice, this.session)}, ${this.kind}, ${by}${this.onlyIfWatched ? ', onlyIfWatched' : ''})`;
  }
}

class SpawnCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly parent: Key,
    readonly child: Key,
    readonly dedupeKey: string | undefined,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    await checked(m, r, () => [], async () => {
      const result = await r.f.awareness.childSpawned({
        parentKey: this.parent,
        childKey: this.child,
        ...(this.dedupeKey !== undefined ? { dedupeKey: this.dedupeKey } : {}),
      });
      if (!result.ok) throw result.error;
      const existing = m.events.find((e) => this.dedupeKey !== undefined && e.dedupeKey === this.dedupeKey);
      if (existing !== undefined) {
        expect(result.event).toMatchObject({ sessionKey: existing.session, sequence: existing.sequence });
        return;
      }
      const seq = result.event.sequence;
      expect(seq).toBeGreaterThan(headOf(m, this.child));
      m.heads.set(this.child, seq);
      m.events.push({ session: this.child, sequence: seq, ...(this.dedupeKey !== undefined ? { dedupeKey: this.dedupeKey } : {}) });
      if (isAgentQualified(this.parent) && isAgentQualified(this.child) && this.parent !== this.child) {
        m.cursors.set(pair(this.parent, this.child), { acked: seq, notified: seq, material: seq });
        removeEntry(m, this.parent, this.child);
      }
    });
  }
  toString(): string {
    return `childSpawned(${this.parent} -> ${this.child}${this.dedupeKey !== undefined ? `, ${this.dedupeKey}` : ''})`;
  }
}

class SentCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly sender: Key,
    readonly target: Key,
    readonly watch: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    await checked(m, r, () => [], async () => {
      const watched = this.watch && isAgentQualified(this.sender) && isAgentQualified(this.target) && this.sender !== this.target;
      expect(await r.f.awareness.sent({ senderKey: this.sender, deliveredTo: this.target, watch: this.watch })).toEqual({ watched });
      const k = pair(this.sender, this.target);
      if (watched && !m.cursors.has(k)) {
        const head = headOf(m, this.target);
        m.cursors.set(k, { acked: head, notified: head, material: head });
      }
    });
  }
  toString(): string {
    return `sent(${this.sender} -> ${this.target}, watch: ${this.watch})`;
  }
}

class DrainCommand implements fc.AsyncCommand<Model, Real> {
  private watcher: Key | undefined;
  constructor(readonly choice: Choice) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    const wakes: string[] = [];
    const watcher = resolve(this.choice, watchersWithNotices(m));
    this.watcher = watcher;
    await checked(m, r, () => wakes, async () => {
      const entries = [...(m.queue.get(watcher)?.entries() ?? [])];
      expect(await r.f.awareness.drain(watcher)).toEqual(entries.map(([, e]) => e.text));
      m.queue.delete(watcher);
      for (const [target, entry] of entries) {
        const c = m.cursors.get(pair(watcher, target));
        if (c === undefined || c.material <= c.acked) continue;
        if (c.notified !== entry.notified) {
          const woken = offer(m, watcher, target, { text: noticeTextOf(target, c.acked), notified: c.notified });
          if (woken !== undefined) wakes.push(woken);
          continue;
        }
        c.acked = c.notified;
        if (c.material > c.notified) {
          c.notified = c.material;
          const woken = offer(m, watcher, target, { text: noticeTextOf(target, c.acked), notified: c.notified });
          if (woken !== undefined) wakes.push(woken);
        }
      }
    });
  }
  toString(): string {
    return `drain(${showChoice(this.choice, this.watcher)})`;
  }
}

class StatusCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly session: Key,
    readonly sinceBack: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    await checked(m, r, () => [], async () => {
      const head = headOf(m, this.session);
      const since = Math.max(0, head - this.sinceBack);
      const status = await r.f.awareness.status(this.session, { changesSince: since });
      const retained = m.events.filter((e) => e.session === this.session && e.sequence > since).map((e) => e.sequence);
      expect(status.stateVersion).toBe(head);
      expect(status.stateChanges).toEqual({
        events: retained.map((sequence) => expect.objectContaining({ sequence })),
        historyGap: since < (m.pruneWatermarks.get(this.session) ?? 0),
        hasMore: false,
        nextSince: retained[retained.length - 1] ?? since,
      });
    });
  }
  toString(): string {
    return `status(${this.session}, head - ${this.sinceBack})`;
  }
}

/** Applies the row cap to the model; returns how many events it deleted. */
function pruneModel(m: Model): number {
  const excess = m.events.length - MAX_ROWS;
  if (excess <= 0) return 0;
  const deleted = m.events.splice(0, excess);
  for (const e of deleted) m.pruneWatermarks.set(e.session, Math.max(m.pruneWatermarks.get(e.session) ?? 0, e.sequence));
  return deleted.length;
}

class PruneCommand implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    await checked(m, r, () => [], async () => {
      expect(await r.f.awareness.prune()).toEqual({ eventsDeleted: pruneModel(m), cursorsExpired: 0 });
    });
  }
  toString(): string {
    return 'prune()';
  }
}

class RestartCommand implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  async run(m: Model, r: Real): Promise<void> {
    r.f = await r.f.restart();
    // The scan re-queues one notice per lagging pair, in the store's order; the model adopts it.
    const expected = new Map<string, Map<string, ModelEntry>>();
    const wakes: string[] = [];
    for (const [k, c] of m.cursors) {
      if (c.material <= c.acked) continue;
      const [watcher, target] = k.split(' ') as [string, string];
      c.notified = c.material;
      const entries = expected.get(watcher) ?? new Map<string, ModelEntry>();
      expected.set(watcher, entries);
      entries.set(target, { text: noticeTextOf(target, c.acked), notified: c.notified });
      if (!isNestedSubagent(watcher)) wakes.push(watcher);
    }
    expect([...r.f.wakes].sort()).toEqual(wakes.sort());
    m.queue = new Map();
    for (const key of KEYS) {
      const entries = expected.get(key) ?? new Map<string, ModelEntry>();
      const real = r.f.awareness.pending(key);
      expect([...real].sort()).toEqual([...entries.values()].map((e) => e.text).sort());
      const ordered = new Map<string, ModelEntry>();
      for (const text of real) {
        const found = [...entries].find(([, e]) => e.text === text);
        if (found !== undefined) ordered.set(found[0], found[1]);
      }
      if (ordered.size > 0) m.queue.set(key, ordered);
    }
    // The start-up prune runs in the background; prune() waits for it, then finds nothing more.
    expect((await r.f.awareness.prune()).eventsDeleted).toBe(0);
    pruneModel(m);
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
    fc.constant(new PruneCommand()),
    fc.constant(new RestartCommand()),
  ],
  { maxCommands: 40, size: 'max' },
);

// --- the test --------------------------------------------------------------------------------

describe.each(storeMatrix)('the facade model on the %s store', (_name, kind: StoreKind) => {
  test('pending notices, wakes, versions and deltas always match the model', async () => {
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const real: Real = { f: await openFixture(kind, { retention: { maxRows: MAX_ROWS } }) };
        try {
          const model: Model = { heads: new Map(), pruneWatermarks: new Map(), events: [], cursors: new Map(), queue: new Map() };
          await fc.asyncModelRun(() => ({ model, real }), cmds);
        } finally {
          await real.f.dispose();
        }
      }),
      { numRuns: RUNS },
    );
    // About 2 s per 30 runs here; the budget grows with MODEL_RUNS so a long search is not cut short.
  }, Math.max(60_000, RUNS * 2_000));
});

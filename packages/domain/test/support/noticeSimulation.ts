// The cursor decider driven the way the app drives it: decide and evolve on the cursors of a few
// (watcher, target) pairs, its notices offered to the test kit's notice queue model, under random
// events, drains, seeds, restart scans and the owner's re-reads after cross-process signals
// (the `reread` command). It is the code under test in a harness, not a model: the rules it is checked
// against are the kit's NOTICE_RULES table and the laws in cursor.properties.test.ts.
import { fc } from '@fast-check/jest';
import { NoticeQueueModel, noticeTextOf, type OfferOutcome, type QueuedNotice } from '@session-state/testkit';

import type { Cursor } from '../../src/cursor/cursor.js';
import { EVENT_KINDS, kindClass, type EventKind } from '../../src/input/eventKind.js';
import type { NoticeReason } from '../../src/notice.js';
import { asSequence, type Sequence } from '../../src/log/sequence.js';
import { heldNoticeOf, noticeOf, stepOf, type CursorResult, type CursorTestInput as CursorInput } from './cursorSpec.js';

export const WATCHERS = ['agent:a:main', 'agent:b:subagent:worker'] as const;
export const TARGETS = ['agent:t:main', 'agent:u:subagent:child'] as const;
/** A session that is neither watcher nor target here: always a foreign actor. */
export const STRANGER = 'agent:s:main';

export interface Pair {
  readonly watcher: string;
  readonly target: string;
}

export const PAIRS: readonly Pair[] = WATCHERS.flatMap((watcher) => TARGETS.map((target) => ({ watcher, target })));

export const pairId = (pair: Pair): string => `${pair.watcher} -> ${pair.target}`;

/** Who caused an event: a watcher (by index), the target itself, a stranger, or nobody named. */
export type Actor = { readonly watcher: number } | 'target' | 'stranger' | 'none';

export type SimCommand =
  /** An event of `kind` on a target; `gap` makes sequences sparse (one global counter). */
  | { readonly type: 'event'; readonly target: number; readonly kind: EventKind; readonly actor: Actor; readonly gap: number }
  /** The watcher's turn drains all its queued notices, oldest first. */
  | { readonly type: 'drain'; readonly watcher: number }
  /** A spawn edge: a child_spawned event on the target seeds (overwrites) the pair's cursor. */
  | { readonly type: 'seed'; readonly watcher: number; readonly target: number; readonly gap: number }
  /** A restart: the in-memory queue is lost, then the scan re-queues. */
  | { readonly type: 'restart' }
  /** A cross-process signal: the owner offers every pair's held notice (the `reread` command), stepping no cursor. */
  | { readonly type: 'signalScan' };

const actorArb: fc.Arbitrary<Actor> = fc.oneof(
  fc.integer({ min: 0, max: WATCHERS.length - 1 }).map((watcher): Actor => ({ watcher })),
  fc.constantFrom<Actor>('target', 'stranger', 'none'),
);

export const simCommandArb: fc.Arbitrary<SimCommand> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('event' as const),
      target: fc.integer({ min: 0, max: TARGETS.length - 1 }),
      // Notifying kinds are 3 of 8; weight them up so pending, repeat and reopen states are common.
      kind: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...EVENT_KINDS.filter((k) => kindClass(k) === 'notify')) },
        { weight: 1, arbitrary: fc.constantFrom(...EVENT_KINDS) },
      ),
      actor: actorArb,
      gap: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('drain' as const), watcher: fc.integer({ min: 0, max: WATCHERS.length - 1 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('seed' as const),
      watcher: fc.integer({ min: 0, max: WATCHERS.length - 1 }),
      target: fc.integer({ min: 0, max: TARGETS.length - 1 }),
      gap: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'restart' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'signalScan' as const }) },
);

export const simCommandsArb = fc.array(simCommandArb, { maxLength: 60, size: 'medium' });

/** A queued notice: the kit queue's entry, with the reason the decider gave. */
export type QueueEntry = QueuedNotice;

/** One offer of a notice to the queue and what the queue did with it. */
export interface Offer {
  readonly entry: { readonly watcher: string; readonly target: string; readonly text: string; readonly acked: Sequence; readonly notified: Sequence; readonly reason: NoticeReason };
  /** True when the queue took it as a new entry (queued, or replacing another text for the pair). */
  readonly queued: boolean;
  readonly outcome: OfferOutcome;
}

/** One decision the simulation made, with its input and result. */
export interface StepRecord {
  readonly pair: Pair;
  readonly before: Cursor | undefined;
  readonly input: CursorInput;
  readonly step: CursorResult | undefined;
}

/** What one command did. */
export interface Transition {
  readonly command: SimCommand;
  /** The sequence an event or seed command was assigned. */
  readonly sequence?: Sequence;
  /** The actor key of an event command, if any. */
  readonly actorSessionKey?: string;
  readonly steps: readonly StepRecord[];
  readonly offers: readonly Offer[];
  readonly before: Snapshot;
  readonly after: Snapshot;
}

export interface Snapshot {
  readonly cursors: ReadonlyMap<string, Cursor>;
  readonly queue: readonly QueueEntry[];
}

/**
 * The app's behaviour in miniature, around the decider. The queue is the kit's NoticeQueueModel
 * (the same text coalesces and refreshes `notified`; another text for the pair replaces it); a
 * drain consumes the watcher's entries and acknowledges each entry's `notified`; a restart clears
 * the queue and runs the scan; a seed removes the pair's queued entry (its cursor is
 * overwritten); a signal scan offers each pending pair's held notice and steps nothing.
 */
export class NoticeSimulation {
  private readonly cursors = new Map<string, Cursor>();
  private readonly queue = new NoticeQueueModel();
  private lastSequence = 0;
  /** Per pair: foreign notifying event sequences since the pair's cursor was last seeded. */
  readonly foreignSinceSeed = new Map<string, Sequence[]>();

  constructor() {
    // Every pair starts with an explicit watch at version 0.
    for (const pair of PAIRS) this.seedPair(pair, asSequence(0));
  }

  snapshot(): Snapshot {
    return { cursors: new Map(this.cursors), queue: this.queue.all() };
  }

  cursorOf(pair: Pair): Cursor | undefined {
    return this.cursors.get(pairId(pair));
  }

  entriesOf(pair: Pair): readonly QueueEntry[] {
    return this.queue.of(pair.watcher).filter((e) => e.target === pair.target);
  }

  apply(command: SimCommand): Transition {
    const before = this.snapshot();
    const steps: StepRecord[] = [];
    const offers: Offer[] = [];
    const record = (pair: Pair, input: CursorInput): CursorResult | undefined => this.drive(pair, input, steps, offers);

    switch (command.type) {
      case 'event': {
        const target = TARGETS[command.target] ?? TARGETS[0];
        const sequence = this.nextSequence(command.gap);
        const actorSessionKey = this.actorKey(command.actor, target);
        const input: CursorInput = {
          type: 'event',
          sequence,
          kind: command.kind,
          ...(actorSessionKey !== undefined ? { actorSessionKey } : {}),
        };
        for (const pair of PAIRS.filter((p) => p.target === target)) {
          if (kindClass(command.kind) === 'notify' && actorSessionKey !== pair.watcher) {
            this.foreignSinceSeed.get(pairId(pair))?.push(sequence);
          }
          record(pair, input);
        }
        return { command, sequence, ...(actorSessionKey !== undefined ? { actorSessionKey } : {}), steps, offers, before, after: this.snapshot() };
      }
      case 'drain': {
        const watcher = WATCHERS[command.watcher] ?? WATCHERS[0];
        for (const entry of this.queue.take(watcher)) record({ watcher, target: entry.target }, { type: 'drain', notified: asSequence(entry.notified) });
        return { command, steps, offers, before, after: this.snapshot() };
      }
      case 'seed': {
        const pair: Pair = { watcher: WATCHERS[command.watcher] ?? WATCHERS[0], target: TARGETS[command.target] ?? TARGETS[0] };
        const sequence = this.nextSequence(command.gap);
        // The child_spawned event reaches the target's other cursors first (it is a seed kind).
        for (const other of PAIRS.filter((p) => p.target === pair.target && p.watcher !== pair.watcher)) {
          record(other, { type: 'event', sequence, kind: 'child_spawned', actorSessionKey: pair.watcher });
        }
        this.queue.remove(pair.watcher, pair.target);
        const step = record(pair, { type: 'seed', at: sequence });
        if (step?.cursor !== undefined) this.foreignSinceSeed.set(pairId(pair), []);
        return { command, sequence, steps, offers, before, after: this.snapshot() };
      }
      case 'restart': {
        this.queue.clear();
        this.scan(record);
        return { command, steps, offers, before, after: this.snapshot() };
      }
      case 'signalScan': {
        for (const pair of PAIRS) {
          const cursor = this.cursorOf(pair);
          const notice = cursor === undefined ? undefined : heldNoticeOf(pair.watcher, pair.target, cursor);
          if (notice !== undefined) offers.push(this.offer({ ...notice }));
        }
        return { command, steps, offers, before, after: this.snapshot() };
      }
      default: {
        const unreachable: never = command;
        return unreachable;
      }
    }
  }

  /** Runs the restart scan alone (without clearing the queue first), as a second scan would. */
  scanAgain(): Transition {
    const before = this.snapshot();
    const steps: StepRecord[] = [];
    const offers: Offer[] = [];
    this.scan((pair, input) => this.drive(pair, input, steps, offers));
    return { command: { type: 'restart' }, steps, offers, before, after: this.snapshot() };
  }

  /** Drains every watcher once, as each watcher's next turn would. */
  drainAll(): Transition[] {
    return WATCHERS.map((_, watcher) => this.apply({ type: 'drain', watcher }));
  }

  /** Steps one pair's cursor, stores it, offers its notice, and logs both. */
  private drive(pair: Pair, input: CursorInput, steps: StepRecord[], offers: Offer[]): CursorResult | undefined {
    const before = this.cursorOf(pair);
    const step = stepOf(pair.watcher, before, input);
    steps.push({ pair, before, input, step });
    if (step.cursor !== undefined) {
      this.cursors.set(pairId(pair), step.cursor);
      const notice = noticeOf(pair.watcher, pair.target, step);
      if (notice !== undefined) offers.push(this.offer({ ...notice }));
    }
    return step;
  }

  private scan(record: (pair: Pair, input: CursorInput) => CursorResult | undefined): void {
    for (const pair of PAIRS) record(pair, { type: 'restartScan' });
  }

  private offer(entry: Offer['entry']): Offer {
    // The queue builds the text from (target, acked) itself, as SPEC 5 writes it; the decider's
    // text must be exactly that, or every property run fails here.
    if (entry.text !== noticeTextOf(entry.target, entry.acked)) throw new Error(`the decider's notice text differs from SPEC 5: ${JSON.stringify(entry.text)}`);
    const outcome = this.queue.offer(entry.watcher, entry.target, entry.acked, entry.notified, entry.reason);
    return { entry, queued: outcome !== 'coalesced', outcome };
  }

  private seedPair(pair: Pair, at: Sequence): void {
    const step = stepOf(pair.watcher, undefined, { type: 'seed', at });
    if (step.cursor !== undefined) this.cursors.set(pairId(pair), step.cursor);
    this.foreignSinceSeed.set(pairId(pair), []);
  }

  private nextSequence(gap: number): Sequence {
    this.lastSequence += gap;
    return asSequence(this.lastSequence);
  }

  private actorKey(actor: Actor, target: string): string | undefined {
    if (actor === 'none') return undefined;
    if (actor === 'target') return target;
    if (actor === 'stranger') return STRANGER;
    return WATCHERS[actor.watcher];
  }
}

/** Runs `commands` on a fresh simulation, handing each transition to `observe`. */
export function runSimulation(
  commands: readonly SimCommand[],
  observe: (transition: Transition, sim: NoticeSimulation) => void = () => undefined,
): NoticeSimulation {
  const sim = new NoticeSimulation();
  for (const command of commands) observe(sim.apply(command), sim);
  return sim;
}

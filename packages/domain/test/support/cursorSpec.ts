// Fixtures for cursor tests: the cursor reducer of one watcher as a specification, and inputs.
import { evolveCursor, type Cursor, type CursorInput, type CursorStep } from '../../src/cursor';
import type { EventKind } from '../../src/eventKind';
import { asSequence, type Sequence } from '../../src/sequence';
import { specificationFor, type Specification } from './specification';

export const WATCHER = 'agent:main:main';
export const TARGET = 'agent:main:subagent:child-7';
export const OTHER = 'agent:ops:main';

export const seq = (n: number): Sequence => asSequence(n);

/** What one input produced: `undefined` when the pair has no cursor and the input is not a seed. */
export type CursorResult = CursorStep | undefined;

/** The cursor of `watcher` driven by `evolveCursor`, starting with no cursor. */
export function cursorSpec(watcher: string = WATCHER): Specification<CursorInput, CursorResult> {
  return specificationFor<Cursor | undefined, CursorInput, CursorResult>({
    initial: undefined,
    step: (state, input) => evolveCursor(watcher, state, input),
    stateAfter: (state, step) => (step === undefined ? state : step.cursor),
  });
}

// --- inputs ------------------------------------------------------------------------------

export const seed = (at: number): CursorInput => ({ type: 'seed', at: seq(at) });

export const event = (sequence: number, kind: EventKind, actorSessionKey?: string): CursorInput => ({
  type: 'event',
  sequence: seq(sequence),
  kind,
  ...(actorSessionKey !== undefined ? { actorSessionKey } : {}),
});

/** A notifying event by someone other than the watcher. */
export const foreign = (sequence: number, kind: EventKind = 'human_direct_message'): CursorInput =>
  event(sequence, kind, OTHER);

export const drain = (notified: number): CursorInput => ({ type: 'drain', notified: seq(notified) });

export const restartScan: CursorInput = { type: 'restartScan' };

// --- cursors -----------------------------------------------------------------------------

export const idle = (acked: number): Cursor => ({ status: 'idle', acked: seq(acked) });

export const pending = (acked: number, notified: number, material: number): Cursor => ({
  status: 'pending',
  acked: seq(acked),
  notified: seq(notified),
  material: seq(material),
});

// Plans one append: the stored event, the cursor rows it moves (or seeds) and the notices it
// asks for. Every store adapter calls it inside its own transaction, so the rules live once.
import { evolveCursor, fromWatermarks, noticeFor, toWatermarks, type Watermarks } from './cursor';
import type { StoredEvent } from './event';
import type { Notice } from './notice';
import type { Payload } from './payload';
import type { AppendCommand } from './recordInput';
import type { Sequence } from './sequence';
import type { SessionKey } from './sessionKey';

/** A durable cursor row: the pair, its watermarks, and when a watermark was last written. */
export interface CursorRow extends Watermarks {
  readonly watcher: SessionKey;
  readonly target: SessionKey;
  readonly touchedAt: number;
}

export interface AppendPlan {
  readonly event: StoredEvent;
  /** Rows to upsert, each with `touchedAt` = the append time. */
  readonly cursorWrites: readonly CursorRow[];
  readonly notices: readonly Notice[];
}

export interface AppendPlanInput {
  readonly command: AppendCommand;
  /** The sequence the store assigned; it must exceed the session's head. */
  readonly sequence: Sequence;
  readonly appendedAt: number;
  /** Every cursor whose target is `command.sessionKey`. */
  readonly cursorsOnTarget: readonly CursorRow[];
  /** For a spawn edge: the parent whose cursor on this session is seeded at the event. */
  readonly seedWatcher?: SessionKey;
}

/**
 * The event a command becomes once the store has given it a sequence. A store that keeps its own
 * copy of the payload, or has the default `occurredAt` string at hand, passes them in.
 */
export function toStoredEvent(
  command: AppendCommand,
  sequence: Sequence,
  appendedAt: number,
  occurredAt: string = command.occurredAt ?? new Date(appendedAt).toISOString(),
  payload: Payload | undefined = command.payload,
): StoredEvent {
  // Built by assignment rather than conditional spreads: this runs once per append (hot path).
  const event: { -readonly [K in keyof StoredEvent]: StoredEvent[K] } = {
    sessionKey: command.sessionKey,
    sequence,
    kind: command.kind,
    actorType: command.actorType,
    summary: command.summary,
    occurredAt,
    appendedAt,
  };
  if (command.actorSessionKey !== undefined) event.actorSessionKey = command.actorSessionKey;
  if (payload !== undefined) event.payload = payload;
  if (command.dedupeKey !== undefined) event.dedupeKey = command.dedupeKey;
  return event;
}

export function planAppend(input: AppendPlanInput): AppendPlan {
  const { command, sequence, appendedAt } = input;
  const event = toStoredEvent(command, sequence, appendedAt);
  const cursorWrites: CursorRow[] = [];
  const notices: Notice[] = [];
  for (const row of input.cursorsOnTarget) {
    if (row.watcher === input.seedWatcher) continue;
    const step = evolveCursor(row.watcher, fromWatermarks(row), {
      type: 'event',
      sequence,
      kind: command.kind,
      ...(command.actorSessionKey !== undefined ? { actorSessionKey: command.actorSessionKey } : {}),
    });
    if (step === undefined) continue;
    if (step.changed) cursorWrites.push({ ...row, ...toWatermarks(step.cursor), touchedAt: appendedAt });
    const notice = noticeFor(row.watcher, row.target, step);
    if (notice !== undefined) notices.push(notice);
  }
  if (input.seedWatcher !== undefined) {
    const seeded = evolveCursor(input.seedWatcher, undefined, { type: 'seed', at: sequence });
    if (seeded !== undefined) {
      cursorWrites.push({ watcher: input.seedWatcher, target: command.sessionKey, ...toWatermarks(seeded.cursor), touchedAt: appendedAt });
    }
  }
  return { event, cursorWrites, notices };
}

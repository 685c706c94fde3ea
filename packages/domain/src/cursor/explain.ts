// Explains a (watcher, target) pair from its cursor journal, for an operator asking why a
// watcher got (or did not get) a notice: one readable line per entry and the same as JSON.
import { lease, watchClass, type CursorEvent, type EndReason } from './cursor.js';
import type { CursorJournalEntry } from './journal.js';
import type { CursorPair } from '../ports/stateStore.port.js';

/** One journal entry, explained: its clock time as ISO text too, and what happened, in words. */
export interface ExplainedStep extends Omit<CursorJournalEntry, 'watcher' | 'target'> {
  readonly time: string;
  readonly text: string;
}

/** A pair's history: the JSON shape of `session-state explain --json`. */
export interface PairExplanation {
  readonly watcher: string;
  readonly target: string;
  /** `watching` when the last entry leaves a cursor, `ended` when it ended the watch, `unknown` without entries. */
  readonly status: 'watching' | 'ended' | 'unknown';
  /** True when retention removed the start of the current history (its first entry is not a watch start). */
  readonly truncated: boolean;
  readonly steps: readonly ExplainedStep[];
  /** The text form: one line per step and a closing line on the state now. */
  readonly lines: readonly string[];
}

const ENDED_BECAUSE: Record<EndReason, string> = {
  reset: 'the watcher session was reset',
  deleted: 'the watcher or the target session was deleted',
  expired: 'the cursor was not touched within the retention age and expired',
  replaced: 'a new spawn edge replaced the cursor',
  unwatched: 'the watcher stopped watching',
};

function describeCursorEvent(event: CursorEvent): string {
  switch (event.type) {
    case 'watch_started':
      if (event.via === 'spawn') return `watch started at ${event.at}: the watcher spawned the target (spawn edge); changes up to ${event.at} never notify it`;
      return `watch started at ${event.at}: an ${event.via === 'ambient' ? 'ambient watch (its notices are queued but wake nobody)' : 'explicit watch'}, at the target's head then`;
    case 'watch_promoted':
      return 'watch promoted: an explicit watch of this ambient watch; its notices wake the watcher from now on';
    case 'notice_raised':
      return `notice raised: a change by another actor at ${event.notified} while idle at ${event.acked}; the notice is frozen at ${event.notified} and says changesSince ${event.acked}`;
    case 'notice_acknowledged':
      return `notice acknowledged: a drain acknowledged up to ${event.acked}; nothing newer had arrived, idle at ${event.acked}`;
    case 'notice_reopened':
      return `notice reopened: a drain acknowledged up to ${event.acked} while changes up to ${event.notified} had arrived; one new notice is frozen at ${event.notified} and says changesSince ${event.acked}`;
    case 'notice_read':
      return event.notified > event.acked
        ? `notice read: the watcher's reconcile read the target up to ${event.acked} while changes up to ${event.notified} had arrived; one new notice is frozen at ${event.notified} and says changesSince ${event.acked}`
        : `notice read: the watcher's reconcile read the target up to its head ${event.acked}; the notice it covered is withdrawn, idle at ${event.acked}`;
    case 'notice_recovered':
      return `notice recovered: the restart scan raised the frozen watermark to ${event.notified}; the notice says changesSince ${event.acked}`;
    case 'notice_taken':
      return `notice taken: the watcher took the notice frozen at ${event.notified} (changesSince ${event.acked}), leased until ${isoTime(event.until)}; a confirm acknowledges it, else it is handed out again then`;
    case 'lease_expired':
      return 'lease expired: the taken notice was not confirmed in time (or the gateway restarted); it is handed out again';
    case 'material_kept':
      return `material kept: retention pruned the target's change at ${event.material} that keeps the notice pending; material stays ${event.material}`;
    case 'watch_ended':
      return `watch ended (${event.reason}): ${ENDED_BECAUSE[event.reason]}`;
  }
}

/** The clock value as ISO text, or as a number when it is outside the dates JavaScript can show. */
function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

function closingLine(last: CursorJournalEntry | undefined): string {
  if (last === undefined) return 'no journal entries: the pair was never watched, or retention removed its history';
  if (last.event.type === 'watch_ended') return 'now: not watching';
  if (last.material > last.acked) {
    const taken = last.takenUntil !== undefined ? `, taken until ${isoTime(last.takenUntil)}` : '';
    return `now (as of the last entry): one notice pending, changesSince ${last.acked}, frozen at ${last.notified}${taken}; later changes raise material (${last.material} then) without an entry`;
  }
  return `now (as of the last entry): idle at ${last.acked}; the next change by another actor raises a notice`;
}

/**
 * Explains the journal of one pair (`pair`, or the first entry's; entries of other pairs are left
 * out), entries in position order. Pure: times are printed from the entries' clock values.
 *
 * @example for (const line of explainPair(await store.readCursorJournal({ watcher, target }), { watcher, target }).lines) console.log(line);
 */
export function explainPair(entries: readonly CursorJournalEntry[], pair?: CursorPair): PairExplanation {
  const watcher = pair?.watcher ?? entries[0]?.watcher ?? '';
  const target = pair?.target ?? entries[0]?.target ?? '';
  const own = entries.filter((entry) => entry.watcher === watcher && entry.target === target);
  const steps = own.map(({ position, recordedAt, event, acked, notified, material, takenUntil, ambient }): ExplainedStep => ({ position, recordedAt, time: isoTime(recordedAt), event, acked, notified, material, ...lease(takenUntil), ...watchClass(ambient), text: describeCursorEvent(event) }));
  const last = own[own.length - 1];
  const first = own[0];
  const truncated = first !== undefined && first.event.type !== 'watch_started';
  const lines = [
    ...(truncated ? ['(retention removed the start of this history; it begins mid-watch)'] : []),
    ...steps.map((step) => `#${step.position} ${step.time} ${step.text} [acked ${step.acked}, notified ${step.notified}, material ${step.material}${step.ambient === true ? ', ambient' : ''}]`),
    closingLine(last),
  ];
  const status = last === undefined ? 'unknown' : last.event.type === 'watch_ended' ? 'ended' : 'watching';
  return { watcher, target, status, truncated, steps, lines };
}

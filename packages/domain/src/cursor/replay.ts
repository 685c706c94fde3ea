// Replay: a pair's cursor rebuilt from its journal and its target's retained events.
import { evolve, fromWatermarks, type CursorState } from './cursor.js';
import type { CursorJournalRecord } from './journal.js';
import type { SessionEvent } from '../log/event.js';
import { asSequence } from '../log/sequence.js';

/** What replay needs of a target event (as readChanges returns it). */
export type ReplayedTargetEvent = Pick<SessionEvent, 'sequence' | 'kind' | 'actorSessionKey'>;

/**
 * The cursor of the last entry's pair: from its latest `watch_started` (or the oldest retained
 * entry of the watch), its later entries, then the target events above the material they fold to
 * (an entry such as `watch_promoted` names no material, so the last entry's may be above it).
 */
export function replayCursor(entries: readonly CursorJournalRecord[], targetEvents: readonly ReplayedTargetEvent[]): CursorState {
  const last = entries[entries.length - 1];
  if (last === undefined) return undefined;
  const own = entries.filter((entry) => entry.watcher === last.watcher && entry.target === last.target);
  // The watch begins at its latest watch_started, or after the latest watch_ended, or at the oldest retained entry.
  let i = own.length - 1;
  while (i >= 0 && own[i]?.event.type !== 'watch_started' && own[i]?.event.type !== 'watch_ended') i -= 1;
  const begin = own[i]?.event.type === 'watch_ended' ? i + 1 : Math.max(i, 0);
  const first = own[begin];
  if (first === undefined) return undefined;
  // The oldest retained entry of the watch: its own watermarks are the state after it.
  let state: CursorState = first.event.type === 'watch_started' ? evolve(undefined, first.event) : fromWatermarks(first);
  for (const entry of own.slice(begin + 1)) state = evolve(state, entry.event);
  const above = state?.status === 'pending' ? state.material : last.material;
  const sorted = [...targetEvents].filter((event) => event.sequence > above).sort((a, b) => a.sequence - b.sequence);
  for (const event of sorted) state = evolve(state, { ...event, sequence: asSequence(event.sequence), type: 'target_event', watcher: last.watcher });
  return state;
}

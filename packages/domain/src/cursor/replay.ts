// Replay: a pair's cursor rebuilt from its journal and its target's retained signal events. The
// stored cursor row is a snapshot of this fold; the contract's replay property checks that every
// store keeps it so.
import { evolve, fromWatermarks, type CursorState } from './cursor.js';
import type { CursorJournalRecord } from './journal.js';
import type { StoredEvent } from '../log/event.js';

/** What replay needs of a target event. */
export type ReplayedTargetEvent = Pick<StoredEvent, 'sequence' | 'kind' | 'actorSessionKey'>;

/**
 * The cursor of one pair, rebuilt. `entries` is the pair's journal in position order (the whole
 * journal may be passed: entries of other pairs than the last entry's are ignored);
 * `targetEvents` the target's retained events (any order).
 *
 * The fold starts at the pair's latest `watch_started`, or, when retention removed it, at the
 * watermarks of the oldest retained entry of the current watch; folds the later entries with
 * `evolve`; then folds the target events above the last entry's material, which raise material
 * while the cursor is pending (a burst adds no journal entry). Undefined when the pair has no
 * entries or its last entry ended the watch.
 *
 * @example replayCursor(await store.readCursorJournal({ watcher, target }), (await store.readChanges(target, 0, 200)).events)
 */
export function replayCursor(entries: readonly CursorJournalRecord[], targetEvents: readonly ReplayedTargetEvent[]): CursorState {
  const last = entries[entries.length - 1];
  if (last === undefined) return undefined;
  const own = entries.filter((entry) => entry.watcher === last.watcher && entry.target === last.target);
  let begin = 0;
  for (let i = own.length - 1; i >= 0; i--) {
    const type = (own[i] as CursorJournalRecord).event.type;
    if (type === 'watch_started') {
      begin = i;
      break;
    }
    if (type === 'watch_ended') {
      begin = i + 1;
      break;
    }
  }
  const first = own[begin];
  if (first === undefined) return undefined;
  // The oldest retained entry of the watch: its own watermarks are the state after it.
  let state: CursorState = first.event.type === 'watch_started' ? evolve(undefined, first.event) : fromWatermarks(first);
  for (const entry of own.slice(begin + 1)) state = evolve(state, entry.event);
  const sorted = [...targetEvents].filter((event) => event.sequence > last.material).sort((a, b) => a.sequence - b.sequence);
  for (const event of sorted) {
    state = evolve(state, {
      type: 'target_event',
      watcher: last.watcher,
      sequence: event.sequence,
      kind: event.kind,
      ...(event.actorSessionKey !== undefined ? { actorSessionKey: event.actorSessionKey } : {}),
    });
  }
  return state;
}

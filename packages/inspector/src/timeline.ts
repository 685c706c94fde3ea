// A session's timeline for the page: its retained events after a sequence (each with the actor
// row it is drawn on), its head and its prune watermark, read page by page from the store.
import { asSequence, historyGap, kindClass, MAX_PAGE_LIMIT, type ChangesPage, type KindClass, type SessionEvent, type SessionKey, type StateStore } from '@session-state/domain';

/** An event as the timeline draws it: the `stateChanges` shape plus its actor row and kind class. */
export interface TimelineEvent extends SessionEvent {
  /** The row it is drawn on: the actor type, and the causing session when there is one (`agent agent:main:main`). */
  readonly actor: string;
  /** Whether the kind notifies watchers, seeds a cursor, or is log only. */
  readonly kindClass: KindClass;
}

/** One session's timeline; paging with `nextSince` reaches the head with no skip and no repeat. */
export interface Timeline {
  readonly sessionKey: string;
  /** The state version. */
  readonly head: number;
  /** The highest sequence pruned or deleted: events up to it are gone. */
  readonly pruneWatermark: number;
  readonly since: number;
  /** True when `since` is below the prune watermark: some events after it were pruned. */
  readonly historyGap: boolean;
  readonly events: readonly TimelineEvent[];
  /** More retained events follow the last one returned. */
  readonly hasMore: boolean;
  /** The last returned sequence (or `since` when none). */
  readonly nextSince: number;
  /** The actor rows of `events`, in order of first appearance. */
  readonly actors: readonly string[];
}

/** The most events one timeline request returns. */
export const TIMELINE_MAX_EVENTS = 1000;

/**
 * Reads `sessionKey`'s retained events after `since`, at most `limit` (1 to TIMELINE_MAX_EVENTS),
 * in pages of the store's largest page. Head and watermark come from the last page read.
 *
 * @example const timeline = await readTimeline(store, key, 0, 500);
 */
export async function readTimeline(store: StateStore, sessionKey: SessionKey, since: number, limit: number): Promise<Timeline> {
  const events: TimelineEvent[] = [];
  let after = asSequence(since);
  let page: ChangesPage;
  do {
    page = await store.readChanges(sessionKey, after, Math.min(MAX_PAGE_LIMIT, limit - events.length));
    for (const event of page.events) {
      events.push({ ...event, actor: event.actorSessionKey === undefined ? event.actorType : `${event.actorType} ${event.actorSessionKey}`, kindClass: kindClass(event.kind) });
      after = asSequence(event.sequence);
    }
  } while (page.hasMore && events.length < limit);
  return {
    sessionKey,
    head: page.head.head,
    pruneWatermark: page.head.pruneWatermark,
    since,
    historyGap: historyGap(page.head, asSequence(since)),
    events,
    hasMore: page.hasMore,
    nextSince: after,
    actors: [...new Set(events.map((event) => event.actor))],
  };
}

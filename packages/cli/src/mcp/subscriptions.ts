// The client's subscriptions, and telling it when a subscribed resource changed: `resources/subscribe` URIs
// (2025-11-25) and `subscriptions/listen` streams (2026-07-28), checked against what they were, coalesced: one
// `notifications/resources/updated` per change of state seen, never one per event behind it.
import type { RequestId } from '@modelcontextprotocol/server';
import type { SessionStateAwareness } from '@session-state/app';

import { orElse } from '../orElse.js';
import { parseUri, type ResourceRef } from './resources.js';

/** How often a check runs while anything is subscribed. */
export const CHECK_INTERVAL_MS = 1000;

export interface SubscriptionDeps {
  readonly awareness: SessionStateAwareness;
  readonly reader: string | undefined;
  /** The sessions the reader watches, sorted: the listed resources besides its notices. */
  readonly watchedSessions: () => Promise<readonly string[]>;
  readonly updated: (uri: string) => void;
  readonly listChanged: () => void;
  readonly warn: (line: string) => void;
}

export type Subscriptions = ReturnType<typeof createSubscriptions>;

export function createSubscriptions(deps: SubscriptionDeps) {
  const { awareness, reader } = deps;
  const subscribed = new Set<string>();
  const listens = new Map<RequestId, { readonly uris: readonly string[]; readonly listChanged: boolean }>();
  // What each watched URI (and the listing) was at the last check: a change from it is told once.
  let seen = new Map<string, string>();
  let seenListing: string | undefined;
  let failing = false;

  const watched = (): Map<string, ResourceRef> => {
    const uris = [...subscribed, ...[...listens.values()].flatMap((listen) => listen.uris)];
    return new Map(uris.map((uri) => [uri, parseUri(uri, reader)]));
  };
  const listingWatched = (): boolean => reader !== undefined && (subscribed.size > 0 || [...listens.values()].some((listen) => listen.listChanged));

  const compare = async (): Promise<void> => {
    const refs = watched();
    const states = await currentStates(awareness, [...refs.values()]);
    const now = new Map([...refs.keys()].map((uri, at) => [uri, states[at] ?? '']));
    for (const [uri, state] of now) if (seen.has(uri) && seen.get(uri) !== state) deps.updated(uri);
    seen = now;
    const listing = listingWatched() ? (await deps.watchedSessions()).join('\n') : undefined;
    if (listing !== undefined && seenListing !== undefined && listing !== seenListing) deps.listChanged();
    seenListing = listing;
  };

  // One compare at a time; calls while one waits to start share it, so a burst of triggers is one read.
  let chain: Promise<void> = Promise.resolve();
  let next: Promise<void> | undefined;
  const check = (): Promise<void> =>
    (next ??= chain = chain.then(async () => {
      next = undefined;
      try {
        await compare();
        failing = false;
      } catch {
        // Once per failing streak; the driver's words stay out (the store may quote what it was given).
        if (!failing) deps.warn('warning: could not read session state to check subscriptions; retrying');
        failing = true;
      }
    }));

  const anyWatched = (): boolean => subscribed.size > 0 || listens.size > 0;
  // Besides this process's own operations, a check every CHECK_INTERVAL_MS while anything is watched: the one place
  // that hears another process's change (the facade's cross-process change signals replace this timer).
  let timer: NodeJS.Timeout | undefined;
  const rearm = (): void => {
    if (anyWatched() && timer === undefined) timer = setInterval(() => void check(), CHECK_INTERVAL_MS).unref();
    else if (!anyWatched() && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  return {
    /** `resources/subscribe`: resolves once the URI's current state is the one later changes are compared with. */
    async subscribe(uri: string): Promise<void> {
      parseUri(uri, reader);
      subscribed.add(uri);
      rearm();
      await check();
    },
    unsubscribe(uri: string): void {
      subscribed.delete(uri);
      rearm();
    },
    /** A `subscriptions/listen` stream the SDK acknowledged with this filter; resolves once its baseline is read. */
    async listen(id: RequestId, filter: { readonly resourceSubscriptions?: readonly string[]; readonly resourcesListChanged?: boolean }): Promise<void> {
      // A stream may name resources of other servers: those are never updated.
      const uris = (filter.resourceSubscriptions ?? []).filter((uri) => orElse(() => Boolean(parseUri(uri, reader)), false));
      listens.set(id, { uris, listChanged: filter.resourcesListChanged === true });
      rearm();
      await check();
    },
    endListen(id: RequestId): void {
      if (listens.delete(id)) rearm();
    },
    /** Something this process did (a tool call, a queued notice) may have changed a watched resource. */
    poke(): void {
      if (anyWatched()) void check();
    },
    async close(): Promise<void> {
      subscribed.clear();
      listens.clear();
      rearm();
      await chain;
    },
  };
}

/**
 * What each resource is now, as text to compare: a session's head (one `list` for them all), a watcher's pending
 * notices. A resource whose text changed is one the client is told about.
 */
async function currentStates(awareness: SessionStateAwareness, refs: readonly ResourceRef[]): Promise<string[]> {
  const sessions = refs.filter((ref) => ref.kind === 'session').map((ref) => ref.key);
  const heads = new Map(sessions.length === 0 ? [] : (await awareness.list(sessions)).map((row) => [row.sessionKey, String(row.stateVersion)]));
  return refs.map((ref) => (ref.kind === 'session' ? (heads.get(ref.key) ?? '') : JSON.stringify(awareness.pending(ref.key))));
}

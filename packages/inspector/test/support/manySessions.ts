// A large store made fast: many sessions appended straight through the store port in batches,
// and cursors seeded by `watch`, for the tests of what the inspector reads at gateway scale.
import type { SessionKey, StateStore } from '@session-state/domain';

/** Appends one event of `kind` (default `compacted`, log only) to each key, 500 per batch. */
export async function appendOneEach(store: StateStore, keys: readonly string[], now: number, kind: 'compacted' | 'goal_changed' = 'compacted'): Promise<void> {
  for (let start = 0; start < keys.length; start += 500) {
    await store.append(
      keys.slice(start, start + 500).map((sessionKey) => ({
        command: { sessionKey: sessionKey as SessionKey, kind, actorType: 'system' as const, summary: 'compacted' as never, onlyIfWatched: false },
        appendedAt: now,
      })),
    );
  }
}

/** `agent:a<i % agents>:s<i>` for i below `count`. */
export function sessionKeys(count: number, agents = 40): string[] {
  return Array.from({ length: count }, (_, i) => `agent:a${i % agents}:s${i}`);
}

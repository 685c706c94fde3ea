// A store with `drainThenAppend` over any store (the drain's call, then the append's, the drain's
// own failure kept apart as the port asks), so the facade's path for such a store (the drain at
// the head of a group-commit batch, PostgreSQL's) runs on the memory and SQLite stores too.
import type { StateStore } from '@session-state/domain';
import type { StoreKind } from '@session-state/testkit';

/** One `drainThenAppend` call: the drained watcher and how many appends came with it. */
export interface JoinedCall {
  readonly watcher: string;
  readonly appends: number;
}

/** `store` with `drainThenAppend`; each call is pushed to `calls`. */
export function withDrainThenAppend(store: StateStore, calls: JoinedCall[] = []): StateStore {
  return {
    ...store,
    async drainThenAppend(drain, batch) {
      calls.push({ watcher: drain.watcher, appends: batch.length });
      let drained: Awaited<ReturnType<NonNullable<StateStore['drainThenAppend']>>>['drained'];
      try {
        drained = { ok: true, outcomes: await store.drain(drain.watcher, drain.acks, drain.now) };
      } catch (error) {
        drained = { ok: false, error };
      }
      return { drained, appended: await store.append(batch) };
    },
  };
}

/** `base` with every store it opens (and reopens) given `drainThenAppend`. */
export function drainThenAppendKind(base: StoreKind): StoreKind {
  return {
    name: `${base.name} + drainThenAppend`,
    async open() {
      const harness = await base.open();
      return {
        ...harness,
        store: withDrainThenAppend(harness.store),
        reopen: async () => withDrainThenAppend(await harness.reopen()),
      };
    },
  };
}

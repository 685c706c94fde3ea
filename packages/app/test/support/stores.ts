// The store matrix every facade test runs against: each entry opens a fresh store and can
// reopen the same durable state after the facade closed it (a restart).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createMemoryStore } from '@session-state/adapters-memory';
import { openSqliteStore } from '@session-state/adapters-sqlite';
import type { StateStore } from '@session-state/domain';

/** One store under test, with the state that survives a restart. */
export interface StoreUnderTest {
  /** The store for the first facade. */
  readonly store: StateStore;
  /** After the facade closed `store` (or a previous reopen): the same state again. */
  reopen(): StateStore;
  /** Removes anything left on disk. */
  cleanup(): Promise<void>;
}

export interface StoreKind {
  readonly name: string;
  open(): StoreUnderTest;
}

/**
 * Memory: the facade closes the store it is given, so the facade gets a view whose `close` is
 * a no-op; a restart is a new facade over the same store object.
 */
const memory: StoreKind = {
  name: 'memory',
  open() {
    const shared = createMemoryStore();
    const view = (): StateStore => ({ ...shared, close: async () => undefined });
    return { store: view(), reopen: view, cleanup: () => shared.close() };
  },
};

/** SQLite on a temporary file; a restart opens the same file again. */
const sqlite: StoreKind = {
  name: 'sqlite',
  open() {
    const dir = mkdtempSync(join(tmpdir(), 'session-state-app-'));
    const path = join(dir, 'state.db');
    let latest = openSqliteStore({ path });
    return {
      store: latest,
      reopen: () => {
        latest = openSqliteStore({ path });
        return latest;
      },
      cleanup: async () => {
        await latest.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export const STORE_KINDS: readonly StoreKind[] = [memory, sqlite];

/** `describe.each` rows: `[name, kind]`. */
export const storeMatrix = STORE_KINDS.map((kind) => [kind.name, kind] as const);

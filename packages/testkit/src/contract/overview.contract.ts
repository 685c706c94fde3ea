// The contract of StateStore.readOverview, registered inside the StateStore contract: every
// store answers what `overviewOf` states over its full heads and cursors, for any limits, and
// refuses limits that are not non-negative integers.
import { expect } from 'expect';

import { decodeRecordInput, isStoreError, overviewOf, type AppendRequest, type OverviewLimits, type SessionKey, type StateStore } from '@session-state/domain';

import type { TestRunner } from './testRunner.js';

const T0 = Date.UTC(2026, 10, 29, 10, 0, 0);
const [A, B, C, D, E, F] = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => `agent:${id}:main` as SessionKey) as [SessionKey, SessionKey, SessionKey, SessionKey, SessionKey, SessionKey];

/** A notifying change to `sessionKey` made by another agent session. */
function change(sessionKey: SessionKey): AppendRequest {
  const decoded = decodeRecordInput({ kind: 'goal_changed', actorType: 'agent', actorSessionKey: E, summary: 'a change', sessionKey });
  if (decoded._tag === 'Left') throw new Error(`test fixture: ${decoded.left.message}`);
  return { command: decoded.right, appendedAt: T0 };
}

/** Registers the readOverview tests; `current` gives the test's store. */
export function describeOverviewContract(current: () => StateStore, { describe, test }: TestRunner): void {
  describe('readOverview', () => {
    /** Six cursors (three pending, each holding a notice), five sessions with heads, one deleted (a tombstone, pruned). */
    async function scene(store: StateStore): Promise<void> {
      for (const [watcher, target] of [[A, B], [A, C], [D, B], [D, C], [B, E], [E, A]] as const) await store.watch({ watcher, target, now: T0 });
      const outcomes = await store.append([change(B), change(C), change(B), change(E), change(F), change(F)]);
      const onC = outcomes[1];
      if (onC?.type !== 'appended') throw new Error('test fixture: the change to C was not appended');
      await store.drain(A, [{ target: C, notified: onC.event.sequence }], T0 + 1);
      await store.deleteSession(F, T0 + 2);
    }

    test('gives the counts over every row, the first heads by key and at most the limit of cursors, pending ones first: as overviewOf over readHeads and listCursors, for any limits', async () => {
      const store = current();
      expect(store.readOverview).toBeDefined();
      await scene(store);
      const heads = await store.readHeads();
      const cursors = await store.listCursors();
      const whole = await store.readOverview?.({ heads: 100, cursors: 100 });
      expect(whole?.counts).toEqual({ sessions: 4, cursors: 6, pendingPairs: 4, pendingNotices: 4, highestHead: Math.max(...heads.map((row) => row.head)), prunedSessions: 1 });
      expect(whole?.cursors.slice(0, 4).map((row) => `${row.watcher} -> ${row.target}`)).toEqual([`${A} -> ${B}`, `${B} -> ${E}`, `${D} -> ${B}`, `${D} -> ${C}`]);
      for (const limits of [{ heads: 0, cursors: 0 }, { heads: 1, cursors: 1 }, { heads: 2, cursors: 5 }, { heads: 100, cursors: 100 }]) {
        expect(await store.readOverview?.(limits)).toEqual(overviewOf(heads, cursors, limits));
      }
    });

    test('refuses limits that are not non-negative integers, naming the field, and writes nothing', async () => {
      const store = current();
      await scene(store);
      const before = await store.listCursors();
      for (const [limits, field] of [[{ heads: -1, cursors: 1 }, 'limits.heads'], [{ heads: 1, cursors: 1.5 }, 'limits.cursors'], [{ heads: 1 }, 'limits.cursors'], [undefined, 'limits.heads']] as const) {
        const failure: unknown = await store.readOverview?.(limits as unknown as OverviewLimits).then(() => 'answered', (e: unknown) => e);
        expect(isStoreError(failure) && failure.operation === 'readOverview' && failure.message.includes(field)).toBe(true);
      }
      expect(await store.listCursors()).toEqual(before);
    });
  });
}

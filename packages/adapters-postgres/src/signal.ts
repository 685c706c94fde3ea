// Cursor signals, the sending side and the payload both sides share: a transaction that moved
// cursors in a way their owner must hear of (a cursor newly pending, a cursor removed) NOTIFYs
// once per target at its commit, naming the target and the watchers of those cursors, so a
// gateway that owns none of them skips the signal instead of re-reading (listen.ts decodes it).
import type { SessionKey } from '@session-state/domain';
import type { PoolClient } from 'pg';

import type { StoreDb } from './storeDb.js';
import { run } from './transaction.js';

// --- the payload -------------------------------------------------------------------------------

/**
 * PostgreSQL refuses a payload of 8000 bytes or more; a target whose watchers would not fit is
 * signalled by its key alone, which every listener treats as "any watcher".
 */
export const MAX_SIGNAL_PAYLOAD_BYTES = 7_999;

/** What one notification says: the target, and the watchers it concerns (undefined: any watcher). */
export interface CursorSignal {
  readonly target: SessionKey;
  readonly watchers?: readonly SessionKey[];
}

/**
 * The payload: the target key, then each watcher key, separated by single spaces (session keys
 * never hold whitespace). A payload that would be too long names the target alone.
 *
 * @example signalPayload(target, [watcher]) // 'agent:t:main agent:w:main'
 */
export function signalPayload(target: string, watchers: readonly string[]): string {
  const payload = [target, ...watchers].join(' ');
  return Buffer.byteLength(payload, 'utf8') <= MAX_SIGNAL_PAYLOAD_BYTES ? payload : target;
}

/** Reads a payload `signalPayload` wrote; one without watchers (the target alone) concerns any watcher. */
export function readSignalPayload(payload: string): CursorSignal {
  const [target, ...watchers] = payload.split(' ') as [SessionKey, ...SessionKey[]];
  return watchers.length === 0 ? { target } : { target, watchers };
}

// --- sending -------------------------------------------------------------------------------

/** A (watcher, target) pair to signal: a removed CursorPair or a Notice both are one. */
export interface SignalledPair {
  readonly watcher: string;
  readonly target: string;
}

/**
 * Signals `pairs` to every listener when (and only if) the caller's transaction commits: one
 * notification per distinct target, naming that target's watchers. Call it for cursors that
 * became pending and for cursors removed; nothing is sent for an empty list.
 *
 * @example await signalPairs(db, client, plan.removed);
 */
export async function signalPairs(db: StoreDb, client: PoolClient, pairs: readonly SignalledPair[]): Promise<void> {
  if (pairs.length === 0) return;
  const only = pairs.length === 1 ? pairs[0] : undefined;
  if (only !== undefined) {
    // The usual case (one cursor became pending): no grouping to do.
    await run(client, db.statements.notifyPayloads, { channel: db.channel, payloads: [signalPayload(only.target, [only.watcher])] });
    return;
  }
  const watchersByTarget = new Map<string, Set<string>>();
  for (const { watcher, target } of pairs) {
    const watchers = watchersByTarget.get(target);
    if (watchers === undefined) watchersByTarget.set(target, new Set([watcher]));
    else watchers.add(watcher);
  }
  const payloads = [...watchersByTarget].map(([target, watchers]) => signalPayload(target, [...watchers]));
  await run(client, db.statements.notifyPayloads, { channel: db.channel, payloads });
}

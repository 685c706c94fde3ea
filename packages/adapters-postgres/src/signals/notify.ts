// Cursor signals: a transaction that made cursors pending or removed them NOTIFYs per target at commit, naming the watchers.
import type { SessionKey } from '@session-state/domain';
import type { PoolClient } from 'pg';

import { run } from '../connection/transaction.js';
import type { StoreDb } from '../storeDb.js';

/** PostgreSQL refuses a payload of 8000 bytes or more; a longer one names the target alone ("any watcher"). */
export const MAX_SIGNAL_PAYLOAD_BYTES = 7_999;

/** What one notification says: the target, and the watchers it concerns (undefined: any watcher). */
type CursorSignal = { readonly target: SessionKey; readonly watchers?: readonly SessionKey[] };

/**
 * The target key, then each watcher key, space-separated (keys hold no whitespace); the target alone when too long.
 * @example signalPayload(target, [watcher]) // 'agent:t:main agent:w:main'
 */
export function signalPayload(target: string, watchers: readonly string[]): string {
  const payload = [target, ...watchers].join(' ');
  return Buffer.byteLength(payload, 'utf8') <= MAX_SIGNAL_PAYLOAD_BYTES ? payload : target;
}

export function readSignalPayload(payload: string): CursorSignal {
  const [target, ...watchers] = payload.split(' ') as [SessionKey, ...SessionKey[]];
  return watchers.length === 0 ? { target } : { target, watchers };
}

/** Signals `pairs` (cursors that became pending or were removed) when the caller's transaction commits: one notification per target. */
export async function signalPairs(db: StoreDb, client: PoolClient, pairs: readonly { readonly watcher: string; readonly target: string }[]): Promise<void> {
  if (pairs.length === 0) return;
  const watchersByTarget = new Map<string, Set<string>>();
  for (const { watcher, target } of pairs) watchersByTarget.set(target, (watchersByTarget.get(target) ?? new Set()).add(watcher));
  const payloads = [...watchersByTarget].map(([target, watchers]) => signalPayload(target, [...watchers]));
  await run(client, db.statements.notifyPayloads, { channel: db.channel, payloads });
}

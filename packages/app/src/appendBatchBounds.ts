// The bounds of one group-commit batch of appends, and the weight of one append request, so no
// single append transaction blocks the event loop for longer than the prune target (20 ms).
import { PAYLOAD_MAX_BYTES, type AppendRequest } from '@session-state/domain';

import type { BatchBounds } from './groupCommit';

/**
 * At most 256 appends, and at most 256 KiB of summaries and payloads, per store transaction.
 *
 * Measured on the SQLite store (a file in WAL mode, synchronous=NORMAL; 2 shared cores, Node 20,
 * SQLite 3.53): one append costs 10–17 µs with a small payload and about 40 µs with a 4 KiB one
 * (roughly 7 µs more per KiB). A full batch is then about 3–4 ms at the median (256 small
 * appends, or some 60 appends of 4 KiB), which leaves room under the 20 ms target for a loaded
 * machine. Larger batches buy little: at 256 the per-transaction cost is already spread thin.
 * `npm run bench -- --only 8` shows the longest block of a 100,000-record burst.
 */
export const APPEND_BATCH_BOUNDS: BatchBounds = { maxRequests: 256, maxWeight: 256 * 1024 };

/** Deeper than any valid payload (the Payload codec allows 16 levels). */
const MAX_WALK_DEPTH = 17;

/**
 * About the characters of `value`'s JSON text, walked rather than serialised: the store
 * serialises it once, and the record path must not do it a second time. Never throws: a value
 * that cannot be walked weighs the most a payload may.
 */
function jsonWeight(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object' || value === null) return 8;
  if (depth >= MAX_WALK_DEPTH) return PAYLOAD_MAX_BYTES;
  let weight = 2;
  if (Array.isArray(value)) {
    for (const item of value as readonly unknown[]) weight += jsonWeight(item, depth + 1) + 1;
    return weight;
  }
  const object = value as Readonly<Record<string, unknown>>;
  for (const key in object) weight += key.length + 4 + jsonWeight(object[key], depth + 1);
  return weight;
}

/** The weight of one append: its summary and its payload, in characters (about bytes). */
export function appendRequestWeight(request: AppendRequest): number {
  const { summary, payload } = request.command;
  if (payload === undefined) return summary.length;
  try {
    return summary.length + Math.min(PAYLOAD_MAX_BYTES, jsonWeight(payload, 0));
  } catch {
    return summary.length + PAYLOAD_MAX_BYTES;
  }
}

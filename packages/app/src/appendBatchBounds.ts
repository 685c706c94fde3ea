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

/**
 * The weight of one append: its summary and its payload's JSON text (taken once, at the call),
 * in characters (about bytes).
 */
export function appendRequestWeight(request: AppendRequest): number {
  const { summary, payloadJson } = request.command;
  return summary.length + (payloadJson === undefined ? 0 : Math.min(PAYLOAD_MAX_BYTES, payloadJson.length));
}

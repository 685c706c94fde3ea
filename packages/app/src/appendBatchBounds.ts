// The bounds of one group-commit batch of appends, and the weight of one append request, so no
// single append transaction blocks the event loop for longer than the prune target (20 ms).
import { PAYLOAD_MAX_BYTES, type AppendRequest } from '@session-state/domain';

import type { BatchBounds } from './groupCommit.js';

/**
 * At most 128 appends, and at most 256 KiB of summaries and payloads, per store transaction.
 *
 * Measured on the SQLite store (a file in WAL mode, synchronous=NORMAL; 2 shared cores, Node 20,
 * SQLite 3.53): one append costs 10–25 µs with a small payload and about 40 µs with a 4 KiB one
 * (roughly 7 µs more per KiB). A full batch is then about 3 ms at the median (128 small appends,
 * or some 60 appends of 4 KiB), which leaves room under the 20 ms target for a loaded machine:
 * on a slow, shared one, 256 small appends took 6–7 ms at the median and up to 25 ms
 * (`npm run bench -- --only 8`: the longest block of a 100,000-record burst was 20–25 ms at 256
 * and 14–16 ms at 128, with the library's records/s no lower). Larger batches buy little: at 128
 * the per-transaction cost is already spread thin.
 */
export const APPEND_BATCH_BOUNDS: BatchBounds = { maxRequests: 128, maxWeight: 256 * 1024 };

/**
 * The weight of one append: its summary and its payload's JSON text (taken once, at the call),
 * in characters (about bytes).
 */
export function appendRequestWeight(request: AppendRequest): number {
  const { summary, payloadJson } = request.command;
  return summary.length + (payloadJson === undefined ? 0 : Math.min(PAYLOAD_MAX_BYTES, payloadJson.length));
}

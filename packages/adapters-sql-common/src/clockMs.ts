// Clock readings as the store keeps and compares them: whole milliseconds. The clock port may
// answer with a fraction (performance.timeOrigin + performance.now()); every store floors each
// reading it stores or compares (appendedAt, touched_at, the `now` of watch, drain, recover and
// prune), so such a clock behaves the same on every store and fits an integer column.
import type { AppendRequest } from '@session-state/domain';

/** `ms` floored to a whole millisecond (a non-finite value is left for the store to refuse). */
export function wholeMs(ms: number): number {
  return Math.floor(ms);
}

/** The batch with each `appendedAt` floored; the same array when every one is whole already. */
export function withWholeMs(batch: readonly AppendRequest[]): readonly AppendRequest[] {
  if (batch.every((request) => Number.isInteger(request.appendedAt))) return batch;
  return batch.map((request) => (Number.isInteger(request.appendedAt) ? request : { ...request, appendedAt: wholeMs(request.appendedAt) }));
}

// The arithmetic of one bounded retention batch, the same in both adapters (their SQL differs).
import { planJournalWindow, type PrunePreview, type PruneRequest } from '@session-state/domain';

/**
 * A batch's age cutoffs: events and journal entries before `cutoff` go, cursors untouched since `cursorCutoff` expire;
 * `byAge`, `cursorsByAge`: at all. A non-finite cutoff (an infinite age limit) prunes nothing by age.
 */
export function retentionCutoff(request: PruneRequest) {
  const cutoff = request.now - request.maxAgeMs;
  const cursorCutoff = request.now - (request.cursorMaxAgeMs ?? request.maxAgeMs);
  const [finite, cursorFinite] = [Number.isFinite(cutoff), Number.isFinite(cursorCutoff)];
  return { cutoff, finite, byAge: finite && request.batchSize > 0, cursorCutoff, cursorFinite, cursorsByAge: cursorFinite && request.batchSize > 0 };
}

/** Where a batch's journal window starts (`journalAfter`, else 0), checked: a non-negative safe integer. */
function journalAfterOf(request: PruneRequest): number {
  const after = request.journalAfter ?? 0;
  if (!Number.isSafeInteger(after) || after < 0) throw new RangeError(`invalid journalAfter: expected a non-negative safe integer, got ${String(after)}`);
  return after;
}

/** A cutoff SQL can compare with: an infinite age limit (cutoff -Infinity) counts nothing as old. */
const sqlCutoff = (cutoff: number): number => (Number.isFinite(cutoff) ? cutoff : Number.MIN_SAFE_INTEGER);

export function pruneCountParams(request: PruneRequest): { readonly cutoff: number; readonly cursorCutoff: number } {
  const { cutoff, cursorCutoff } = retentionCutoff(request);
  return { cutoff: sqlCutoff(cutoff), cursorCutoff: sqlCutoff(cursorCutoff) };
}

/** The preview from the `pruneCounts` row: every aged event, then the oldest of the rest beyond `maxRows`. */
export function previewOfCounts(row: readonly unknown[] | undefined, request: PruneRequest): PrunePreview {
  const [aged, kept, idle] = [0, 1, 2].map((column) => Number(row?.[column] ?? 0)) as [number, number, number];
  return { eventsToDelete: aged + Math.max(0, kept - request.maxRows), cursorsToExpire: idle };
}

/** The `journalWindowEntries` values of a batch: one entry beyond its window, to see the journal's end. */
export function journalWindowParams(request: PruneRequest, beyondCap: number): { readonly after: number; readonly size: number; readonly beyondCap: number; readonly cutoff: number } {
  return { after: journalAfterOf(request), size: request.batchSize + 1, beyondCap, cutoff: pruneCountParams(request).cutoff };
}

/** planJournalWindow over the `journalWindowEntries` rows read with journalWindowParams, with `beyondCap` from `journalExcess`. */
export function planJournalRows(rows: readonly (readonly unknown[])[], request: PruneRequest, beyondCap: number) {
  const window = rows.slice(0, request.batchSize).map(([position, watcher, target, recordedAt, removable]) => ({ position: Number(position), watcher: String(watcher), target: String(target), recordedAt: Number(recordedAt), removable: Boolean(removable) }));
  const plan = planJournalWindow({ window, after: journalAfterOf(request), beyondCap, cutoff: retentionCutoff(request).cutoff, batchSize: request.batchSize });
  return { ...plan, reachesEnd: rows.length <= request.batchSize };
}

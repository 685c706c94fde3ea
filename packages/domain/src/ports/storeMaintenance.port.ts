// What the CLI's prune asks of a store beside the port: a preview, and giving freed space back.
import type { PruneRequest } from './stateStore.port.js';

/** What a prune request would do now, read without writing. */
export interface PrunePreview {
  readonly eventsToDelete: number;
  readonly cursorsToExpire: number;
}

/** The store's size before and after `StoreMaintenance.vacuum`, in bytes. */
export interface VacuumResult {
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

export interface StoreMaintenance {
  /** What `prune` run to completion would delete and expire, counted without writing. */
  previewPrune(request: PruneRequest): Promise<PrunePreview>;
  /** Gives back the space pruned rows left, reporting the size before and after; absent where nothing is given back. */
  vacuum?(): Promise<VacuumResult>;
}

/** Whether `store` offers `previewPrune` (and perhaps `vacuum`). */
export function isStoreMaintenance(store: object): store is StoreMaintenance {
  return typeof (store as Partial<StoreMaintenance>).previewPrune === 'function';
}

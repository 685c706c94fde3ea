// WAL frames one append writes, counted on a file: the WAL emptied (TRUNCATE checkpoint), `ops`
// appends, then the frame count a passive checkpoint reports. SQLite's auto-checkpoint runs in the
// commit that takes the WAL past 1,000 frames, so this says how often a commit carries one.
import Database from 'better-sqlite3';

/**
 * Frames the WAL held after `ops` calls of `op` (each one commit), per call; undefined when the
 * count cannot be had (a busy checkpoint, or the appends took the WAL past the auto-checkpoint,
 * which starts it over): a note's figure, never a reason to fail the workload.
 */
export async function walFramesPerRecord(path: string, ops: number, op: (k: number) => unknown): Promise<number | undefined> {
  // A connection of its own: the library's is not reachable through the facade.
  const probe = new Database(path);
  try {
    probe.pragma('wal_checkpoint(TRUNCATE)');
    for (let k = 0; k < ops; k++) await op(k);
    const [row] = probe.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    // At 1,000 frames a commit checkpointed and the WAL started over: the count would be short.
    if (row === undefined || row.busy !== 0 || row.log >= 1000) return undefined;
    return row.log / ops;
  } finally {
    probe.close();
  }
}

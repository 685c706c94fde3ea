// WAL frames one append writes, counted on a file: the WAL emptied (TRUNCATE checkpoint), `ops`
// appends while a read transaction holds every checkpoint off (so the WAL cannot start over under
// the count), then the frame count a passive checkpoint reports. SQLite's auto-checkpoint runs in
// the commit that takes the WAL past 1,000 frames, so this says how often a raw commit carries one.
import Database from 'better-sqlite3';

/**
 * Frames the WAL held after `ops` calls of `op` (each one commit), per call; undefined when the
 * count cannot be had (the WAL could not be emptied first, or a checkpoint was busy): a note's
 * figure, never a reason to fail the workload.
 */
export async function walFramesPerRecord(path: string, ops: number, op: (k: number) => unknown): Promise<number | undefined> {
  // A connection of its own: the library's is not reachable through the facade.
  const probe = new Database(path);
  try {
    // The library's checkpoint worker may be copying the WAL back: a truncating checkpoint then reports busy.
    let emptied = false;
    for (let tries = 0; !emptied && tries < 50; tries += 1) {
      const [row] = probe.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      emptied = row !== undefined && row.busy === 0;
      if (!emptied) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (!emptied) return undefined;
    // A snapshot taken on the empty WAL reads the database file alone: no checkpoint may copy
    // into it while it is open (SQLite's auto-checkpoint and the library's worker alike).
    probe.exec('BEGIN');
    probe.prepare('SELECT count(*) FROM sqlite_schema').get();
    try {
      for (let k = 0; k < ops; k++) await op(k);
    } finally {
      probe.exec('COMMIT');
    }
    const [row] = probe.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    if (row === undefined || row.busy !== 0) return undefined;
    return row.log / ops;
  } finally {
    probe.close();
  }
}

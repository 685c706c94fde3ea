// WAL frames one append writes, counted on a file: the WAL emptied, `ops` appends while a read
// transaction holds every checkpoint off, then the frame count a passive checkpoint reports.
import Database from 'better-sqlite3';

/** Frames per call of `op`; undefined when the WAL could not be emptied first or a checkpoint was busy. */
export async function walFramesPerRecord(path: string, ops: number, op: (k: number) => unknown): Promise<number | undefined> {
  const probe = new Database(path);
  try {
    let emptied = false;
    for (let tries = 0; !emptied && tries < 50; tries += 1) {
      const [row] = probe.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      emptied = row !== undefined && row.busy === 0;
      if (!emptied) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (!emptied) return undefined;
    // A snapshot on the empty WAL: no checkpoint may copy into the file while it is open.
    probe.exec('BEGIN');
    probe.prepare('SELECT count(*) FROM sqlite_schema').get();
    try {
      for (let k = 0; k < ops; k++) await op(k);
    } finally {
      probe.exec('COMMIT');
    }
    const [row] = probe.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number }[];
    return row === undefined || row.busy !== 0 ? undefined : row.log / ops;
  } finally {
    probe.close();
  }
}

// Tells whether a file is a session-state SQLite file, without creating or migrating anything,
// so a read-only tool can refuse a missing or foreign file instead of writing a schema into it.
import Database from 'better-sqlite3';

/** True when `path` is an existing SQLite file that this adapter has migrated (bookkeeping table, user_version ≥ 1). */
export function isStateFile(path: string): boolean {
  let client: Database.Database | undefined;
  try {
    client = new Database(path, { readonly: true, fileMustExist: true });
    const version = client.pragma('user_version', { simple: true }) as number;
    // The migration bookkeeping marks the file as ours; a damaged state file still counts, so
    // opening it reports what is wrong instead of calling it foreign.
    const bookkeeping = client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    return version >= 1 && bookkeeping !== undefined;
  } catch {
    return false;
  } finally {
    client?.close();
  }
}

// PostgreSQL's bounded waits (lock_timeout, statement_timeout) reported as SQLite's busy timeout: "database is locked"; `code` keeps the SQLSTATE.

/** lock_not_available (lock_timeout), query_canceled (statement_timeout or a cancel request). */
const LOCKED_STATES: Record<string, string> = {
  '55P03': 'another transaction held a row this operation needs for longer than lockTimeoutMs',
  '57014': 'PostgreSQL cancelled a statement of this operation that ran longer than statementTimeoutMs (or was cancelled by an operator)',
};

class DatabaseLockedError extends Error {
  override readonly name = 'DatabaseLockedError';

  /** `code`: the SQLSTATE PostgreSQL failed with. */
  constructor(message: string, readonly code: string, cause: unknown) {
    super(message, { cause });
  }
}

export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` is a lock wait or statement that PostgreSQL ended at its bound (wrapped or not). */
export const isLockedFailure = (error: unknown): boolean => Object.hasOwn(LOCKED_STATES, sqlState(error) ?? '');

/** Whether `error` (or a RequestFailed's `failure`) is node-postgres giving up on a server that did not answer (its query_timeout passed). */
export function isNoAnswer(error: unknown): boolean {
  const inner = error instanceof Error && 'failure' in error ? (error as { readonly failure: unknown }).failure : error;
  return inner instanceof Error && inner.message === 'Query read timeout';
}

/** Whether opening a connection failed at connectTimeoutMs: a server that does not answer, so no other connection is tried. */
export function isConnectTimeout(error: unknown): boolean {
  return error instanceof Error && /timeout/i.test(error.message);
}

/** The failure of an operation whose connection `isNoAnswer` closed: not retried. */
export function noAnswerError(cause: unknown): Error {
  return new Error('PostgreSQL did not answer within statementTimeoutMs plus one second: the connection was closed and nothing of the operation was kept', { cause });
}

/** `error` as the store reports it: a DatabaseLockedError for a bounded wait, else unchanged. */
export function reportLocked(error: unknown): unknown {
  if (error instanceof DatabaseLockedError || !isLockedFailure(error)) return error;
  const code = sqlState(error) as string;
  return new DatabaseLockedError(`database is locked: ${LOCKED_STATES[code]} (SQLSTATE ${code}); nothing of it was kept`, code, error);
}

// Whether a transaction whose COMMIT answer was lost with its connection committed, read on another connection (txid_status).
import type { Pool } from 'pg';

/** How often an 'in progress' answer is asked again (the lost backend may still be ending), and the pause between. */
const ASKS = 50;
const PAUSE_MS = 10;

/** 'committed' or 'aborted' as the server recorded it; undefined when it cannot tell. */
export async function commitStatus(pool: Pool, transactionId: string): Promise<'committed' | 'aborted' | undefined> {
  for (let ask = 0; ask < ASKS; ask += 1) {
    let status: unknown;
    try {
      // pool.query hears the client's 'error' and closes a client that failed.
      status = (await pool.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [transactionId])).rows[0]?.status;
    } catch {
      return undefined;
    }
    if (status === 'committed' || status === 'aborted') return status;
    if (status !== 'in progress') return undefined;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  return undefined;
}

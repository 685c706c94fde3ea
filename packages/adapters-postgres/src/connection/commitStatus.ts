// Whether a transaction whose COMMIT's answer was lost with its connection committed, read on
// another connection from the server's record of transaction ids (txid_status, PostgreSQL 10+).
import type { Pool } from 'pg';

import { checkOut } from './checkOut.js';

export type CommitStatus = 'committed' | 'aborted' | undefined;

/** How often an 'in progress' answer is asked again (the lost backend may still be ending), and the pause between. */
const ASKS = 50;
const PAUSE_MS = 10;

/** 'committed' or 'aborted' as the server recorded it; undefined when it cannot tell. */
export async function commitStatus(pool: Pool, transactionId: string): Promise<CommitStatus> {
  for (let ask = 0; ask < ASKS; ask += 1) {
    let status: unknown;
    try {
      const held = await checkOut(pool);
      try {
        const found = await held.client.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [transactionId]);
        status = found.rows[0]?.status;
        held.release();
      } catch (error) {
        held.release(true);
        throw error;
      }
    } catch {
      return undefined;
    }
    if (status === 'committed' || status === 'aborted') return status;
    if (status !== 'in progress') return undefined;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  return undefined;
}

// A pool connection held with an 'error' listener (unheard, a dropped connection's error ends the process): the loss is kept, queries reject.
import type { Pool, PoolClient } from 'pg';

export interface HeldClient {
  readonly client: PoolClient;
  /** The error the connection was lost with, once it was. */
  lostError(): unknown;
  /** Whether the connection still answers (a probe after a failure); false marks it lost. */
  answers(probe: string): Promise<boolean>;
  /** Hands the client back (once); a lost or `broken` one is closed instead of pooled. */
  release(broken?: boolean): void;
}

export async function checkOut(pool: Pool): Promise<HeldClient> {
  const client = await pool.connect();
  let lost: unknown;
  let released = false;
  const onError = (error: unknown): void => void (lost ??= error ?? new Error('the connection failed'));
  client.on('error', onError);
  return {
    client,
    lostError: () => lost,
    async answers(probe) {
      try {
        await client.query(probe);
        return lost === undefined;
      } catch (error) {
        onError(error);
        return false;
      }
    },
    release(broken = false) {
      if (released) return;
      released = true;
      client.release(broken || lost !== undefined);
      client.removeListener('error', onError);
    },
  };
}

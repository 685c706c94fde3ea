// A connection of its own, without the pool's bounds on lock waits and statements: for the migrations at open and VACUUM, which may run long.
import pg, { type ClientConfig } from 'pg';

export async function withUnboundedClient<T>(config: ClientConfig, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  // A connection lost here rejects the query under way; unheard, its 'error' would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

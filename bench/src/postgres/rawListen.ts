// The raw listening side on PostgreSQL: one dedicated pg.Client that ran `LISTEN channel` (the
// channel quoted as the store quotes it) and hands every notification's payload – the target key,
// then the watchers it concerns – to a callback, as the store's listening connection does (listen.ts).
import pg from 'pg';

export interface RawListener {
  close(): Promise<void>;
}

/** Connects, LISTENs on `channel`, and calls `heard(payload)` for each notification on it. */
export async function rawPgListen(url: string, channel: string, heard: (payload: string) => void): Promise<RawListener> {
  const client = new pg.Client({ connectionString: url, keepAlive: true });
  client.on('error', () => undefined);
  client.on('notification', (message) => {
    if (message.channel === channel && message.payload !== undefined) heard(message.payload);
  });
  await client.connect();
  try {
    await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  return { close: () => client.end() };
}

// The raw listening side: a dedicated pg.Client that ran `LISTEN channel` and hands every
// notification's payload (the target, then its watchers) to a callback.
import pg from 'pg';

export async function rawPgListen(url: string, channel: string, heard: (payload: string) => void): Promise<{ close(): Promise<void> }> {
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

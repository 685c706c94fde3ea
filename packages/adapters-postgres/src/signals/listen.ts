// Cross-process signals: one connection LISTENs on the channel; a lost one is reported, re-established with backoff and followed by resync.
import { storeError, type CursorSignalListener, type CursorSignalSubscription } from '@session-state/domain';
import pg, { type ClientConfig, type Notification } from 'pg';

import { HEARTBEAT_MS } from '../connection/options.js';
import { readSignalPayload } from './notify.js';

const FIRST_RETRY_MS = 100;
/** The listening connection's application_name, so an operator can tell it apart in pg_stat_activity. */
export const LISTEN_APPLICATION_NAME = 'session-state listen';
const MAX_RETRY_MS = 5_000;

interface ListenSettings {
  readonly config: ClientConfig;
  readonly channel: string;
  readonly heartbeatMs?: number;
  /** Whether a server process is one of the store's own pooled connections, whose commits' callers have the outcome. */
  readonly isOwnBackend?: (pid: number) => boolean;
}

/** Resolves once the first LISTEN is in place (and `resync` was called), rejects when that connection fails; later losses are retried until `close`. */
export async function listenForSignals(settings: ListenSettings, listener: CursorSignalListener): Promise<CursorSignalSubscription> {
  const { channel } = settings;
  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const onNotification = (message: Notification): void => {
    if (closed || message.channel !== channel || message.payload === undefined || message.payload === '') return;
    if (settings.isOwnBackend?.(message.processId) === true) return;
    const signal = readSignalPayload(message.payload);
    listener.targetsChanged([signal.target], signal.watchers);
  };

  /** Ends `connection`, deaf to its notifications from now on. */
  const end = (connection: pg.Client): Promise<void> => {
    connection.removeAllListeners('notification');
    return connection.end().catch(() => undefined);
  };

  /** Drops the current connection (reporting why) and schedules a new one. */
  const lost = (connection: pg.Client, error: unknown): void => {
    if (closed || client !== connection) return;
    client = undefined;
    clearInterval(heartbeat);
    heartbeat = undefined;
    void end(connection);
    listener.failed(storeError('listen', error));
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(() => void (retryMs = FIRST_RETRY_MS), () => undefined);
    }, retryMs).unref();
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  const connect = async (initial = false): Promise<void> => {
    const connection = new pg.Client({ ...settings.config, application_name: LISTEN_APPLICATION_NAME });
    client = connection;
    connection.on('error', (error) => lost(connection, error));
    connection.on('end', () => lost(connection, new Error('the listening connection ended')));
    connection.on('notification', onNotification);
    try {
      await connection.connect();
      // The channel is built from a checked schema name; quoted as an identifier.
      await connection.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    } catch (error) {
      if (initial) {
        client = undefined;
        void end(connection);
      } else lost(connection, error);
      throw error;
    }
    if (closed) return end(connection);
    heartbeat = setInterval(() => connection.query('SELECT 1').catch((error: unknown) => lost(connection, error)), settings.heartbeatMs ?? HEARTBEAT_MS).unref();
    // Anything committed before LISTEN took effect was not signalled: re-read everything owned.
    listener.resync();
  };

  const subscription: CursorSignalSubscription = {
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(heartbeat);
      const connection = client;
      client = undefined;
      if (connection !== undefined) await end(connection);
    },
  };

  try {
    await connect(true);
  } catch (error) {
    await subscription.close();
    throw storeError('listen', error);
  }
  return subscription;
}

// Starts the inspector: reads the overview, keeps it current from the change source, and serves
// the page and its endpoints on a local port until closed. It never writes to the store; the
// caller opens the store (read-only) and closes it after the inspector.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

import { createAdaptorServer } from '@hono/node-server';
import type { StateStore } from '@session-state/domain';

import { createInspectorApp } from './app.js';
import type { ChangeSource } from './changes.js';
import { allowedHosts, urlHost, WILDCARD_HOSTS } from './hostCheck.js';
import { startLiveOverview } from './liveOverview.js';
import { loadStaticAssets } from './staticAssets.js';

/** The port the inspector listens on when none is given. */
export const DEFAULT_INSPECTOR_PORT = 4319;
/** The address it listens on when none is given: this machine only. */
export const DEFAULT_INSPECTOR_HOST = '127.0.0.1';

export interface InspectorOptions {
  /** The store to show, opened read-only by the caller (`openSqliteStore({ path, readOnly: true })`). */
  readonly store: StateStore;
  /** How the inspector hears of commits: `sqliteFileChanges(path)` or `storeSignalChanges(store)`. */
  readonly changes: ChangeSource;
  /** What the page names as its store: a file path, or a URL without its password. */
  readonly label: string;
  /** Default DEFAULT_INSPECTOR_PORT (4319); 0 picks a free port. */
  readonly port?: number;
  /**
   * Default DEFAULT_INSPECTOR_HOST (127.0.0.1). Requests are answered only when their Host header
   * names this address with the port (for loopback: 127.0.0.1, localhost or [::1]; for 0.0.0.0 or
   * ::, also this machine's name and interface addresses). Anything but loopback shows the store
   * to the network (`isLoopbackHost`).
   */
  readonly host?: string;
  /** The Prometheus text served at /metrics (e.g. a prom-client registry's `metrics()`); /metrics answers 404 without it. */
  readonly metricsText?: () => Promise<string>;
}

/** A running inspector. */
export interface RunningInspector {
  /** The page's address, e.g. `http://127.0.0.1:4319/` (the loopback one when listening on every interface). */
  readonly url: string;
  readonly port: number;
  /** Stops serving (ending open event streams) and stops the change source; the store stays open. */
  close(): Promise<void>;
}

/**
 * Starts serving; rejects when the port cannot be had (the listen error, e.g. EADDRINUSE) or the
 * first read of the store fails, leaving nothing running.
 *
 * @example const inspector = await startInspector({ store, changes: sqliteFileChanges(file), label: file });
 */
export async function startInspector(options: InspectorOptions): Promise<RunningInspector> {
  const host = options.host ?? DEFAULT_INSPECTOR_HOST;
  const port = options.port ?? DEFAULT_INSPECTOR_PORT;
  const assets = loadStaticAssets();
  const live = await startLiveOverview(options.store, options.changes);
  let allowed: ReadonlySet<string> = new Set();
  const { app, endStreams } = createInspectorApp({ ...options, live, assets, allowedHosts: () => allowed });
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host });
  try {
    // Rejects with the listen error (EADDRINUSE, EACCES) when it comes before 'listening'.
    await once(server.listen(port, host), 'listening');
  } catch (error) {
    await live.close();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  allowed = allowedHosts(host, bound);
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(WILDCARD_HOSTS.has(host) ? DEFAULT_INSPECTOR_HOST : host)}:${bound}/`,
    port: bound,
    close: () => {
      closing ??= (async () => {
        endStreams();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await live.close();
      })();
      return closing;
    },
  };
}

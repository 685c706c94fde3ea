// `session-state inspect [--port N] [--host H]`: serves the live inspector page of the store
// (the watch graph, timelines, cursor histories, pending notices, metrics) until interrupted. A
// read command: the store is opened read-only and nothing is written. The inspector package is
// loaded only here, so the other commands never load its server.
import type { Command } from 'commander';

import { accepting, checkedOption, integerFrom } from '../args.js';
import { UsageError } from '../output/errors.js';
import { interruption, type RunContext } from '../output/io.js';
import { maskUrl } from '../state/secrets.js';
import { withStore, type StateLocation } from '../state/stateLocation.js';

type InspectOptions = { readonly port: number; readonly host: string };

const DEFAULT_PORT = 4319;
const DEFAULT_HOST = '127.0.0.1';

const parsePort = integerFrom(0, 65_535, 'a port from 0 (any free one) to 65535', 5);
const parseHost = accepting((value) => /^[\w.:-]{1,253}$/u.test(value), 'a host name or IP address');

/** What the page calls the store: the file as named, or the server URL without its password and the schema. */
function labelOf(location: StateLocation): string {
  return location.kind === 'sqlite' ? location.path : `${maskUrl(location.url)} (schema ${location.schema})`;
}

/** The listen failure as the option to change: a port in use or not allowed, an address this machine does not have. */
function listenFailure(error: unknown, options: InspectOptions): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE') return new UsageError('--port', `port ${options.port} on ${options.host} is in use (EADDRINUSE); choose another, or --port 0 for any free one`);
  if (code === 'EACCES') return new UsageError('--port', `port ${options.port} needs privileges this process lacks (EACCES); choose one above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new UsageError('--host', `cannot listen on ${options.host} (${code}): not an address of this machine`);
  }
  return error;
}

export function registerInspect(program: Command, { io, out }: RunContext): void {
  program
    .command('inspect')
    .description('serve a live, read-only web page of the store: watch graph, timelines, cursor histories, pending notices, metrics (Ctrl-C to stop)')
    .addOption(checkedOption('--port <N>', 'the port to listen on; 0 picks a free one', parsePort).default(DEFAULT_PORT))
    .addOption(checkedOption('--host <address>', 'the address to listen on (requests must name it as their Host); anything but 127.0.0.1, ::1 or localhost shows the store to the network', parseHost).default(DEFAULT_HOST))
    .action(async (options: InspectOptions, command: Command) => {
      await withStore(command, io.cwd, async (store, location) => {
        const { startInspector, sqliteFileChanges, storeSignalChanges, isLoopbackHost } = await import('@session-state/inspector');
        const { createSessionStateMetrics, GAUGE_NAMES } = await import('@session-state/prometheus');
        const changes = location.kind === 'sqlite' ? sqliteFileChanges(location.file) : storeSignalChanges(store);
        // No facade runs here: the facade's counters and queue depth belong to each gateway's
        // process and read zero in the inspector, so only the gauge read from the store is served.
        const metrics = createSessionStateMetrics({ store });
        const metricsText = (): Promise<string> => metrics.registry.getSingleMetricAsString(GAUGE_NAMES.pendingPairs.name).then((text) => `${text}\n`);
        const inspector = await startInspector({ store, changes, metricsText, label: labelOf(location), port: options.port, host: options.host }).catch((error: unknown) => {
          throw listenFailure(error, options);
        });
        try {
          out.lines([inspector.url]);
          out.note(`inspecting ${labelOf(location)} (read-only) at ${inspector.url}; Ctrl-C to stop`);
          if (!isLoopbackHost(options.host)) {
            out.note(`warning: --host ${options.host} is not a loopback address: the store (session keys, pending notices, summaries, payloads) is readable from the network by anyone who can reach port ${inspector.port}`);
          }
          const stop = interruption(io);
          await stop.promise.finally(stop.dispose);
        } finally {
          await inspector.close();
        }
      });
    });
}

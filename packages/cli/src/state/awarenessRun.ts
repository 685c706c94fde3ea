// Running one facade call on an opened store, as the write commands (record, reset, delete) do:
// the facade without its start-up work, its logged errors held back until the command's outcome
// is known, and closed (with the store) whatever happens. The app package is loaded here, when a
// write command runs, never for the help or a read command.
import type { SessionStateAwareness } from '@session-state/app';
import type { Logger, StateStore } from '@session-state/domain';

import { createCliLogger } from '../output/cliLogger.js';

/**
 * Opens the facade on `store`, runs `use`, and closes both. No restart scan (it would raise the
 * watchers' frozen notices, which only a gateway that delivers them should do) and no prune (the
 * default limits may not be the gateway's). A failed call is both logged and returned by the
 * library; the command prints the returned error as its one line, so logged errors are printed
 * (as warnings) only when `use` succeeds.
 */
export async function withAwareness<T>(store: StateStore, note: (line: string) => void, use: (awareness: SessionStateAwareness) => Promise<T>): Promise<T> {
  const { createSessionStateAwareness } = await import('@session-state/app');
  const cli = createCliLogger(note);
  const held: Parameters<Logger['error']>[] = [];
  const logger: Logger = { warn: cli.warn, error: (...report) => void held.push(report) };
  const awareness = await createSessionStateAwareness({ store, logger, startup: { restartScan: false, prune: 'off' } });
  const value = await use(awareness).finally(() => awareness.close());
  for (const report of held) cli.warn(...report);
  return value;
}

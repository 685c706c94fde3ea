// `session-state status <sessionKey> [--since N] [--limit N]`: the session_status answer read
// straight from the store (reading never touches a cursor or a notice).
import type { Command } from 'commander';
import { asSequence, buildStateChanges, MAX_PAGE_LIMIT, type SessionKey, type SessionStatus, type StateStore } from '@session-state/domain';

import { checkedOption, parsePageLimit, parseSequence, sessionKeyArgument } from '../args.js';
import { UsageError } from '../output/errors.js';
import { eventTable, plural } from '../output/format.js';
import type { JsonOption, RunContext } from '../output/io.js';
import { withStore } from '../state/stateLocation.js';

/**
 * A status answer (the session_status JSON) plus every other field the human form shows: the
 * prune watermark it was read under, and whether the store knows the session (false when it has no
 * head: it never had an event here, a typo or another store).
 */
export type StatusReading = SessionStatus & { readonly pruneWatermark: number; readonly exists: boolean };

/** Reads a session's status from the store, with the delta when `since` is given. */
export async function readStatus(store: StateStore, sessionKey: string, since?: number, limit?: number): Promise<StatusReading> {
  const key = sessionKey as SessionKey;
  const [row] = await store.readHeads([key]);
  const exists = row !== undefined;
  if (since === undefined) return { sessionKey, stateVersion: row?.head ?? asSequence(0), pruneWatermark: row?.pruneWatermark ?? 0, exists };
  const page = await store.readChanges(key, asSequence(since), limit ?? MAX_PAGE_LIMIT);
  const stateChanges = buildStateChanges(page, asSequence(since));
  return { sessionKey, stateVersion: page.head.head, stateChanges, pruneWatermark: page.head.pruneWatermark, exists };
}

export function statusLines({ sessionKey, stateVersion, stateChanges: changes, pruneWatermark, exists }: StatusReading): string[] {
  const lines = [
    `session          ${sessionKey}${exists ? '' : ' (no such session in this store: it has no events; check the key and --db)'}`,
    `state version    ${stateVersion}`,
    `prune watermark  ${pruneWatermark}`,
  ];
  if (changes === undefined) return lines;
  lines.push(
    `changes          ${plural(changes.events.length, 'event')} (historyGap ${changes.historyGap}, earliestRetained ${changes.earliestRetained}, hasMore ${changes.hasMore}, nextSince ${changes.nextSince})`,
  );
  if (changes.events.length > 0) lines.push('', ...eventTable(changes.events));
  return lines;
}

export function registerStatus(program: Command, { io, out }: RunContext): void {
  program
    .command('status')
    .description("a session's state version and, with --since, the exact delta after it")
    .addArgument(sessionKeyArgument('<sessionKey>', 'the session to read'))
    .addOption(checkedOption('--since <N>', 'list the retained events after sequence N (changesSince)', parseSequence))
    .addOption(checkedOption('--limit <N>', `at most N events, 1-${MAX_PAGE_LIMIT} (default ${MAX_PAGE_LIMIT}); needs --since`, parsePageLimit))
    .option('--json', 'print the session_status JSON, with the prune watermark and whether the session exists')
    .action(async (sessionKey: string, options: JsonOption & { readonly since?: number; readonly limit?: number }, command: Command) => {
      if (options.limit !== undefined && options.since === undefined) throw new UsageError('--limit', 'only applies with --since');
      out.print(options, await withStore(command, io.cwd, (store) => readStatus(store, sessionKey, options.since, options.limit)), statusLines);
    });
}

// `session-state mcp [--reader <watcherKey>] [--allow-write]`: serves the agent's tools
// (session_status, sessions_list, record with --allow-write, notices_wait with --reader) and the
// session-state resources over stdio to an MCP client, on the store --db names. Nothing but the
// protocol goes to stdout; warnings go to stderr. The SDK is loaded only when this command runs.
import type { Command } from 'commander';
import type { SessionKey } from '@session-state/domain';

import { checkedOption, parseDuration, parseSessionKey } from '../args.js';
import { createCliLogger } from '../output/cliLogger.js';
import type { RunContext } from '../output/io.js';
import { openExisting, stateLocation } from '../state/stateLocation.js';

const WHAT_MCP_DOES = `
Serves the agent's tools over stdio (Model Context Protocol, revisions 2025-11-25 and 2026-07-28)
until the client closes its input:
  session_status  a session's state version and the exact delta after changesSince
  sessions_list   the state version of each named session
  record          append an event (only with --allow-write; otherwise refused as not_allowed)
  notices_wait    (with --reader) wait for the reader's next notice, at most timeoutSeconds
and resources a client can read and subscribe to (notifications/resources/updated on a change):
  session-state://sessions/{sessionKey}          { sessionKey, stateVersion }
  session-state://watchers/{watcherKey}/notices  the --reader watcher's pending notices
It needs an existing store, never creates one and never prunes. With --reader it delivers that
watcher's notices (no gateway may own it too): those pending at start (a restart scan of its
cursors alone), notices_wait, and its pending notices attached to every other answer
(structuredContent.notices and a second text block), each confirmed once its answer is written,
else handed out again when --notice-lease ends; its session_status reads that reach the head
acknowledge its cursor. Without --reader it delivers no notices and writes nothing at start.
Claude Code (.mcp.json) and most hosts run it as:
  { "mcpServers": { "session-state": { "command": "npx", "args": ["session-state", "mcp", "--db", "/path/to/session-state.db", "--reader", "agent:main:main"] } } }
Codex (~/.codex/config.toml):
  [mcp_servers.session-state]
  command = "npx"
  args = ["session-state", "mcp", "--db", "/path/to/session-state.db", "--reader", "agent:main:main"]
See docs/agent-tools.md for what reaches the model in each host, and \`hook\` for the hosts' hooks.`;

type McpOptions = { readonly reader?: string; readonly allowWrite?: boolean; readonly noticeLease?: number };

export function registerMcp(program: Command, { io, out }: RunContext): void {
  program
    .command('mcp')
    .description("serve the agent's tools (session_status, sessions_list, record, notices_wait) and resources to an MCP client over stdio")
    .addOption(checkedOption('--reader <watcherKey>', 'the watcher session the client reconciles for: its notices are delivered, its reads acknowledge them', parseSessionKey))
    .option('--allow-write', 'also offer the record tool')
    .addOption(checkedOption('--notice-lease <duration>', 'how long a notice handed to the client stays taken unless its answer is written (default 5m)', parseDuration))
    .addHelpText('after', WHAT_MCP_DOES)
    .action(async ({ reader, allowWrite = false, noticeLease }: McpOptions, command: Command) => {
      const stdin = io.stdin;
      if (stdin === undefined) throw new Error('mcp needs standard input to serve the protocol on');
      const location = stateLocation(command, io.cwd);
      const store = await openExisting(location, allowWrite || reader !== undefined);
      // Loaded here, not at the top: `--version`, help and the other commands never load the facade.
      const { createAgentTools, createSessionStateAwareness } = await import('@session-state/app');
      // With --reader this process owns that watcher's notices alone: the restart scan re-queues that watcher's pending
      // notices only, and it hears other processes' appends for it (the store's signals, the resync timer).
      let wake = (_watcherKey: string): void => undefined;
      const awareness = await createSessionStateAwareness({
        store,
        logger: createCliLogger(out.note),
        startup: { restartScan: reader !== undefined, prune: 'off' },
        wake: (watcherKey) => wake(watcherKey),
        leaseMs: noticeLease,
        ...(reader !== undefined ? { ownsSession: (sessionKey: string) => sessionKey === reader } : {}),
      });
      try {
        const agentTools = createAgentTools(awareness, { reader, allowWrite, notices: reader !== undefined });
        const { serveMcp } = await import('../mcp/server.js');
        await serveMcp({
          awareness,
          agentTools,
          withheld: allowWrite ? {} : { record: 'record is not offered: this server was started without --allow-write, so it only reads' },
          reader,
          watchedBy: async (watcher) => [...new Set((await store.listCursors({ watcher: watcher as SessionKey })).map((row) => row.target))].sort(),
          onWake: (listener) => {
            wake = (watcherKey) => {
              agentTools.wake(watcherKey);
              listener();
            };
          },
          stdin,
          run: { io, out },
        });
      } finally {
        await awareness.close();
      }
    });
}

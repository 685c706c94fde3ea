// `session-state mcp [--reader <watcherKey>] [--allow-write]`: serves the agent's tools
// (session_status, sessions_list, and record with --allow-write) and the session-state resources
// over stdio to an MCP client, on the store --db names. Nothing but the protocol goes to stdout;
// warnings go to stderr. The SDK is loaded only when this command runs.
import type { Command } from 'commander';
import type { SessionKey } from '@session-state/domain';

import { checkedOption, parseSessionKey } from '../args.js';
import { createCliLogger } from '../output/cliLogger.js';
import type { RunContext } from '../output/io.js';
import { openExisting, stateLocation } from '../state/stateLocation.js';

const WHAT_MCP_DOES = `
Serves the agent's tools over stdio (Model Context Protocol, revisions 2025-11-25 and 2026-07-28)
until the client closes its input:
  session_status  a session's state version and the exact delta after changesSince
  sessions_list   the state version of each named session
  record          append an event (only with --allow-write; otherwise refused as not_allowed)
and resources a client can read and subscribe to (notifications/resources/updated on a change):
  session-state://sessions/{sessionKey}          { sessionKey, stateVersion }
  session-state://watchers/{watcherKey}/notices  the --reader watcher's pending notices
It needs an existing store and never creates one. It runs no restart scan and never prunes. It
opens a state file read-only unless --reader or --allow-write need to write. With --reader, a
session_status read that reaches the head acknowledges that watcher's cursor, as the gateway's
reconcile does, and the resources list that watcher's notices and the sessions it watches.
Claude Code (.mcp.json) and most hosts run it as:
  { "mcpServers": { "session-state": { "command": "npx", "args": ["session-state", "mcp", "--db", "/path/to/session-state.db", "--reader", "agent:main:main"] } } }
Codex (~/.codex/config.toml):
  [mcp_servers.session-state]
  command = "npx"
  args = ["session-state", "mcp", "--db", "/path/to/session-state.db", "--reader", "agent:main:main"]
See docs/agent-tools.md for what reaches the model in each host.`;

export function registerMcp(program: Command, { io, out }: RunContext): void {
  program
    .command('mcp')
    .description("serve the agent's tools (session_status, sessions_list, record) and resources to an MCP client over stdio")
    .addOption(checkedOption('--reader <watcherKey>', 'the watcher session the client reconciles for: its reads acknowledge its notices', parseSessionKey))
    .option('--allow-write', 'also offer the record tool')
    .addHelpText('after', WHAT_MCP_DOES)
    .action(async (options: { readonly reader?: string; readonly allowWrite?: boolean }, command: Command) => {
      const stdin = io.stdin;
      if (stdin === undefined) throw new Error('mcp needs standard input to serve the protocol on');
      const location = stateLocation(command, io.cwd);
      const store = await openExisting(location, options.allowWrite === true || options.reader !== undefined);
      // Loaded here, not at the top: `--version`, help and the other commands never load the facade.
      const { createAgentTools, createSessionStateAwareness } = await import('@session-state/app');
      // An MCP reader must not write on start: no restart scan, no prune.
      // An MCP reader must not write on start: no restart scan, no prune. With --reader this process owns that watcher's
      // notices, so it hears of other processes' appends (PostgreSQL's signals, the resync timer) and queues them.
      let woken = (): void => undefined;
      const reader = options.reader;
      const awareness = await createSessionStateAwareness({
        store,
        logger: createCliLogger(out.note),
        startup: { restartScan: false, prune: 'off' },
        wake: () => woken(),
        ...(reader !== undefined ? { ownsSession: (sessionKey: string) => sessionKey === reader } : {}),
      });
      try {
        const { tools } = createAgentTools(awareness, { reader, allowWrite: options.allowWrite === true });
        const { serveMcp } = await import('../mcp/server.js');
        await serveMcp({
          awareness,
          tools,
          withheld: options.allowWrite === true ? {} : { record: 'record is not offered: this server was started without --allow-write, so it only reads' },
          reader,
          watchedBy: async (watcher) => [...new Set((await store.listCursors({ watcher: watcher as SessionKey })).map((row) => row.target))].sort(),
          onWake: (listener) => (woken = listener),
          warn: out.note,
          stdin,
          write: (text) => {
            if (!out.isClosed()) io.stdout.write(text);
          },
          stdoutClosed: out.closed,
          onInterrupt: io.onInterrupt,
        });
      } finally {
        await awareness.close();
      }
    });
}

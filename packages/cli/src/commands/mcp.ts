// `session-state mcp [--reader <watcherKey>] [--allow-write]`: serves the agent's tools
// (session_status, sessions_list, and record with --allow-write) over stdio to an MCP client, on
// the store --db names. Nothing but the protocol goes to stdout; warnings go to stderr. The SDK is
// loaded only when this command runs.
import type { Command } from 'commander';

import { checkedOption, parseSessionKey } from '../args.js';
import { createCliLogger } from '../output/cliLogger.js';
import type { RunContext } from '../output/io.js';
import { openExisting, stateLocation } from '../state/stateLocation.js';

const WHAT_MCP_DOES = `
Serves the agent's tools over stdio (Model Context Protocol) until the client closes its input:
  session_status  a session's state version and the exact delta after changesSince
  sessions_list   the state version of each named session
  record          append an event (only with --allow-write)
It needs an existing store and never creates one. It runs no restart scan and never prunes. It
opens a state file read-only unless --reader or --allow-write need to write. With --reader, a
session_status read that reaches the head acknowledges that watcher's cursor, as the gateway's
reconcile does. An MCP client config runs it as:
  { "command": "npx", "args": ["session-state", "mcp", "--db", "/path/to/session-state.db", "--reader", "agent:main:main"] }`;

export function registerMcp(program: Command, { io, out }: RunContext): void {
  program
    .command('mcp')
    .description("serve the agent's tools (session_status, sessions_list, record) to an MCP client over stdio")
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
      const awareness = await createSessionStateAwareness({ store, logger: createCliLogger(out.note), startup: { restartScan: false, prune: 'off' } });
      try {
        const { tools } = createAgentTools(awareness, {
          ...(options.reader !== undefined ? { reader: options.reader } : {}),
          allowWrite: options.allowWrite === true,
        });
        const { serveMcp } = await import('../mcpServer.js');
        await serveMcp({
          tools,
          withheld: options.allowWrite === true ? {} : { record: 'record is not offered: this server was started without --allow-write, so it only reads' },
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

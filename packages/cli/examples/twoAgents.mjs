// The two-agent story outside a gateway, played for real: a manager agent connected over MCP (`session-state mcp
// --reader`), a human turn in its child recorded by another process, the manager's notices_wait answering with the
// notice and its session_status reconciling; then the same notice path through the hook command.
//   node packages/cli/examples/twoAgents.mjs [--db PATH|postgres://…]   (after npm run build; default a temp state file;
//   on PostgreSQL the schema is SESSION_STATE_PG_SCHEMA's, as for the command line)
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const BIN = new URL('../bin/session-state.js', import.meta.url).pathname;
const MANAGER = 'agent:main:main';
const CHILD = 'agent:main:subagent:researcher';
const at = process.argv.indexOf('--db');
const db = at > 0 ? process.argv[at + 1] : join(mkdtempSync(join(tmpdir(), 'two-agents-')), 'session-state.db');
const started = Date.now();
const say = (line) => console.log(`${String(Date.now() - started).padStart(6)} ms  ${line}`);
/** Another process: the session-state command line. */
const cli = (...args) => spawnSync(process.execPath, [BIN, ...args, '--db', db], { encoding: 'utf8', input: args[0] === 'hook' ? JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'go on' }) : '' });

// The gateway spawns the child: the manager's cursor on it is seeded.
const { createSessionStateAwareness } = await import('@session-state/app');
const store = db.startsWith('postgres') ? await (await import('@session-state/adapters-postgres')).openPostgresStore({ connectionString: db, schema: process.env.SESSION_STATE_PG_SCHEMA }) : (await import('@session-state/adapters-sqlite')).openSqliteStore({ path: db });
const gateway = await createSessionStateAwareness({ store, startup: { restartScan: false, prune: 'off' } });
const spawned = await gateway.childSpawned({ parentKey: MANAGER, childKey: CHILD });
await gateway.close();
say(`1. the gateway spawned ${CHILD} for ${MANAGER} (#${spawned.event.sequence}) in ${db}`);

const client = new Client({ name: 'manager', version: '0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--db', db, '--reader', MANAGER], env: process.env }));
say(`2. the manager connected over MCP: ${(await client.listTools()).tools.map((tool) => tool.name).join(', ')}`);

const waiting = client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 120 } });
say('3. the manager waits: notices_wait');
const recorded = cli('record', CHILD, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'human message via telegram');
say(`4. another process recorded a human turn in the child: ${recorded.stdout.split('\n')[0]}`);
const [notice] = (await waiting).structuredContent.notices;
say(`5. notices_wait answered: ${notice.text}`);
const status = await client.callTool({ name: 'session_status', arguments: { sessionKey: notice.target, changesSince: notice.changesSince } });
const { stateVersion, stateChanges } = status.structuredContent;
say(`6. session_status reconciled: version ${stateVersion}, ${stateChanges.events.map((e) => `#${e.sequence} ${e.kind}`).join(', ')}; notices attached: ${status.structuredContent.notices?.length ?? 0}`);
const again = await client.callTool({ name: 'notices_wait', arguments: { timeoutSeconds: 1 } });
say(`7. nothing offered twice: notices_wait gives ${again.structuredContent.notices.length} notices`);
await client.close();

cli('record', CHILD, '--kind', 'goal_changed', '--actor', 'human', '--summary', 'the human changed the goal');
say('8. another process recorded a goal change; the manager is not connected');
say(`9. the host's UserPromptSubmit hook prints: ${cli('hook', 'claude-code', '--watcher', MANAGER).stdout.trim()}`);
say(`10. and the next turn's hook prints nothing: ${JSON.stringify(cli('hook', 'claude-code', '--watcher', MANAGER).stdout)}`);

// `session-state hook claude-code|codex --watcher K`: a host's hook command. It reads the hook event JSON on stdin,
// takes K's pending notices and prints them as the host's `additionalContext`, then confirms exactly what it printed;
// with none it prints nothing. It owns K for its run (a restart scan of K's cursors alone, never a prune), never
// exits 2 (both hosts read 2 as "block"), and gives up within its budget (--budget) with one line on stderr, exit 1.
import { text } from 'node:stream/consumers';

import { Argument, type Command } from 'commander';

import { checkedOption, named, oneOf, parseDuration, parseSessionKey } from '../args.js';
import { orElse } from '../orElse.js';
import { createCliLogger } from '../output/cliLogger.js';
import { StorageError } from '../output/errors.js';
import type { RunContext } from '../output/io.js';
import { openExisting, stateLocation } from '../state/stateLocation.js';

/** How long a hook may take by default, from start to exit: hosts wait on it before the turn goes on. */
const HOOK_BUDGET_MS = 4000;

const HOSTS = ['claude-code', 'codex'];
/** The events whose output can add context, for both hosts. */
const EVENTS = ['UserPromptSubmit', 'SessionStart', 'PostToolUse'];

const WHAT_HOOK_DOES = `
Reads the host's hook event JSON on stdin (UserPromptSubmit, SessionStart or PostToolUse), prints
  {"hookSpecificOutput":{"hookEventName":"<the event>","additionalContext":"<one notice per line>"}}
with the watcher's pending notices, then confirms them; with none it prints nothing. A failure (no
store, one that does not answer within --budget, another event) is one stderr line and exit 1, which
both hosts treat as non-blocking. No gateway may own the watcher. Claude Code (.claude/settings.json;
Codex: the same in ~/.codex/hooks.json, with \`hook codex\`):
  { "hooks": { "UserPromptSubmit": [ { "hooks": [ { "type": "command", "timeout": 10,
      "command": "npx session-state hook claude-code --db /path/to/session-state.db --watcher agent:main:main" } ] } ] } }
See docs/agent-tools.md for what each path delivers.`;

/** The event the host's JSON names, if it is one whose output adds context. */
function eventOf(input: string): string {
  const event = orElse(() => (JSON.parse(input) as { hook_event_name?: unknown } | null)?.hook_event_name, undefined);
  if (typeof event !== 'string' || !EVENTS.includes(event)) {
    throw new StorageError(`the hook input on stdin must be the host's event JSON with hook_event_name ${EVENTS.join(', ')} (events whose output adds context)`);
  }
  return event;
}

export function registerHook(program: Command, { io, out }: RunContext): void {
  program
    .command('hook')
    .description("a host's hook command: print the watcher's pending notices as the host's additionalContext, then confirm them")
    .addArgument(new Argument('<host>', 'the host that runs the hook').choices(HOSTS).argParser(named('<host>', oneOf(HOSTS))))
    .addOption(checkedOption('--watcher <watcherKey>', 'the watcher session whose notices the agent gets', parseSessionKey).makeOptionMandatory())
    // A longer budget than a timer can hold is the longest it holds, not an immediate give-up.
    .addOption(checkedOption('--budget <duration>', "how long it may take before it gives up; keep it under the host's hook timeout", (value) => Math.min(parseDuration(value), 2 ** 31 - 1)).default(HOOK_BUDGET_MS, '4s'))
    .addHelpText('after', WHAT_HOOK_DOES)
    .action(async (_host: string, { watcher, budget }: { readonly watcher: string; readonly budget: number }, command: Command) => {
      let late = false;
      const run = async (): Promise<void> => {
        if (io.stdin === undefined) throw new StorageError('hook needs standard input: the host writes its event JSON there');
        const event = eventOf(await text(io.stdin));
        const store = await openExisting(stateLocation(command, io.cwd), true);
        const { createSessionStateAwareness } = await import('@session-state/app');
        const awareness = await createSessionStateAwareness({
          store,
          logger: createCliLogger(out.note),
          ownsSession: (sessionKey) => sessionKey === watcher,
          resyncIntervalMs: 0,
          startup: { prune: 'off' },
        });
        try {
          const taken = await awareness.take(watcher);
          if (taken.length === 0 || late) return;
          const additionalContext = taken.map((notice) => notice.text).join('\n');
          out.lines([JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext } })]);
          // A failed write is reported on the next turn: then nothing is confirmed, and the notices come back.
          await new Promise((resolve) => setImmediate(resolve));
          if (!out.isClosed()) await awareness.confirm(watcher, taken);
        } finally {
          await awareness.close();
        }
      };
      // Cleared when run() settles: a budget left running would reject later, with no one awaiting it.
      let timer: NodeJS.Timeout | undefined;
      const outOfTime = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          late = true;
          reject(new StorageError(`the store did not answer within ${budget / 1000} s; no notices this turn (they are kept for the next)`));
        }, budget).unref();
      });
      try {
        await Promise.race([run(), outOfTime]);
      } finally {
        clearTimeout(timer);
      }
    });
}

// `session-state help [command]`: the help of the tool or of one command. Commander's own help
// command answers an unknown name with the whole help and then an error; this one says only that
// there is no such command, and which commands there are.
import type { Command } from 'commander';
import { describeValue } from '@session-state/domain';

import { UsageError } from '../output/errors.js';
import type { RunContext } from '../output/io.js';

/** A name that could be a command, so the message may repeat it; anything else is described, as every refused value. */
const COMMAND_LIKE = /^[a-z][a-z-]{0,30}$/u;

/** Replaces commander's help command with one that refuses an unknown name in one line. */
export function registerHelp(program: Command, _run: RunContext): void {
  program.helpCommand(false);
  program
    .command('help')
    .description('display help for a command')
    .argument('[command]', 'the command to explain')
    .action((name: string | undefined) => {
      if (name === undefined) {
        program.outputHelp();
        return;
      }
      const command = program.commands.find((candidate) => candidate.name() === name);
      if (command === undefined) {
        const named = COMMAND_LIKE.test(name) ? `"${name}"` : describeValue(name);
        const commands = program.commands.map((candidate) => candidate.name()).join(', ');
        throw new UsageError('help', `there is no command ${named}; the commands are ${commands}`);
      }
      command.outputHelp();
    });
}

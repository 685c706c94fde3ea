// `session-state completion bash|zsh`: prints the shell completion script for this program,
// generated from its command tree.
import { Argument, type Command } from 'commander';

import { named, oneOf } from '../args.js';
import { bashCompletion, zshCompletion } from '../completionScripts.js';
import type { RunContext } from '../output/io.js';

const SHELLS = ['bash', 'zsh'] as const;

export function registerCompletion(program: Command, { out }: RunContext): void {
  program
    .command('completion')
    .description('print the shell completion script for bash or zsh (e.g. source <(npx session-state completion bash); bash also completes npx session-state)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS).argParser(named('<shell>', oneOf(SHELLS))))
    .action((shell: (typeof SHELLS)[number]) => {
      // The script ends in a newline of its own; `lines` adds one per line.
      out.lines((shell === 'bash' ? bashCompletion(program) : zshCompletion(program)).trimEnd().split('\n'));
    });
}

// The commander Command every command of the tool is made of: it reports all the required
// options a command is missing in one message (commander stops at the first), and its help marks
// required options as such. Subcommands made with `.command()` are of this class too.
import { Command, Help, type Option } from 'commander';

/** Help text that marks a required option "(required)" after commander's own description. */
function optionDescription(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option);
  return option.mandatory ? `${text} (required)` : text;
}

/**
 * A commander Command with the tool's conventions: global options (--db, --schema) listed in
 * every command's help, required options marked there, and every missing one reported at once.
 *
 * @example new CliCommand('session-state').command('record').requiredOption('--kind <kind>')
 */
export class CliCommand extends Command {
  constructor(name?: string) {
    super(name);
    this.configureHelp({ showGlobalOptions: true, optionDescription });
  }

  override createCommand(name?: string): CliCommand {
    return new CliCommand(name);
  }

  /**
   * Commander calls this for the first required option it finds unset; the error names every
   * required option still unset, so the user fixes the command line once, not once per option.
   */
  missingMandatoryOptionValue(): never {
    const missing = this.options
      .filter((option) => option.mandatory && this.getOptionValue(option.attributeName()) === undefined)
      .map((option) => `'${option.flags}'`);
    const noun = missing.length === 1 ? 'option' : 'options';
    return this.error(`error: required ${noun} ${missing.join(', ')} not specified`, { code: 'commander.missingMandatoryOptionValue' });
  }
}

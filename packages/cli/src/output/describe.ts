// How the command-line tool names a wrong argument in an error: as the library names any wrong
// value (describeValue: by type and size, never its text), since any argument may hold message
// content (a summary typed where a key belongs, a payload, a password pasted into the wrong option).
import { describeValue } from '@session-state/domain';

/**
 * `an empty string`, `a string of 12 characters`; the size counts UTF-16 code units, as the
 * library's limits do. Never the text itself.
 *
 * @example describeArgument('hello') // 'a string of 5 characters'
 */
export function describeArgument(text: string): string {
  return describeValue(text);
}

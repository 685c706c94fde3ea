// How the command-line tool names a wrong value in an error: by its type and size, never its
// text, since any argument may hold message content (a summary typed where a key belongs, a
// payload, a password pasted into the wrong option).

/**
 * `an empty string`, `a string of 12 characters`; the size counts UTF-16 code units, as the
 * library's limits do. Never the text itself.
 *
 * @example describeArgument('hello') // 'a string of 5 characters'
 */
export function describeArgument(text: string): string {
  if (text.length === 0) return 'an empty string';
  return `a string of ${text.length} character${text.length === 1 ? '' : 's'}`;
}

/**
 * Any decoded value by type and size: a string as above, `a JSON object of 3 keys`, `an array
 * of 2 items`, `a number`, `a boolean`, `null`, `nothing`. Never a string's text or a number's value.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return describeArgument(value);
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).length;
    return `a JSON object of ${keys} key${keys === 1 ? '' : 's'}`;
  }
  return `a ${typeof value}`;
}

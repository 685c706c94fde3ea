// Text bound for a terminal, made inert: stored keys, summaries and payloads reach the human
// output, and a terminal acts on control characters (a C1 CSI or OSC clears the screen, rewrites
// earlier lines, sets the title) and reorders text on bidirectional overrides, so each such
// character is written as the JSON escape `\u009b` instead. On a JSON line the escape means the
// same character, so the value read back is unchanged.

// C0 (line breaks too: one output line is one line), DEL, C1, the line and paragraph
// separators, and the bidirectional embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * `line` with every character a terminal could act on written as `\uXXXX`.
 *
 * @example terminalSafe('a\u009b2Jb') // 'a\\u009b2Jb'
 */
export function terminalSafe(line: string): string {
  return line.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Event summaries: one normalised line of metadata, never message content.
import * as t from 'io-ts';

export const SUMMARY_MAX_LENGTH = 200;

/** How much of a summary is examined; a longer one is normalised as this prefix and `…`, so the work is bounded. */
export const SUMMARY_SCAN_LIMIT = 4096;

// Each run of control characters, tabs and line breaks (incl. U+2028/U+2029) becomes one space.
const CONTROL_RUN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu;
// With the `u` flag a well-formed surrogate pair is one code point (not Cs): only an unpaired surrogate matches.
const UNPAIRED_SURROGATES = /\p{Cs}/gu;

/** Control runs to one space, unpaired surrogates to U+FFFD, trimmed, cut to SUMMARY_MAX_LENGTH code points with `…`; '' when nothing is left. */
export function normaliseSummary(raw: string): string {
  let text = raw;
  if (text.length > SUMMARY_SCAN_LIMIT) {
    // The first SUMMARY_SCAN_LIMIT units, one fewer when the last would split a surrogate pair.
    const code = text.charCodeAt(SUMMARY_SCAN_LIMIT - 1);
    const prefix = text.slice(0, code >= 0xd800 && code < 0xdc00 ? SUMMARY_SCAN_LIMIT - 1 : SUMMARY_SCAN_LIMIT).replace(CONTROL_RUN, ' ');
    if (prefix.trim() === '') return '';
    text = `${prefix}…`;
  }
  const line = text.replace(CONTROL_RUN, ' ').replace(UNPAIRED_SURROGATES, '\uFFFD').trim();
  if (line.length <= SUMMARY_MAX_LENGTH) return line;
  const codePoints = Array.from(line);
  if (codePoints.length <= SUMMARY_MAX_LENGTH) return line;
  // Exactly 199 code points and the ellipsis, as the spec says (no trimming after the cut).
  return `${codePoints.slice(0, SUMMARY_MAX_LENGTH - 1).join('')}…`;
}

export type Summary = t.Branded<string, { readonly Summary: unique symbol }>;

/** Decodes any string to its normalised form; rejects non-strings and empty results. */
export const Summary: t.Type<Summary, string, unknown> = new t.Type<Summary, string, unknown>(
  'a non-empty one-line summary',
  (u): u is Summary => typeof u === 'string' && u !== '' && normaliseSummary(u) === u,
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c);
    const line = normaliseSummary(u);
    return line === '' ? t.failure(u, c) : t.success(line as Summary);
  },
  (a) => a,
);

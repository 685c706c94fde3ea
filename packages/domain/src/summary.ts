// Event summaries: one normalised line of metadata, never message content.
import * as t from 'io-ts';

export const SUMMARY_MAX_LENGTH = 200;

// Each run of control characters, tabs and line breaks (incl. U+2028/U+2029) becomes one space.
const CONTROL_RUN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu;

/**
 * Normalises a summary: control runs to one space, trimmed, capped at 200 characters (code
 * points; 199 and `…` when cut). Returns '' when nothing is left, which callers reject.
 */
export function normaliseSummary(raw: string): string {
  const line = raw.replace(CONTROL_RUN, ' ').trim();
  if (line.length <= SUMMARY_MAX_LENGTH) return line;
  const codePoints = Array.from(line);
  if (codePoints.length <= SUMMARY_MAX_LENGTH) return line;
  // Exactly 199 code points and the ellipsis, as the spec says (no trimming after the cut).
  return `${codePoints.slice(0, SUMMARY_MAX_LENGTH - 1).join('')}…`;
}

export interface SummaryBrand {
  readonly Summary: unique symbol;
}
export type Summary = t.Branded<string, SummaryBrand>;

/** Decodes any string to its normalised form; rejects non-strings and empty results. */
export const Summary = new t.Type<Summary, string, unknown>(
  'a non-empty one-line summary',
  (u): u is Summary => typeof u === 'string' && u !== '' && normaliseSummary(u) === u,
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c);
    const line = normaliseSummary(u);
    return line === '' ? t.failure(u, c) : t.success(line as Summary);
  },
  (a) => a,
);

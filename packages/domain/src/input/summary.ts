// Event summaries: one normalised line of metadata, never message content.
import * as t from 'io-ts';

import { toWellFormed } from './text.js';

export const SUMMARY_MAX_LENGTH = 200;

/**
 * How much of a summary is examined: a summary is at most 200 code points, so anything past
 * the first 4096 UTF-16 units can only be cut away, and reading it would make the work grow
 * with what the caller sent (tens of millions of characters blocked the event loop for
 * seconds). A longer summary is normalised as its first 4096 units followed by `…`.
 */
export const SUMMARY_SCAN_LIMIT = 4096;

// Each run of control characters, tabs and line breaks (incl. U+2028/U+2029) becomes one space.
const CONTROL_RUN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu;

/** The first SUMMARY_SCAN_LIMIT units of `raw`, one fewer when the last would split a surrogate pair. */
function examinedPrefix(raw: string): string {
  const code = raw.charCodeAt(SUMMARY_SCAN_LIMIT - 1);
  return raw.slice(0, code >= 0xd800 && code < 0xdc00 ? SUMMARY_SCAN_LIMIT - 1 : SUMMARY_SCAN_LIMIT);
}

/**
 * Normalises a summary: control runs to one space, each unpaired surrogate to U+FFFD (so the
 * stored text is well-formed and reads back the same from every store), trimmed, capped at 200
 * characters (code points; 199 and `…` when cut, never splitting a pair). Only the first
 * SUMMARY_SCAN_LIMIT units are examined: a longer summary counts as cut there (it ends in `…`),
 * and is '' when those units hold nothing but whitespace and control characters. Returns ''
 * when nothing is left, which callers reject.
 */
export function normaliseSummary(raw: string): string {
  let text = raw;
  if (text.length > SUMMARY_SCAN_LIMIT) {
    const prefix = examinedPrefix(text).replace(CONTROL_RUN, ' ');
    if (prefix.trim() === '') return '';
    text = `${prefix}…`;
  }
  const line = toWellFormed(text.replace(CONTROL_RUN, ' ')).trim();
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

// The texts of notices, for tests that compare what `pending` and `drain` return with the spec's
// notice lines (the structured notices of issue 15 carry the same text).
import type { Notice } from '../../src/index.js';

/** The `text` of each notice, in order. */
export function noticeTexts(notices: readonly Notice[]): string[] {
  return notices.map((notice) => notice.text);
}

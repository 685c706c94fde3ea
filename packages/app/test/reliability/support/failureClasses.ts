// The named failure classes of the reliability batteries, and helpers that put the class name
// first in every assertion message so a red run says which class broke.

/**
 * What a notice system must never do (issue 7), plus one catch-all for a state that differs
 * from the reference model in a way none of the named classes describes.
 */
export const FAILURE_CLASSES = [
  /** A foreign change was never covered by a notice (or a gap): the watcher is never told. */
  'lost-notice',
  /** The same notice was queued, woken or delivered twice. */
  'duplicate-notice',
  /** A watcher was notified of its own change. */
  'self-notice',
  /** A cursor watermark went backwards or broke acked <= notified <= material. */
  'cursor-regression',
  /** historyGap (or a prune watermark) says history is missing when it is not. */
  'false-gap',
  /** History is missing and nothing says so: a silent skip. */
  'missed-gap',
  /** A session head (state version) went backwards or a sequence repeated. */
  'head-regression',
  /** Anything else that differs from the reference model (e.g. a failed call left a trace). */
  'model-divergence',
] as const;

export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** One broken expectation: its class and what exactly differed. */
export interface Violation {
  readonly failure: FailureClass;
  readonly detail: string;
}

/** Renders violations one per line, class first. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations.map((v) => `[${v.failure}] ${v.detail}`).join('\n');
}

/**
 * Throws an Error whose message starts with the class name unless `holds`.
 *
 * @example expectNo('duplicate-notice', texts.length === 1, () => `pending: ${texts.join(' | ')}`)
 */
export function expectNo(failure: FailureClass, holds: boolean, detail: () => string): void {
  if (!holds) throw new Error(`[${failure}] ${detail()}`);
}

/** Fails with every violation listed, class first, when there is any. */
export function expectNoViolations(violations: readonly Violation[], context = ''): void {
  if (violations.length === 0) return;
  const classes = [...new Set(violations.map((v) => v.failure))].join(', ');
  throw new Error(`${classes}${context === '' ? '' : ` (${context})`}:\n${describeViolations(violations.slice(0, 20))}`);
}

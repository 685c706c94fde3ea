// Battery 3, concurrent half (issue 7): random histories whose operations are fired in
// overlapping groups (records, spawns, watches, drains, resets, deletes, prunes and status in
// flight together, with restarts and clock moves between groups). Interleavings are the
// facade's to choose, so instead of an exact model the history is checked for what no
// interleaving may produce: a cursor or head going backwards, a notice delivered twice or for
// the watcher's own change, and - once every watcher drained to quiescence - a foreign change
// that no notice covered.
import fc from 'fast-check';
import { parseNotice, storeMatrix, type StoreKind } from '@session-state/testkit';

import type { RecordResult, SessionStateAwareness } from '../../src/index.js';
import { expectNoViolations, type Violation } from './support/failureClasses.js';
import { Rig } from './support/rig.js';
import { scaled, scaledTimeout } from './support/scale.js';
import { describeStep, KEYS, recordInput, stepArb, WORKLOAD_RETENTION, type Step } from './support/workload.js';
import { noticeTexts } from '../support/noticeTexts.js';

const RUNS = scaled(15);
const MAX_GROUPS = scaled(30);
const NOTIFYING = new Set(['human_direct_message', 'goal_changed', 'upstream_missing']);
const k = (i: number): string => KEYS[i] as string;

interface Appended {
  readonly sessionKey: string;
  readonly sequence: number;
  readonly kind: string;
  readonly actorSessionKey?: string;
}

/** The history of one run and the checks that hold under any interleaving. */
class History {
  readonly violations: Violation[] = [];
  readonly appended: Appended[] = [];
  private readonly delivered = new Map<string, number>();
  private readonly acked = new Map<string, number>();
  private readonly heads = new Map<string, { head: number; pruneWatermark: number }>();

  noteResult(result: RecordResult | { ok: boolean; event?: Appended }, kind: string, actorSessionKey?: string): void {
    if (result.ok && 'event' in result && result.event !== undefined) {
      const e = result.event;
      if (!this.appended.some((a) => a.sequence === e.sequence)) {
        this.appended.push({ sessionKey: e.sessionKey, sequence: e.sequence, kind, ...(actorSessionKey !== undefined ? { actorSessionKey } : {}) });
      }
    }
  }

  /** Notices drained by `watcher`: per pair strictly advancing, and each about someone else's change. */
  noteDelivered(watcher: string, texts: readonly string[]): void {
    for (const text of texts) {
      const notice = parseNotice(text);
      if (notice === undefined) {
        this.violations.push({ failure: 'model-divergence', detail: `not a notice: ${text}` });
        continue;
      }
      const pair = `${watcher} -> ${notice.target}`;
      const before = this.delivered.get(pair);
      if (before !== undefined && notice.acked <= before) this.violations.push({ failure: 'duplicate-notice', detail: `${pair}: delivered changesSince ${notice.acked} after ${before}` });
      this.delivered.set(pair, notice.acked);
      const cause = this.appended.some((e) => e.sessionKey === notice.target && e.sequence > notice.acked && NOTIFYING.has(e.kind) && e.actorSessionKey !== watcher);
      if (!cause) this.violations.push({ failure: 'self-notice', detail: `${pair}: "changesSince ${notice.acked}" with no foreign change above it` });
    }
  }

  /** Durable floors: heads, prune watermarks and each pair's acked never go back. */
  async noteDurable(rig: Rig, when: string): Promise<void> {
    for (const row of await rig.inner.readHeads(KEYS as never)) {
      const before = this.heads.get(row.sessionKey);
      if (before !== undefined && row.head < before.head) this.violations.push({ failure: 'head-regression', detail: `${when}: ${row.sessionKey} head ${row.head} after ${before.head}` });
      if (before !== undefined && row.pruneWatermark < before.pruneWatermark) this.violations.push({ failure: 'missed-gap', detail: `${when}: ${row.sessionKey} prune watermark went back` });
      this.heads.set(row.sessionKey, { head: row.head, pruneWatermark: row.pruneWatermark });
    }
    for (const row of await rig.inner.listCursors()) {
      const pair = `${row.watcher} -> ${row.target}`;
      if (!(row.acked <= row.notified && row.notified <= row.material)) this.violations.push({ failure: 'cursor-regression', detail: `${when}: ${pair} ${row.acked}/${row.notified}/${row.material}` });
      const before = this.acked.get(pair);
      if (before !== undefined && row.acked < before) this.violations.push({ failure: 'cursor-regression', detail: `${when}: ${pair} acked ${row.acked} after ${before}` });
      this.acked.set(pair, Math.max(row.acked, before ?? 0));
    }
  }
}

/** Starts one step without waiting for it; restarts and clock moves are not steps of a group. */
function fire(a: SessionStateAwareness, step: Step, history: History): Promise<unknown> {
  switch (step.op) {
    case 'record': {
      const input = recordInput(step);
      return a.record(input).then((r) => history.noteResult(r, input.kind, input.actorSessionKey));
    }
    case 'childSpawned':
      return a.childSpawned({ parentKey: k(step.parent), childKey: k(step.child) }).then((r) => history.noteResult(r, 'child_spawned', k(step.parent)));
    case 'sent':
      return a.sent({ senderKey: k(step.sender), deliveredTo: k(step.to), watch: step.watch, delivered: step.delivered });
    case 'drain':
      return a.drain(k(step.watcher)).then((notices) => history.noteDelivered(k(step.watcher), noticeTexts(notices)));
    case 'status':
      return a.status(k(step.key), { changesSince: step.since, limit: step.limit });
    case 'readerStatus':
      return a.status(k(step.key), { changesSince: step.since, limit: step.limit, reader: k(step.reader) });
    case 'unwatch':
      return a.unwatch(k(step.watcher), k(step.target));
    case 'sessionReset':
      return a.sessionReset(k(step.key));
    case 'sessionDeleted':
      return a.sessionDeleted(k(step.key));
    case 'prune':
      return a.prune();
    case 'restart':
    case 'advance':
      return Promise.resolve();
    default: {
      const unreachable: never = step;
      return unreachable;
    }
  }
}

async function playGroups(kind: StoreKind, groups: readonly (readonly Step[])[]): Promise<void> {
  const rig = await Rig.open(kind, { retention: WORKLOAD_RETENTION, keys: KEYS });
  const history = new History();
  try {
    for (const [i, group] of groups.entries()) {
      for (const step of group) {
        if (step.op === 'advance') rig.clock.advance(step.ms);
      }
      if (group.some((step) => step.op === 'restart')) await rig.restart();
      await Promise.all(group.map((step) => fire(rig.facade, step, history)));
      await rig.faults.settle();
      await history.noteDurable(rig, `group ${i}`);
      expectNoViolations(history.violations, `group ${i}: ${group.map(describeStep).join(' | ')}`);
    }
    for (let round = 0; round < 5; round += 1) {
      await Promise.all(KEYS.map((key) => rig.facade.drain(key).then((notices) => history.noteDelivered(key, noticeTexts(notices)))));
    }
    await rig.faults.settle();
    await history.noteDurable(rig, 'after draining');
    for (const row of await rig.inner.listCursors()) {
      const retained = (await rig.facade.status(row.target, { changesSince: row.acked })).stateChanges?.events ?? [];
      const uncovered = retained.filter((e) => NOTIFYING.has(e.kind) && e.actorSessionKey !== row.watcher);
      if (uncovered.length > 0) history.violations.push({ failure: 'lost-notice', detail: `${row.watcher} -> ${row.target}: acked ${row.acked}, foreign ${uncovered.map((e) => e.sequence).join(',')} never covered` });
      if (noticeTexts(rig.facade.pending(row.watcher)).length > 0) history.violations.push({ failure: 'lost-notice', detail: `${row.watcher}: notices left after draining` });
    }
    expectNoViolations(history.violations, 'after draining everything');
  } finally {
    await rig.dispose();
  }
}

describe.each(storeMatrix)('concurrent histories on the %s store', (_name, kind) => {
  test(`${RUNS} histories of up to ${MAX_GROUPS} overlapping groups show no lost, duplicate or self notice and no cursor or head regression`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(stepArb, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: MAX_GROUPS, size: 'max' }),
        (groups) => playGroups(kind, groups),
      ),
      { numRuns: RUNS },
    );
  }, scaledTimeout(30_000));
});

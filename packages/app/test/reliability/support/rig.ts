// A facade over a store from the matrix, wrapped in the kit's fault store, driven call by
// call beside the reference model: each healthy operation updates the model and reports any
// answer that differs, and `check` compares the whole durable and in-memory state with it.
import { createManualClock, type ManualClock } from '@session-state/adapters-memory';
import { asSequence, type SessionEvent, type SessionKey, type StateStore } from '@session-state/domain';
import { faultStore, isAgentKey, parseNotice, ReferenceModel, type FaultStore, type ModelAppend, type ModelRetention, type StoreHarness, type StoreKind } from '@session-state/testkit';

import { createSessionStateAwareness, type RecordInput, type SentInput, type SessionStateAwareness, type SessionStatus } from '../../../src/index.js';
import { afterStartupWakes, recordingLogger, START, type RecordingLogger } from '../../support/harness.js';
import { type FailureClass, type Violation } from './failureClasses.js';
import { noticeTexts } from '../../support/noticeTexts.js';

export interface RigOptions {
  readonly retention: ModelRetention;
  /** Every session key the workload uses; the checks read all of them. */
  readonly keys: readonly string[];
}

/** Reads every retained event of a session from the raw store, paging by 200. */
export async function readAllEvents(store: StateStore, sessionKey: string): Promise<SessionEvent[]> {
  const all: SessionEvent[] = [];
  let since = 0;
  for (;;) {
    const page = await store.readChanges(sessionKey as SessionKey, asSequence(since), 200);
    all.push(...page.events);
    const last = page.events[page.events.length - 1];
    if (!page.hasMore || last === undefined) return all;
    since = last.sequence;
  }
}

export class Rig {
  readonly model: ReferenceModel;
  readonly clock: ManualClock;
  readonly faults: FaultStore;
  logger: RecordingLogger = recordingLogger();
  wakes: string[] = [];
  awareness: SessionStateAwareness | undefined;
  /** Violations found by operations since the last `takeViolations`. */
  private found: Violation[] = [];

  private constructor(
    readonly stores: StoreHarness,
    public inner: StateStore,
    readonly options: RigOptions,
  ) {
    this.model = new ReferenceModel(options.retention);
    this.clock = createManualClock(START);
    this.faults = faultStore(inner);
  }

  /** A fresh store of `kind` and a facade over it (its start-up scan and prune are modelled). */
  static async open(kind: StoreKind, options: RigOptions): Promise<Rig> {
    const stores = await kind.open();
    const rig = new Rig(stores, stores.store, options);
    await rig.start();
    rig.model.prune(rig.clock.now());
    await rig.faults.settle();
    return rig;
  }

  // --- lifecycle -------------------------------------------------------------------------------

  /** Creates a facade over the current store (the factory may reject); on success models its scan and prune. */
  async start(): Promise<void> {
    this.logger = recordingLogger();
    const wakes: string[] = [];
    this.wakes = wakes;
    this.awareness = await createSessionStateAwareness({
      store: this.faults.store,
      clock: this.clock,
      logger: this.logger,
      wake: (watcher) => {
        wakes.push(watcher);
      },
      retention: this.options.retention,
    });
    await afterStartupWakes();
  }

  /** Closes the facade (if open) and reopens the durable state: the model loses its queue. */
  async stop(): Promise<void> {
    if (this.awareness !== undefined) await this.awareness.close();
    this.awareness = undefined;
    this.model.stopped();
    this.inner = await this.stores.reopen();
    this.faults.setInner(this.inner);
  }

  /** A healthy restart: stop, start, and the model's scan and background prune. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
    this.model.restartScan(this.clock.now());
    this.model.prune(this.clock.now());
    await this.faults.settle();
  }

  async dispose(): Promise<void> {
    try {
      if (this.awareness !== undefined) await this.awareness.close();
    } finally {
      this.awareness = undefined;
      await this.stores.cleanup();
    }
  }

  /** The open facade; a battery calls this only while one is open. */
  get facade(): SessionStateAwareness {
    if (this.awareness === undefined) throw new Error('no facade is open');
    return this.awareness;
  }

  // --- violations ------------------------------------------------------------------------------

  violate(failure: FailureClass, detail: string): void {
    this.found.push({ failure, detail });
  }

  takeViolations(): Violation[] {
    const found = this.found;
    this.found = [];
    return found;
  }

  // --- healthy operations (model updated, answers compared) --------------------------------

  /** The model's view of a `record` input. */
  static appendOfRecord(input: RecordInput): ModelAppend {
    return {
      sessionKey: input.sessionKey,
      kind: input.kind,
      ...(input.actorSessionKey !== undefined ? { actorSessionKey: input.actorSessionKey } : {}),
      ...(input.dedupeKey !== undefined ? { dedupeKey: input.dedupeKey } : {}),
      ...(input.onlyIfWatched !== undefined ? { onlyIfWatched: input.onlyIfWatched } : {}),
    };
  }

  /** The model's view of a `childSpawned`, and the parent whose cursor it seeds (if any). */
  static appendOfSpawn(parentKey: string, childKey: string, dedupeKey?: string): { readonly input: ModelAppend; readonly seedWatcher?: string } {
    const input: ModelAppend = {
      sessionKey: childKey,
      kind: 'child_spawned',
      actorSessionKey: parentKey,
      ...(dedupeKey !== undefined ? { dedupeKey } : {}),
    };
    const seeds = isAgentKey(parentKey) && isAgentKey(childKey) && parentKey !== childKey;
    return seeds ? { input, seedWatcher: parentKey } : { input };
  }

  /** A `record` on a healthy store. */
  async record(input: RecordInput): Promise<void> {
    const modelInput = Rig.appendOfRecord(input);
    const expected = this.model.expectAppend(modelInput);
    const result = await this.facade.record(input);
    this.applyAppendResult(`record on ${input.sessionKey}`, modelInput, expected, result);
    await this.faults.settle();
  }

  /** A `childSpawned` on a healthy store. */
  async childSpawned(parentKey: string, childKey: string, dedupeKey?: string): Promise<void> {
    const { input: modelInput, seedWatcher } = Rig.appendOfSpawn(parentKey, childKey, dedupeKey);
    const expected = this.model.expectAppend(modelInput);
    const result = await this.facade.childSpawned({ parentKey, childKey, ...(dedupeKey !== undefined ? { dedupeKey } : {}) });
    this.applyAppendResult(`childSpawned ${parentKey} -> ${childKey}`, modelInput, expected, result, seedWatcher);
    await this.faults.settle();
  }

  /**
   * Applies an append's answer to the model (at the clock's now) and reports how it differs
   * from `expected`; a background prune the append starts is modelled right after it.
   */
  applyAppendResult(
    what: string,
    input: ModelAppend,
    expected: ReturnType<ReferenceModel['expectAppend']>,
    result: { ok: boolean; outcome?: string; event?: { sequence: number }; reason?: string },
    seedWatcher?: string,
  ): void {
    const now = this.clock.now();
    if (!result.ok) {
      this.violate('model-divergence', `${what}: failed on a healthy store`);
      return;
    }
    if (expected.type === 'skipped') {
      if (result.outcome !== 'skipped' || result.reason !== 'unwatched') this.violate('model-divergence', `${what}: expected skipped 'unwatched', got ${JSON.stringify(result)}`);
      return;
    }
    const sequence = result.event?.sequence;
    if (sequence === undefined) {
      this.violate('model-divergence', `${what}: expected an event, got ${JSON.stringify(result)}`);
      return;
    }
    if (expected.type === 'duplicate') {
      if (sequence !== expected.event.sequence) this.violate('duplicate-notice', `${what}: a retried dedupe key got sequence ${sequence}, not ${expected.event.sequence}`);
      return;
    }
    const startsPrune = this.model.appendStartsPrune(now);
    const problem = this.model.applyAppend(input, sequence, now, seedWatcher);
    if (problem !== undefined) this.violate('head-regression', `${what}: ${problem}`);
    if (startsPrune) this.model.prune(now);
  }

  /** A `sent` on a healthy store. */
  async sent(input: SentInput): Promise<void> {
    this.applySent(input, await this.facade.sent(input));
  }

  /** Applies a `sent`'s answer to the model and reports a `watched` that differs from SPEC 4. */
  applySent(input: SentInput, result: { readonly watched: boolean }): void {
    const watches = ReferenceModel.sentWatches(input);
    if (result.watched !== watches) this.violate('model-divergence', `sent ${JSON.stringify(input)}: watched ${String(result.watched)}, expected ${String(watches)}`);
    if (watches) this.model.watch(input.senderKey, input.deliveredTo, this.clock.now());
  }

  /** A `drain` on a healthy store; returns what it delivered. */
  async drain(watcher: string): Promise<string[]> {
    const expected = this.model.drain(watcher, this.clock.now());
    const actual = noticeTexts(await this.facade.drain(watcher));
    this.compareTexts(`drain(${watcher})`, watcher, expected, actual);
    return actual;
  }

  /** `status` with `reader` (issue 15), compared with the model, which applies the read when the page reached the head. */
  async readAsReader(reader: string, key: string, since: number, limit: number): Promise<void> {
    this.applyReaderStatus(reader, key, since, limit, await this.facade.status(key, { changesSince: since, limit, reader }));
  }

  /** Compares a reader's `status` answer at its point in call order, then applies the read to the model. */
  applyReaderStatus(reader: string, key: string, since: number, limit: number, status: SessionStatus): void {
    this.compareStatus(key, since, limit, status);
    if (status.stateChanges?.hasMore === false) this.model.read(reader, key, since, status.stateVersion, this.clock.now());
  }

  /** `unwatch`, compared with the model. */
  async unwatch(watcher: string, target: string): Promise<void> {
    this.applyUnwatch(watcher, target, await this.facade.unwatch(watcher, target));
  }

  /** Applies an `unwatch` to the model and compares the answer. */
  applyUnwatch(watcher: string, target: string, answer: { readonly unwatched: boolean }): void {
    const had = this.model.unwatch(watcher, target);
    if (answer.unwatched !== had) this.violate('model-divergence', `unwatch(${watcher} -> ${target}): ${JSON.stringify(answer)}, expected { unwatched: ${had} }`);
  }

  async sessionReset(key: string): Promise<void> {
    await this.facade.sessionReset(key);
    this.model.sessionReset(key);
  }

  async sessionDeleted(key: string): Promise<void> {
    await this.facade.sessionDeleted(key);
    this.model.sessionDeleted(key);
  }

  async prune(): Promise<void> {
    const expected = this.model.prune(this.clock.now());
    this.comparePrune(expected, await this.facade.prune());
  }

  /** Compares a prune run's totals with the model's. */
  comparePrune(expected: { eventsDeleted: number; cursorsExpired: number }, actual: { eventsDeleted: number; cursorsExpired: number }): void {
    if (actual.eventsDeleted !== expected.eventsDeleted || actual.cursorsExpired !== expected.cursorsExpired) {
      this.violate('model-divergence', `prune: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
    }
  }

  /** `status` with `changesSince`, paged to the end, compared with the model. */
  async reconcile(key: string, since: number, limit = 200): Promise<void> {
    const session = this.model.sessions.get(key);
    const head = session?.head ?? 0;
    const watermark = session?.pruneWatermark ?? 0;
    const expected = (session?.events ?? []).filter((e) => e.sequence > since).map((e) => e.sequence);
    const seen: number[] = [];
    let cursor = since;
    for (let page = 0; ; page += 1) {
      const status = await this.facade.status(key, { changesSince: cursor, limit });
      const changes = status.stateChanges;
      if (changes === undefined) {
        this.violate('model-divergence', `status(${key}, ${cursor}): no stateChanges`);
        return;
      }
      if (status.stateVersion < head) this.violate('head-regression', `status(${key}): stateVersion ${status.stateVersion} below the model head ${head}`);
      const gap = cursor < watermark;
      if (changes.historyGap && !gap) this.violate('false-gap', `status(${key}, ${cursor}): historyGap true, prune watermark ${watermark}`);
      if (!changes.historyGap && gap) this.violate('missed-gap', `status(${key}, ${cursor}): historyGap false below prune watermark ${watermark}`);
      seen.push(...changes.events.map((e) => e.sequence));
      if (changes.nextSince < cursor) this.violate('cursor-regression', `status(${key}, ${cursor}): nextSince ${changes.nextSince} went back`);
      if (!changes.hasMore || changes.events.length === 0 || page > 1000) break;
      cursor = changes.nextSince;
    }
    this.compareSequences(`status(${key}, since ${since})`, expected, seen, watermark);
  }

  /**
   * Compares one `status(key, { changesSince: since, limit })` answer with the model as it
   * stands now (the answer's point in call order): version, gap, the page, `hasMore`, `nextSince`.
   */
  compareStatus(key: string, since: number, limit: number, status: SessionStatus): void {
    this.found.push(...this.statusViolations(key, since, limit, status));
  }

  /** What `compareStatus` would report, without reporting it. */
  statusViolations(key: string, since: number, limit: number, status: SessionStatus): Violation[] {
    const found: Violation[] = [];
    const violate = (failure: FailureClass, detail: string): void => {
      found.push({ failure, detail });
    };
    const what = `status(${key}, changesSince ${since}, limit ${limit})`;
    const session = this.model.sessions.get(key);
    const head = session?.head ?? 0;
    const watermark = session?.pruneWatermark ?? 0;
    const above = (session?.events ?? []).filter((e) => e.sequence > since);
    const page = above.slice(0, limit);
    if (status.stateVersion < head) violate('head-regression', `${what}: stateVersion ${status.stateVersion} below the model head ${head}`);
    if (status.stateVersion > head) violate('model-divergence', `${what}: stateVersion ${status.stateVersion} above the model head ${head}`);
    const changes = status.stateChanges;
    if (changes === undefined) {
      violate('model-divergence', `${what}: no stateChanges`);
      return found;
    }
    const gap = since < watermark;
    if (changes.historyGap && !gap) violate('false-gap', `${what}: historyGap true, prune watermark ${watermark}`);
    if (!changes.historyGap && gap) violate('missed-gap', `${what}: historyGap false below prune watermark ${watermark}`);
    const before = this.found.length;
    this.compareSequences(what, page.map((e) => e.sequence), changes.events.map((e) => e.sequence), watermark);
    found.push(...this.found.splice(before));
    for (const event of changes.events) {
      const modelled = page.find((e) => e.sequence === event.sequence);
      if (modelled !== undefined && modelled.kind !== event.kind) violate('model-divergence', `${what}: event ${event.sequence} is ${event.kind}, model ${modelled.kind}`);
    }
    const hasMore = above.length > limit;
    if (!changes.hasMore && hasMore) violate('missed-gap', `${what}: hasMore false with ${above.length - limit} more retained events (paging stops short)`);
    if (changes.hasMore && !hasMore) violate('model-divergence', `${what}: hasMore true with nothing more retained`);
    const nextSince = page[page.length - 1]?.sequence ?? since;
    if (changes.nextSince < since) violate('cursor-regression', `${what}: nextSince ${changes.nextSince} went back`);
    else if (changes.nextSince > nextSince) violate('missed-gap', `${what}: nextSince ${changes.nextSince} skips past ${nextSince}`);
    else if (changes.nextSince !== nextSince) violate('model-divergence', `${what}: nextSince ${changes.nextSince}, model ${nextSince}`);
    return found;
  }

  // --- comparison helpers ----------------------------------------------------------------------

  private compareSequences(what: string, expected: readonly number[], actual: readonly number[], watermark: number): void {
    const want = new Set(expected);
    const got = new Set(actual);
    if (got.size !== actual.length) this.violate('head-regression', `${what}: a sequence repeats: ${actual.join(',')}`);
    for (let i = 1; i < actual.length; i += 1) {
      if ((actual[i] as number) <= (actual[i - 1] as number)) {
        this.violate('head-regression', `${what}: sequences not ascending: ${actual.join(',')}`);
        break;
      }
    }
    for (const s of expected) if (!got.has(s)) this.violate('missed-gap', `${what}: event ${s} is missing with no gap (prune watermark ${watermark})`);
    for (const s of actual) if (!want.has(s)) this.violate('model-divergence', `${what}: event ${s} should not be there`);
  }

  /** Compares queued or drained notice texts of one watcher, naming the class of each difference. */
  compareTexts(what: string, watcher: string, expected: readonly string[], actual: readonly string[]): void {
    const counts = new Map<string, number>();
    for (const text of actual) counts.set(text, (counts.get(text) ?? 0) + 1);
    for (const [text, n] of counts) if (n > 1) this.violate('duplicate-notice', `${what}: "${text}" ${n} times`);
    const targets = new Map<string, number>();
    for (const text of actual) {
      const target = parseNotice(text)?.target ?? text;
      targets.set(target, (targets.get(target) ?? 0) + 1);
    }
    for (const [target, n] of targets) if (n > 1) this.violate('duplicate-notice', `${what}: ${n} notices for target ${target}`);
    for (const text of expected) if (!counts.has(text)) this.violate('lost-notice', `${what}: missing "${text}" (got ${JSON.stringify(actual)})`);
    for (const text of counts.keys()) {
      if (expected.includes(text)) continue;
      const parsed = parseNotice(text);
      if (parsed === undefined) {
        this.violate('model-divergence', `${what}: not a notice: ${JSON.stringify(text)}`);
        continue;
      }
      const foreign = this.model.foreignAbove(watcher, parsed.target, parsed.acked);
      const own = (this.model.sessions.get(parsed.target)?.events ?? []).some((e) => e.sequence > parsed.acked && e.actorSessionKey === watcher);
      const failure: FailureClass = foreign.length === 0 && own ? 'self-notice' : expected.some((t) => parseNotice(t)?.target === parsed.target) ? 'model-divergence' : 'duplicate-notice';
      this.violate(failure, `${what}: unexpected "${text}" (expected ${JSON.stringify(expected)})`);
    }
    const sameSet = expected.length === actual.length && expected.every((t) => counts.has(t));
    if (sameSet && expected.some((t, i) => actual[i] !== t)) this.violate('model-divergence', `${what}: order ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  }

  /** Compares the whole state (heads, watermarks, events, cursors, queue, wakes) with the model. */
  async check(): Promise<Violation[]> {
    const keys = [...new Set([...this.options.keys, ...this.model.sessions.keys()])].sort();
    const rows = await this.inner.readHeads(keys as SessionKey[]);
    const byKey = new Map(rows.map((row) => [row.sessionKey as string, row]));
    for (const key of keys) {
      const session = this.model.sessions.get(key);
      const modelHead = session?.head ?? 0;
      const modelWatermark = session?.pruneWatermark ?? 0;
      const row = byKey.get(key);
      const head = row?.head ?? 0;
      const watermark = row?.pruneWatermark ?? 0;
      if (head < modelHead) this.violate('head-regression', `${key}: head ${head} below the model's ${modelHead}`);
      if (head > modelHead) this.violate('model-divergence', `${key}: head ${head} above the model's ${modelHead} (an append the caller was told failed left a trace?)`);
      if (watermark < modelWatermark) this.violate('missed-gap', `${key}: prune watermark ${watermark} below the model's ${modelWatermark}`);
      if (watermark > modelWatermark) this.violate('false-gap', `${key}: prune watermark ${watermark} above the model's ${modelWatermark}`);
      const events = await readAllEvents(this.inner, key);
      for (const event of events) if (event.sequence > head) this.violate('head-regression', `${key}: event ${event.sequence} above head ${head}`);
      this.compareSequences(`events of ${key}`, (session?.events ?? []).map((e) => e.sequence), events.map((e) => e.sequence), modelWatermark);
    }

    const stored = await this.inner.listCursors();
    const storedPairs = new Set<string>();
    for (const row of stored) {
      const pair = `${row.watcher} -> ${row.target}`;
      storedPairs.add(pair);
      if (!(row.acked <= row.notified && row.notified <= row.material)) {
        this.violate('cursor-regression', `${pair}: acked ${row.acked}, notified ${row.notified}, material ${row.material}`);
      }
      const cursor = this.model.cursor(row.watcher, row.target);
      if (cursor === undefined) {
        this.violate('model-divergence', `${pair}: a cursor the model does not have ${JSON.stringify(row)}`);
        continue;
      }
      const got = `${row.acked}/${row.notified}/${row.material}@${row.touchedAt}`;
      const want = `${cursor.acked}/${cursor.notified}/${cursor.material}@${cursor.touchedAt}`;
      if (row.acked < cursor.acked || row.notified < cursor.notified) this.violate('cursor-regression', `${pair}: ${got}, model ${want}`);
      else if (row.material < cursor.material) this.violate('lost-notice', `${pair}: material ${row.material} misses the model's ${cursor.material}`);
      else if (row.acked > cursor.acked) this.violate('lost-notice', `${pair}: acked ${row.acked} beyond the model's ${cursor.acked} (acknowledged an undelivered notice, or a watch began after a change called before it)`);
      else if (got !== want) this.violate('model-divergence', `${pair}: ${got}, model ${want}`);
    }
    for (const { watcher, target } of this.model.allCursors()) {
      if (!storedPairs.has(`${watcher} -> ${target}`)) this.violate('lost-notice', `${watcher} -> ${target}: the cursor is gone`);
    }

    if (this.awareness !== undefined) {
      const watchers = new Set([...keys, ...this.model.queue.watchers()]);
      for (const watcher of [...watchers].sort()) {
        this.compareTexts(`pending(${watcher})`, watcher, this.model.pendingTexts(watcher), noticeTexts(this.awareness.pending(watcher)));
      }
      const expectedWakes = this.model.wakes;
      const tally = (list: readonly string[]): Map<string, number> => {
        const m = new Map<string, number>();
        for (const w of list) m.set(w, (m.get(w) ?? 0) + 1);
        return m;
      };
      const want = tally(expectedWakes);
      const got = tally(this.wakes);
      for (const w of new Set([...want.keys(), ...got.keys()])) {
        const a = got.get(w) ?? 0;
        const e = want.get(w) ?? 0;
        if (a > e) this.violate('duplicate-notice', `wake(${w}) ${a} times, expected ${e}`);
        if (a < e) this.violate('lost-notice', `wake(${w}) ${a} times, expected ${e}`);
      }
    }
    return this.takeViolations();
  }
}

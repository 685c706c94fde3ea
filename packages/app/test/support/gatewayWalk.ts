// Exactly once at the model, measured (issue 27): a seeded random walk of gateway processes on one
// store, each running the loop a gateway runs for the watchers it owns. A turn takes its notices,
// renders them into the prompt (the model "sees" their texts), lets the model call its tools
// (`status`, often as reader, through the gateway or through another process's tools) and confirms;
// some turns drain and render in the same call instead. Heartbeats run a turn for a watcher whose
// `pending` is not empty, wakes mark a watcher for the next wake-driven turn. Between them: records
// (foreign, self-caused, log-only) through any process, spawns, watches, unwatches, resets, clean
// restarts, turns that crash (the facade closes unconfirmed and the gateway starts again on the same
// store) or are cancelled (the facade lives on) right after the take, after the render or after the
// tool calls, and the manual clock passing leases.
//
// The ledger keeps, per foreign notifying event and watch it concerns (an obligation), whether a
// prompt of that watcher covered it: a rendered notice for its target whose range held it
// (changesSince < sequence <= notified; a drained notice has no notified, so after changesSince and
// recorded before the render), or a page of events the watcher's model read. At the end of each run
// the gateways settle (leases end, turns run until nothing is pending and every signal has arrived)
// and every obligation whose watch still exists must have been covered. A notice (watcher, target,
// changesSince) rendered a second time is a duplicate, allowed only when an earlier render of it was
// never confirmed (a crash or a cancel came between).
import { createManualClock, type ManualClock } from '@session-state/adapters-memory';

import type { Notice, SessionStatus, TakenNotice } from '../../src/index.js';
import { START } from './harness.js';
import { startGateway, type GatewayProcess } from './gatewayProcess.js';
import type { SharedKind, SharedState } from './sharedStores.js';

// --- sessions and owners ---------------------------------------------------------------------------

/** Three main sessions and a nested sub-agent (never woken: heartbeats and direct turns serve it). */
const WATCHERS = ['agent:a:main', 'agent:b:main', 'agent:c:main', 'agent:a:subagent:scout'] as const;
const SESSIONS = ['agent:t:main', 'agent:u:main', ...WATCHERS] as const;
/** The lease, on the manual clock; its real timer never fires within a run. */
const LEASE_MS = 60_000;
/** How long the settling at the end of a run waits for other processes' signals. */
const SETTLE_DEADLINE_MS = 10_000;

export interface WalkOptions {
  readonly kind: SharedKind;
  /** Gateway processes on the store; with more than one, each owns a share of the watchers (`ownsSession`). */
  readonly gateways: number;
  readonly runs: number;
  readonly stepsPerRun: number;
  readonly seed: number;
  /**
   * One interrupted turn in this many crashes (the rest are cancelled), and one restart step in this many restarts: a
   * SQL store's restart costs far more than a memory store's (its file or pool, and its worker), so those crash less.
   * Crashes and cancels each take the interrupt points in turn, so every point is reached in a short walk too.
   */
  readonly crashEvery: number;
}

/** What a walk counts; `failures` names every broken promise with its seed, run and step. */
export interface WalkCounts {
  steps: number;
  /** Foreign notifying events, counted once per watch they concern (obligations). */
  events: number;
  /** Obligations whose watch ended (unwatch, reset, a new spawn edge) before any prompt covered them: nobody owes them. */
  voided: number;
  /** Obligations covered by a prompt: by a rendered notice first, or by a read first. */
  shown: number;
  shownByNotice: number;
  shownByRead: number;
  /** Obligations on a watch that still exists that no prompt covered: the lost changes. */
  neverShown: number;
  prompts: number;
  renderedNotices: number;
  /** Notices rendered again, each after a crash or a cancel left an earlier render unconfirmed. */
  duplicates: number;
  duplicatesAfterCrash: number;
  duplicatesAfterCancel: number;
  /** Duplicates with no crash or cancel before them. */
  unexplainedDuplicates: number;
  crashes: Record<InterruptPoint, number>;
  cancels: Record<InterruptPoint, number>;
  /** Clean restarts (a crash restarts too, counted in `crashes`). */
  restarts: number;
  leaseExpiries: number;
  turns: Record<TurnTrigger, number>;
  /**
   * Turns run for a heartbeat or a wake (pending was not empty) whose take or drain found nothing: none on one process;
   * across processes, a notice another process's read, unwatch, reset or spawn edge ended, before its signal arrived.
   */
  emptyTurns: number;
  wakes: number;
  /** Wakes whose watcher had nothing pending at that moment. */
  meaninglessWakes: number;
  confirmsStale: number;
  failures: string[];
}

type InterruptPoint = 'afterTake' | 'afterRender' | 'afterTools';
type TurnTrigger = 'direct' | 'heartbeat' | 'wake' | 'settle';
const POINTS: readonly InterruptPoint[] = ['afterTake', 'afterRender', 'afterTools'];

export function emptyCounts(): WalkCounts {
  const points = (): Record<InterruptPoint, number> => ({ afterTake: 0, afterRender: 0, afterTools: 0 });
  return {
    steps: 0,
    events: 0,
    voided: 0,
    shown: 0,
    shownByNotice: 0,
    shownByRead: 0,
    neverShown: 0,
    prompts: 0,
    renderedNotices: 0,
    duplicates: 0,
    duplicatesAfterCrash: 0,
    duplicatesAfterCancel: 0,
    unexplainedDuplicates: 0,
    crashes: points(),
    cancels: points(),
    restarts: 0,
    leaseExpiries: 0,
    turns: { direct: 0, heartbeat: 0, wake: 0, settle: 0 },
    emptyTurns: 0,
    wakes: 0,
    meaninglessWakes: 0,
    confirmsStale: 0,
    failures: [],
  };
}

/** A small seeded PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// --- the ledger ------------------------------------------------------------------------------------

interface Obligation {
  readonly watcher: string;
  readonly target: string;
  readonly sequence: number;
  /** The watch it belongs to: owed only while that watch exists. */
  readonly watch: number;
  shownBy?: 'notice' | 'read';
}

const pairOf = (watcher: string, target: string): string => `${watcher} ${target}`;
const noticeKey = (notice: Notice): string => `${notice.watcher} ${notice.target} ${notice.changesSince}`;

class Ledger {
  private nextWatch = 1;
  /** The live watch of each pair. */
  readonly watches = new Map<string, number>();
  readonly obligations: Obligation[] = [];
  private readonly open = new Map<string, Obligation[]>();
  /** How often each notice was rendered. */
  private readonly rendered = new Map<string, number>();
  /** Notices rendered by a take and not confirmed since: in the turn still (`open`), or left by a crash or a cancel. */
  private readonly unconfirmed = new Map<string, 'open' | 'crash' | 'cancel'>();

  constructor(private readonly counts: WalkCounts) {}

  watch(watcher: string, target: string, replace: boolean): void {
    if (watcher === target || (this.watches.has(pairOf(watcher, target)) && !replace)) return;
    this.watches.set(pairOf(watcher, target), this.nextWatch++);
  }

  endWatch(watcher: string, target: string): void {
    this.watches.delete(pairOf(watcher, target));
  }

  endWatchesOf(watcher: string): void {
    for (const pair of [...this.watches.keys()]) if (pair.startsWith(`${watcher} `)) this.watches.delete(pair);
  }

  /** A notifying event on `target` at `sequence`, caused by `actor` (undefined: a human): owed to every other watcher of it. */
  changed(target: string, sequence: number, actor: string | undefined): void {
    for (const watcher of WATCHERS) {
      const watch = this.watches.get(pairOf(watcher, target));
      if (watch === undefined || watcher === actor) continue;
      const obligation: Obligation = { watcher, target, sequence, watch };
      this.obligations.push(obligation);
      const pair = pairOf(watcher, target);
      this.open.set(pair, [...(this.open.get(pair) ?? []), obligation]);
      this.counts.events += 1;
    }
  }

  private cover(watcher: string, target: string, covers: (sequence: number) => boolean, by: 'notice' | 'read'): void {
    const pair = pairOf(watcher, target);
    const open = this.open.get(pair) ?? [];
    for (const obligation of open) if (obligation.shownBy === undefined && covers(obligation.sequence)) obligation.shownBy = by;
    this.open.set(pair, open.filter((obligation) => obligation.shownBy === undefined));
  }

  /** The prompt of a turn shows `notices` (taken: with their frozen watermark). */
  render(notices: readonly (Notice | TakenNotice)[], taken: boolean, where: string): void {
    this.counts.prompts += 1;
    for (const notice of notices) {
      this.counts.renderedNotices += 1;
      const key = noticeKey(notice);
      const before = this.rendered.get(key) ?? 0;
      this.rendered.set(key, before + 1);
      if (before > 0) {
        this.counts.duplicates += 1;
        const left = this.unconfirmed.get(key);
        if (left === 'crash') this.counts.duplicatesAfterCrash += 1;
        else if (left === 'cancel') this.counts.duplicatesAfterCancel += 1;
        else {
          this.counts.unexplainedDuplicates += 1;
          this.counts.failures.push(`${where}: the notice "${key}" was rendered again though no crash or cancel left an earlier render of it unconfirmed`);
        }
      }
      if (taken) this.unconfirmed.set(key, 'open');
      const notified = 'notified' in notice ? notice.notified : Number.POSITIVE_INFINITY;
      this.cover(notice.watcher, notice.target, (sequence) => notice.changesSince < sequence && sequence <= notified, 'notice');
    }
  }

  confirmed(notices: readonly TakenNotice[]): void {
    for (const notice of notices) this.unconfirmed.delete(noticeKey(notice));
  }

  /** The turn that rendered `notices` ended without confirming them. */
  interrupted(notices: readonly TakenNotice[], how: 'crash' | 'cancel'): void {
    for (const notice of notices) if (this.unconfirmed.has(noticeKey(notice))) this.unconfirmed.set(noticeKey(notice), how);
  }

  /** The watcher's model read this page of the target's events. */
  read(watcher: string, target: string, page: SessionStatus): void {
    const read = new Set((page.stateChanges?.events ?? []).map((event) => event.sequence));
    this.cover(watcher, target, (sequence) => read.has(sequence), 'read');
  }

  /** The obligations still owed and not covered (their watch exists). */
  unshown(): Obligation[] {
    return [...this.open.values()].flat().filter((obligation) => this.watches.get(pairOf(obligation.watcher, obligation.target)) === obligation.watch);
  }

  /** Adds this run's outcome to the counts. */
  tally(where: string): void {
    for (const obligation of this.obligations) {
      const live = this.watches.get(pairOf(obligation.watcher, obligation.target)) === obligation.watch;
      if (obligation.shownBy !== undefined) {
        this.counts.shown += 1;
        if (obligation.shownBy === 'notice') this.counts.shownByNotice += 1;
        else this.counts.shownByRead += 1;
      } else if (live) {
        this.counts.neverShown += 1;
        this.counts.failures.push(`${where}: ${obligation.target} #${obligation.sequence} never reached a prompt of ${obligation.watcher}`);
      } else this.counts.voided += 1;
    }
  }
}

// --- one run ---------------------------------------------------------------------------------------

class Run {
  private readonly random: () => number;
  private readonly clock: ManualClock = createManualClock(START);
  readonly gateways: GatewayProcess[] = [];
  private readonly ledger: Ledger;
  private step = 0;
  /** Turns interrupted so far, crashes and cancels so far: which kind and point the next interrupted turn gets. */
  private readonly interrupts = { turns: 0, crash: 0, cancel: 0 };
  /** The last steps, for a failure's report. */
  private readonly trail: string[] = [];

  constructor(
    private readonly options: WalkOptions,
    private readonly state: SharedState,
    private readonly counts: WalkCounts,
    private readonly runSeed: number,
  ) {
    this.random = prng(runSeed);
    this.ledger = new Ledger(counts);
  }

  private get where(): string {
    return `${this.options.kind.name} seed ${this.runSeed} step ${this.step} (after: ${this.trail.slice(-20).join('; ')})`;
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)] as T;
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private ownerOf(watcher: string): number {
    return WATCHERS.indexOf(watcher as (typeof WATCHERS)[number]) % this.options.gateways;
  }

  private async open(g: number): Promise<GatewayProcess> {
    const { gateways } = this.options;
    const ownsSession = gateways > 1 ? { ownsSession: (key: string) => WATCHERS.includes(key as (typeof WATCHERS)[number]) && this.ownerOf(key) === g } : {};
    return startGateway(await this.state.open(), { clock: this.clock, leaseMs: LEASE_MS, ...ownsSession }, (wake) => {
      this.counts.wakes += 1;
      if (wake.pending > 0) return;
      this.counts.meaninglessWakes += 1;
      this.counts.failures.push(`${this.where}: a wake of ${wake.watcher} found nothing pending`);
    });
  }

  async start(): Promise<void> {
    for (let g = 0; g < this.options.gateways; g += 1) this.gateways.push(await this.open(g));
  }

  /** Closes gateway `g` (without confirming anything it took) and starts it again on the same store. */
  private async restart(g: number): Promise<void> {
    const old = this.gateways[g] as GatewayProcess;
    await old.awareness.close();
    this.gateways[g] = await this.open(g);
  }

  async close(): Promise<void> {
    for (const gateway of this.gateways) await gateway.awareness.close();
  }

  private note(what: string): void {
    this.trail.push(what);
    if (this.trail.length > 40) this.trail.shift();
  }

  // --- the gateway loop ------------------------------------------------------------------------------

  /** The model's tool calls on the rendered notices: reads from the notice's number, as reader (through the owner or another process) or not. */
  private async tools(watcher: string, notices: readonly Notice[]): Promise<void> {
    for (const notice of notices) {
      if (!this.chance(0.6)) continue;
      const via = this.chance(0.3) ? this.pick(this.gateways) : (this.gateways[this.ownerOf(watcher)] as GatewayProcess);
      const reader = this.chance(0.8) ? { reader: watcher } : {};
      const page = await via.awareness.status(notice.target, { changesSince: notice.changesSince, ...reader });
      this.note(`  read ${notice.target} after ${notice.changesSince}${'reader' in reader ? ' as reader' : ''} in gateway ${this.gateways.indexOf(via)}: head ${page.stateVersion}`);
      this.ledger.read(watcher, notice.target, page);
    }
  }

  /**
   * One turn of `watcher` in its owner: a heartbeat's or a wake's only when `pending` is not empty. Mostly take, render,
   * tools, confirm (an `interrupted` turn crashes or is cancelled at one of the points between); sometimes drain and
   * render in the same call.
   */
  private async turn(watcher: string, trigger: TurnTrigger, interrupted = false): Promise<void> {
    const g = this.ownerOf(watcher);
    const { awareness } = this.gateways[g] as GatewayProcess;
    const onNotice = trigger !== 'direct';
    if (onNotice && awareness.pending(watcher).length === 0) return;
    this.counts.turns[trigger] += 1;
    if (!interrupted && this.chance(0.2)) {
      const drained = await awareness.drain(watcher);
      this.note(`  drained ${drained.map((notice) => `${notice.target} after ${notice.changesSince}`).join(', ')}`);
      if (drained.length === 0 && onNotice) this.counts.emptyTurns += 1;
      if (drained.length > 0) this.ledger.render(drained, false, this.where);
      await this.tools(watcher, drained);
      return;
    }
    const taken = await awareness.take(watcher);
    this.note(`  took ${taken.map((notice) => `${notice.target} (${notice.changesSince}, ${notice.notified}]`).join(', ')}`);
    if (taken.length === 0) {
      if (onNotice) this.counts.emptyTurns += 1;
      return;
    }
    const interrupt = interrupted ? this.nextInterrupt() : undefined;
    if (interrupt !== undefined) this.note(`  ${interrupt.crash ? 'crash' : 'cancel'} ${interrupt.point}`);
    const stop = async (point: InterruptPoint): Promise<boolean> => {
      if (interrupt?.point !== point) return false;
      this.ledger.interrupted(taken, interrupt.crash ? 'crash' : 'cancel');
      if (interrupt.crash) {
        this.counts.crashes[point] += 1;
        await this.restart(g);
      } else this.counts.cancels[point] += 1;
      return true;
    };
    if (await stop('afterTake')) return;
    this.ledger.render(taken, true, this.where);
    if (await stop('afterRender')) return;
    await this.tools(watcher, taken);
    if (await stop('afterTools')) return;
    const { confirmed } = await awareness.confirm(watcher, taken);
    this.note(`  confirmed ${confirmed}`);
    if (confirmed < taken.length) this.counts.confirmsStale += 1;
    this.ledger.confirmed(taken);
  }

  private nextInterrupt(): { readonly point: InterruptPoint; readonly crash: boolean } {
    const crash = this.interrupts.turns++ % this.options.crashEvery === 0;
    const kind = crash ? 'crash' : 'cancel';
    return { crash, point: POINTS[this.interrupts[kind]++ % POINTS.length] as InterruptPoint };
  }

  private async heartbeat(g: number, trigger: 'heartbeat' | 'settle'): Promise<void> {
    for (const watcher of WATCHERS) if (this.ownerOf(watcher) === g) await this.turn(watcher, trigger);
  }

  private async wakeTurns(g: number): Promise<void> {
    const gateway = this.gateways[g] as GatewayProcess;
    const woken = [...gateway.woken];
    gateway.woken.clear();
    for (const watcher of woken) await this.turn(watcher, 'wake');
  }

  // --- the steps -------------------------------------------------------------------------------------

  private async record(): Promise<void> {
    const via = this.pick(this.gateways).awareness;
    const target = this.pick(SESSIONS);
    const roll = this.random();
    // A human turn, an agent's change (maybe the watcher's own), or a log-only kind.
    const actor = roll < 0.6 ? undefined : this.pick(WATCHERS);
    const kind = roll < 0.85 ? (this.chance(0.8) ? 'human_direct_message' : 'goal_changed') : 'run_completed';
    const result = await via.record({
      sessionKey: target,
      kind,
      actorType: actor === undefined ? 'human' : 'agent',
      summary: 'a change',
      ...(actor !== undefined ? { actorSessionKey: actor } : {}),
    });
    if (result.outcome !== 'recorded') throw new Error(`${this.where}: record ${result.outcome}`);
    this.note(`record ${target} ${kind} by ${actor ?? 'human'} #${result.event.sequence}`);
    if (kind !== 'run_completed') this.ledger.changed(target, result.event.sequence, actor);
  }

  private async oneStep(): Promise<void> {
    const roll = this.random() * 100;
    const g = Math.floor(this.random() * this.gateways.length);
    const watcher = this.pick(WATCHERS);
    const target = this.pick(SESSIONS);
    if (roll < 34) return this.record();
    if (roll < 38) {
      this.note(`spawn ${watcher} -> ${target}`);
      await (this.gateways[g] as GatewayProcess).awareness.childSpawned({ parentKey: watcher, childKey: target });
      return this.ledger.watch(watcher, target, true);
    }
    if (roll < 43) {
      this.note(`watch ${watcher} -> ${target}`);
      await (this.gateways[g] as GatewayProcess).awareness.sent({ senderKey: watcher, deliveredTo: target, watch: true });
      return this.ledger.watch(watcher, target, false);
    }
    if (roll < 45) {
      this.note(`unwatch ${watcher} -> ${target}`);
      await (this.gateways[g] as GatewayProcess).awareness.unwatch(watcher, target);
      return this.ledger.endWatch(watcher, target);
    }
    if (roll < 45.5) {
      this.note(`reset ${watcher}`);
      await (this.gateways[g] as GatewayProcess).awareness.sessionReset(watcher);
      return this.ledger.endWatchesOf(watcher);
    }
    if (roll < 56) {
      this.note(`turn ${watcher}`);
      return this.turn(watcher, 'direct');
    }
    if (roll < 65) {
      this.note(`heartbeat ${g}`);
      return this.heartbeat(g, 'heartbeat');
    }
    if (roll < 74) {
      this.note(`wake turns ${g}`);
      return this.wakeTurns(g);
    }
    if (roll < 82) {
      // Aimed at a watcher with something to take, so most interrupted turns interrupt a delivery.
      const withNotices = WATCHERS.filter((w) => (this.gateways[this.ownerOf(w)] as GatewayProcess).awareness.pending(w).length > 0);
      const interrupted = withNotices.length > 0 ? this.pick(withNotices) : watcher;
      this.note(`turn ${interrupted}, interrupted`);
      return this.turn(interrupted, 'direct', true);
    }
    if (roll < 83 && this.chance(1 / this.options.crashEvery)) {
      this.note(`restart ${g}`);
      this.counts.restarts += 1;
      return this.restart(g);
    }
    if (roll < 90) {
      this.note('leases end');
      this.counts.leaseExpiries += 1;
      this.clock.advance(LEASE_MS);
      return;
    }
    this.note('time passes');
    this.clock.advance(1_000);
    // Other processes' signals arrive.
    if (this.gateways.length > 1) await new Promise((resolve) => setImmediate(resolve));
  }

  async walk(): Promise<void> {
    for (this.step = 1; this.step <= this.options.stepsPerRun; this.step += 1) {
      await this.oneStep();
      this.counts.steps += 1;
    }
    await this.settle();
    this.ledger.tally(this.where);
  }

  /** Every lease ends, and every gateway runs turns until nothing is pending and nothing owed is left uncovered (or the deadline passes). */
  private async settle(): Promise<void> {
    this.note('settle');
    this.clock.advance(LEASE_MS);
    const deadline = Date.now() + SETTLE_DEADLINE_MS;
    for (;;) {
      for (let g = 0; g < this.gateways.length; g += 1) await this.heartbeat(g, 'settle');
      const nothingPending = WATCHERS.every((watcher) => (this.gateways[this.ownerOf(watcher)] as GatewayProcess).awareness.pending(watcher).length === 0);
      if (nothingPending && this.ledger.unshown().length === 0) return;
      if (Date.now() > deadline || (this.gateways.length === 1 && nothingPending)) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** Runs the walk; resolves with its counts (`failures` empty when every promise held). */
export async function walkGateways(options: WalkOptions): Promise<WalkCounts> {
  const counts = emptyCounts();
  for (let run = 0; run < options.runs; run += 1) {
    const state = await options.kind.create();
    const walk = new Run(options, state, counts, options.seed + run);
    try {
      await walk.start();
      await walk.walk();
    } finally {
      await walk.close();
      await state.cleanup();
    }
  }
  return counts;
}

/** The counts on a few lines, for the test's output. */
export function describeCounts(name: string, options: WalkOptions, counts: WalkCounts): string {
  const points = (record: Record<InterruptPoint, number>): string => POINTS.map((point) => `${point} ${record[point]}`).join(', ');
  return [
    `exactly once at the model, ${name}: ${options.gateways} gateway(s), ${options.runs} runs x ${options.stepsPerRun} steps, one interrupted turn in ${options.crashEvery} crashes, seed ${options.seed}`,
    `  steps ${counts.steps}; events owed ${counts.events} (voided by a watch ending first ${counts.voided}); shown ${counts.shown} (by a notice ${counts.shownByNotice}, by a read ${counts.shownByRead}); never shown ${counts.neverShown}`,
    `  prompts ${counts.prompts}, notices rendered ${counts.renderedNotices}, duplicates ${counts.duplicates} (after a crash ${counts.duplicatesAfterCrash}, after a cancel ${counts.duplicatesAfterCancel}, unexplained ${counts.unexplainedDuplicates})`,
    `  crashes: ${points(counts.crashes)}; cancels: ${points(counts.cancels)}; restarts ${counts.restarts}; lease expiries ${counts.leaseExpiries}`,
    `  turns: direct ${counts.turns.direct}, heartbeat ${counts.turns.heartbeat}, wake ${counts.turns.wake}, settle ${counts.turns.settle}; empty turns ${counts.emptyTurns}; stale confirms ${counts.confirmsStale}; wakes ${counts.wakes} (meaningless ${counts.meaninglessWakes})`,
  ].join('\n');
}

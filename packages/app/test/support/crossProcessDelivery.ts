// Notices across processes on one store (issue 27, "Done when"), written once for every store whose
// processes hear each other: a gateway that owns the watcher, and a tool process on the same state
// that owns no watcher (the CLI, or `session-state mcp --reader`). Another process's record queues
// the notice in the owner within a bounded delay; another process's reader acknowledgement withdraws
// it, so no turn is spent on it and a confirm after it acknowledges nothing. PostgreSQL runs them
// (postgres/crossProcessDelivery.test.ts); a SQLite file joins with a row of its own once its
// processes hear each other.
import { createManualClock } from '@session-state/adapters-memory';
import { noticeTextOf } from '@session-state/testkit';

import { humanTurn, START } from './harness.js';
import { startGateway, type GatewayProcess } from './gatewayProcess.js';
import type { SharedKind, SharedState } from './sharedStores.js';

const WATCHER = 'agent:gw:main';
const TARGET = 'agent:worker:main';
/** The deadline of a change made in one process to show in another; a signal usually takes milliseconds. */
const DEADLINE_MS = 10_000;

/** Polls `condition` every 10 ms until it holds; fails naming `what` after the deadline. */
export async function eventually(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${DEADLINE_MS} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function describeCrossProcessDelivery(rows: readonly (readonly [string, SharedKind])[]): void {
  describe.each(rows)('notices across processes on the %s store', (_name, kind) => {
    let state: SharedState;
    let gateway: GatewayProcess;
    let tool: GatewayProcess;
    let sentinels = 0;

    beforeEach(async () => {
      sentinels = 0;
      state = await kind.create();
      const clock = createManualClock(START);
      gateway = await startGateway(await state.open(), { clock, ownsSession: (key) => key === WATCHER });
      tool = await startGateway(await state.open(), { clock, ownsSession: () => false });
    });
    afterEach(async () => {
      await gateway.awareness.close();
      await tool.awareness.close();
      await state.cleanup();
    });

    const targetNotices = () => gateway.awareness.pending(WATCHER).filter((notice) => notice.target === TARGET);

    /** Resolves once the gateway has heard every change the tool made so far: a change to a new watched session after them has reached it. */
    const caughtUp = async (): Promise<void> => {
      sentinels += 1;
      const sentinel = `agent:sentinel${sentinels}:main`;
      await gateway.awareness.sent({ senderKey: WATCHER, deliveredTo: sentinel, watch: true });
      await tool.awareness.record(humanTurn(sentinel));
      await eventually(() => gateway.awareness.pending(WATCHER).some((notice) => notice.target === sentinel), `the notice on ${sentinel}`);
    };

    /** The watcher watches TARGET (from its head, 0) and the tool records `turns` human turns on it; their sequences. */
    const watchedAndChanged = async (turns: number): Promise<number[]> => {
      expect(await gateway.awareness.sent({ senderKey: WATCHER, deliveredTo: TARGET, watch: true })).toEqual({ watched: true });
      const sequences: number[] = [];
      for (let i = 0; i < turns; i += 1) {
        const recorded = await tool.awareness.record(humanTurn(TARGET));
        if (recorded.outcome !== 'recorded') throw new Error('turn not recorded');
        sequences.push(recorded.event.sequence);
      }
      return sequences;
    };

    test('another process’s record on a watched target queues one notice in the gateway that owns the watcher, with one wake that finds it; the recorder queues nothing', async () => {
      await watchedAndChanged(2);
      await eventually(() => targetNotices().length > 0, 'the notice in the owner');
      expect(targetNotices()).toEqual([{ watcher: WATCHER, target: TARGET, changesSince: 0, text: noticeTextOf(TARGET, 0) }]);
      expect(gateway.wakes).toEqual([{ watcher: WATCHER, pending: 1 }]);
      expect(tool.awareness.pending(WATCHER)).toEqual([]);
      expect(tool.wakes).toEqual([]);
    });

    test('another process’s reader acknowledgement to the head withdraws the notice the owner queued: no take hands it out, no wake', async () => {
      await watchedAndChanged(2);
      await eventually(() => targetNotices().length > 0, 'the notice in the owner');
      const read = await tool.awareness.status(TARGET, { changesSince: 0, reader: WATCHER });
      expect(read.stateChanges?.hasMore).toBe(false);
      await eventually(() => targetNotices().length === 0, 'the notice withdrawn in the owner');
      await caughtUp();
      expect(targetNotices()).toEqual([]);
      expect((await gateway.awareness.take(WATCHER)).filter((notice) => notice.target === TARGET)).toEqual([]);
      expect(gateway.wakes.filter((wake) => wake.watcher === WATCHER)).toHaveLength(1 + sentinels);
    });

    test('a notice the owner took, read to the head in another process before the confirm: the confirm acknowledges nothing, reopens nothing and wakes nobody', async () => {
      const [first] = await watchedAndChanged(1);
      await eventually(() => targetNotices().length > 0, 'the notice in the owner');
      const taken = await gateway.awareness.take(WATCHER);
      expect(taken).toEqual([expect.objectContaining({ target: TARGET, changesSince: 0, notified: first })]);
      await tool.awareness.record(humanTurn(TARGET));
      await tool.awareness.status(TARGET, { changesSince: 0, reader: WATCHER });
      await caughtUp();
      const wakesBefore = gateway.wakes.length;
      expect(await gateway.awareness.confirm(WATCHER, taken)).toEqual({ confirmed: 0 });
      expect(gateway.wakes.length).toBe(wakesBefore);
      expect(targetNotices()).toEqual([]);
      expect(gateway.awareness.metrics().noticesReopened).toBe(0);
    });
  });
}

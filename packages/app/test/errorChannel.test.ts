// The error rule (README "Errors"): the appends, record and childSpawned, answer a write that did
// not happen with { ok: false, error }; every other method rejects (pending, being synchronous,
// throws). Checked here for the closed facade on every method.
import { storeMatrix, type StoreKind } from '@session-state/testkit';

import { ClosedError, type SessionStateAwareness } from '../src/index.js';
import { CHILD, humanTurn, openFixture, PARENT, PEER, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

const REJECTING: ReadonlyArray<readonly [string, (a: SessionStateAwareness) => Promise<unknown>]> = [
  ['sent', (a) => a.sent({ senderKey: PARENT, deliveredTo: PEER, watch: true })],
  ['drain', (a) => a.drain(PARENT)],
  ['status', (a) => a.status(CHILD)],
  ['list', (a) => a.list([CHILD])],
  ['watched', (a) => a.watched(PARENT)],
  ['sessionReset', (a) => a.sessionReset(PARENT)],
  ['sessionDeleted', (a) => a.sessionDeleted(CHILD)],
  ['prune', (a) => a.prune()],
];

describe.each(storeMatrix)('the error rule after close() on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  beforeEach(async () => {
    f = await openFixture(kind);
    await f.awareness.close();
  });
  afterEach(async () => {
    await f.dispose();
  });

  test('record and childSpawned resolve { ok: false, error: ClosedError } naming themselves', async () => {
    const recorded = await f.awareness.record(humanTurn(CHILD));
    const spawned = await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    for (const [operation, result] of [['record', recorded], ['childSpawned', spawned]] as const) {
      expect(result.ok).toBe(false);
      const error = !result.ok ? result.error : undefined;
      expect(error).toBeInstanceOf(ClosedError);
      expect((error as ClosedError).operation).toBe(operation);
    }
  });

  test.each(REJECTING)('%s rejects with a ClosedError naming it', async (operation, call) => {
    const error = await call(f.awareness).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClosedError);
    expect((error as ClosedError).operation).toBe(operation);
  });

  test('pending throws a ClosedError', () => {
    expect(() => noticeTexts(f.awareness.pending(PARENT))).toThrow(ClosedError);
  });
});

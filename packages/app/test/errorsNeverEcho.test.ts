// The facade's input validation describes a wrong value by type and size and never repeats it:
// any string a caller passes may be message content, however short or identifier-like it looks.
import { fc, test as propTest } from '@fast-check/jest';
import { createMemoryStore } from '@session-state/adapters-memory';

import { createSessionStateAwareness, InvalidInputError, type SessionStateAwareness } from '../src/index.js';
import { CHILD, PARENT, PEER, recordingLogger } from './support/harness.js';

/** Every caller string below starts with this, so any part of it in a message is found. */
const MARK = 'Qz7';

/** A distinctive caller string: an identifier-like token (once quoted as is) or a sentence. */
const callerString = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.:@/+-]{1,28}$/u).map((s) => `${MARK}${s}`),
  fc.stringMatching(/^[a-z]{1,12}$/u).map((s) => `${MARK} meet me at ${s}`),
);

type Loose = Record<string, (...args: unknown[]) => unknown>;

/** Places of the caller's string `s` in a call that must be rejected; `k` is `s` made an invalid key. */
const PLACES: ReadonlyArray<readonly [string, (a: Loose, s: string, k: string) => unknown]> = [
  ['status options', (a, s) => a['status']?.(PEER, s)],
  ['status key', (a, _s, k) => a['status']?.(k)],
  ['status.changesSince', (a, s) => a['status']?.(PEER, { changesSince: s })],
  ['status.limit', (a, s) => a['status']?.(PEER, { changesSince: 0, limit: s })],
  ['status.reader', (a, _s, k) => a['status']?.(PEER, { reader: k })],
  ['status unknown field', (a, s) => a['status']?.(PEER, { since: s })],
  ['list argument', (a, s) => a['list']?.(s)],
  ['list key', (a, _s, k) => a['list']?.([PEER, k])],
  ['list after a hole', (a, s) => a['list']?.([, s])],
  ['childSpawned input', (a, s) => a['childSpawned']?.(s)],
  ['childSpawned.parentKey', (a, _s, k) => a['childSpawned']?.({ parentKey: k, childKey: CHILD })],
  ['childSpawned.dedupeKey', (a, s) => a['childSpawned']?.({ parentKey: PARENT, childKey: CHILD, dedupeKey: `${s}\u0000` })],
  ['childSpawned unknown field', (a, s) => a['childSpawned']?.({ parentKey: PARENT, childKey: CHILD, runId: s })],
  ['sent.watch', (a, s) => a['sent']?.({ senderKey: PARENT, deliveredTo: PEER, watch: s })],
  ['sent.delivered', (a, s) => a['sent']?.({ senderKey: PARENT, deliveredTo: PEER, watch: true, delivered: s })],
  ['sent.senderKey', (a, _s, k) => a['sent']?.({ senderKey: k, deliveredTo: PEER, watch: true })],
  ['pending', (a, _s, k) => a['pending']?.(k)],
  ['drain', (a, _s, k) => a['drain']?.(k)],
  ['sessionReset', (a, _s, k) => a['sessionReset']?.(k)],
  ['sessionDeleted', (a, _s, k) => a['sessionDeleted']?.(k)],
  ['record input', (a, s) => a['record']?.(s)],
  ['record.kind', (a, s) => a['record']?.({ sessionKey: PEER, kind: s, actorType: 'human', summary: 'ok' })],
  ['record.actorType', (a, s) => a['record']?.({ sessionKey: PEER, kind: 'goal_changed', actorType: s, summary: 'ok' })],
  ['record.occurredAt', (a, s) => a['record']?.({ sessionKey: PEER, kind: 'goal_changed', actorType: 'human', summary: 'ok', occurredAt: s })],
  ['record.payload.outcome', (a, s) => a['record']?.({ sessionKey: PEER, kind: 'run_failed', actorType: 'system', summary: 'ok', payload: { outcome: s } })],
  ['record unknown field', (a, s) => a['record']?.({ sessionKey: PEER, kind: 'goal_changed', actorType: 'human', summary: 'ok', content: s })],
];

/** The InvalidInputError a call rejected with, threw, or (record) returned. */
async function invalidInputOf(call: () => unknown): Promise<InvalidInputError> {
  let outcome: unknown;
  try {
    outcome = await call();
  } catch (error) {
    outcome = { error };
  }
  const error = (outcome as { error?: unknown } | undefined)?.error;
  if (!(error instanceof InvalidInputError)) throw new Error(`expected an InvalidInputError, got ${String(error)}`);
  return error;
}

let awareness: SessionStateAwareness;
beforeAll(async () => {
  awareness = await createSessionStateAwareness({ store: createMemoryStore(), logger: recordingLogger(), startup: { prune: 'off' } });
});
afterAll(async () => {
  await awareness.close();
});

propTest.prop([callerString, fc.constantFrom(...PLACES)], { numRuns: 300 })(
  'no error of the input validation contains any part of a string the caller passed, wherever it was placed',
  async (s, [_place, call]) => {
    const error = await invalidInputOf(() => call(awareness as unknown as Loose, s, `${s} x`));
    expect(error.message).not.toContain(MARK);
    expect(error.value).not.toContain(MARK);
    expect(error.message).toMatch(/got (a string of \d+ characters?|a hole \(the array is sparse\)|undefined)$/u);
  },
);

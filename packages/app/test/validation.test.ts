// Bad input at the facade boundary: every method but record rejects with an InvalidInputError
// naming the field and value, record returns it, and nothing changes.
import { createMemoryStore } from '@session-state/adapters-memory';
import { storeMatrix, type StoreKind } from '@session-state/testkit';

import { createSessionStateAwareness, InvalidInputError, type SessionStateAwareness } from '../src/index.js';
import { CHILD, humanTurn, openFixture, PARENT, PEER, recordingLogger, type Fixture } from './support/harness.js';
import { noticeTexts } from './support/noticeTexts.js';

type Call = (a: SessionStateAwareness) => unknown;

/** Loosely typed entry points, so the tests can pass what plain JavaScript could. */
const loose = (a: SessionStateAwareness): Record<string, (...args: unknown[]) => unknown> =>
  a as unknown as Record<string, (...args: unknown[]) => unknown>;

/**
 * [field, rendered value (null: an unknown field, whose value is described rather than echoed), call].
 * A wrong string is described by type and size (it may be a pasted message), however short.
 */
const CASES: ReadonlyArray<readonly [string, string | null, Call]> = [
  ['childSpawned.parentKey', 'a string of 9 characters', (a) => a.childSpawned({ parentKey: 'has space', childKey: CHILD })],
  ['childSpawned.childKey', 'undefined', (a) => loose(a)['childSpawned']?.({ parentKey: PARENT })],
  ['childSpawned.summary', 'a string of 1 character', (a) => a.childSpawned({ parentKey: PARENT, childKey: CHILD, summary: '\n' })],
  ['childSpawned.runId', null, (a) => loose(a)['childSpawned']?.({ parentKey: PARENT, childKey: CHILD, runId: 'r1' })],
  ['childSpawned', 'null', (a) => loose(a)['childSpawned']?.(null)],
  ['sent.watch', 'a string of 3 characters', (a) => loose(a)['sent']?.({ senderKey: PARENT, deliveredTo: PEER, watch: 'yes' })],
  ['sent.deliveredTo', 'an empty string', (a) => a.sent({ senderKey: PARENT, deliveredTo: '', watch: true })],
  ['sent.delivered', '1', (a) => loose(a)['sent']?.({ senderKey: PARENT, deliveredTo: PEER, watch: true, delivered: 1 })],
  ['pending.watcherKey', 'an empty string', (a) => noticeTexts(a.pending(''))],
  ['drain.watcherKey', '42', (a) => loose(a)['drain']?.(42)],
  ['status.sessionKey', 'a string of 3 characters', (a) => a.status('a"b')],
  ['status.changesSince', '-1', (a) => a.status(PEER, { changesSince: -1 })],
  ['status.changesSince', '1.5', (a) => a.status(PEER, { changesSince: 1.5 })],
  ['status.limit', '201', (a) => a.status(PEER, { changesSince: 0, limit: 201 })],
  ['status.limit', '0', (a) => a.status(PEER, { changesSince: 0, limit: 0 })],
  ['status.since', null, (a) => loose(a)['status']?.(PEER, { since: 3 })],
  ['list.sessionKeys.1', 'a string of 7 characters', (a) => a.list([PEER, 'bad key'])],
  ['watched.watcherKey', 'a string of 7 characters', (a) => a.watched('bad key')],
  ['list.sessionKeys', 'a string of 15 characters', (a) => loose(a)['list']?.(PARENT)],
  ['list.sessionKeys.0', 'a hole (the array is sparse)', (a) => loose(a)['list']?.([, PEER])],
  ['list.sessionKeys.2', 'a hole (the array is sparse)', (a) => loose(a)['list']?.([PEER, PARENT, , CHILD])],
  ['status', 'a string of 4 characters', (a) => loose(a)['status']?.(PEER, 'text')],
  ['childSpawned', 'a string of 4 characters', (a) => loose(a)['childSpawned']?.('text')],
  ['sessionReset.sessionKey', 'an empty string', (a) => a.sessionReset('')],
  ['sessionDeleted.sessionKey', 'null', (a) => loose(a)['sessionDeleted']?.(null)],
];

async function rejection(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe.each(storeMatrix)('input validation on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  beforeEach(async () => {
    f = await openFixture(kind);
  });
  afterEach(async () => {
    await f.dispose();
  });

  test.each(CASES)('rejects bad %s (%s) with an InvalidInputError naming field and value, changing nothing', async (field, value, call) => {
    await f.awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
    await f.awareness.record(humanTurn(CHILD));
    const before = { pending: noticeTexts(f.awareness.pending(PARENT)), list: await f.awareness.list([PARENT, CHILD, PEER]) };

    const error = await rejection(() => call(f.awareness));

    expect(error).toBeInstanceOf(InvalidInputError);
    const invalid = error as InvalidInputError;
    expect(invalid.name).toBe('InvalidInputError');
    expect(invalid.field).toBe(field);
    expect(invalid.message).toContain(field);
    if (value !== null) {
      expect(invalid.value).toBe(value);
      expect(invalid.message).toContain(value);
    }
    expect(invalid.message).toContain(invalid.expected);
    expect({ pending: noticeTexts(f.awareness.pending(PARENT)), list: await f.awareness.list([PARENT, CHILD, PEER]) }).toEqual(before);
  });

  test('record returns bad input as { ok: false, error: InvalidInputError } and writes nothing', async () => {
    const results = await Promise.all([
      f.awareness.record(humanTurn(PEER, { summary: '' })),
      f.awareness.record({ sessionKey: PEER, kind: 'run_failed', actorType: 'system', summary: 'failed' }),
      (loose(f.awareness)['record'] as (i: unknown) => Promise<unknown>)({ ...humanTurn(PEER), content: 'the message' }),
      (loose(f.awareness)['record'] as (i: unknown) => Promise<unknown>)('not an object'),
    ]);
    const fields = results.map((r) => {
      const result = r as { ok: boolean; error?: unknown };
      expect(result.ok).toBe(false);
      expect(result.error).toBeInstanceOf(InvalidInputError);
      return (result.error as InvalidInputError).field;
    });
    expect(fields).toEqual(['record.summary', 'record.payload.outcome', 'record.content', 'record']);
    expect(await f.awareness.list([PEER])).toEqual([{ sessionKey: PEER }]);
    // The warning names the field, never the content.
    expect(JSON.stringify(f.logger.entries)).not.toContain('the message');
  });
});

describe('createSessionStateAwareness options', () => {
  test.each([
    ['options.store', { store: {} }],
    ['options.clock', { store: createMemoryStore(), clock: { now: 5 } }],
    ['options.wake', { store: createMemoryStore(), wake: 'yes' }],
    ['options.retention.maxRows', { store: createMemoryStore(), retention: { maxRows: -1 } }],
    ['options.retention.maxAge', { store: createMemoryStore(), retention: { maxAge: 5 } }],
    ['options.retention.cursorMaxAgeMs', { store: createMemoryStore(), retention: { cursorMaxAgeMs: 0 } }],
    ['options.storage', { store: createMemoryStore(), storage: 'x' }],
  ] as ReadonlyArray<readonly [string, object]>)('rejects a bad %s with an InvalidInputError', async (field, options) => {
    const error = await rejection(() => createSessionStateAwareness({ logger: recordingLogger(), ...options } as never));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe(field);
  });
});

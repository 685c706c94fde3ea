// Issue 12 item 6: input that throws when it is read. A getter that throws (on any field, or
// deep inside the payload), a revoked Proxy (as the input or as the payload), a payload whose
// toJSON throws: `record` never throws and never rejects (a failed result with an
// InvalidInputError naming the field, nothing stored, no content in the error or the log), and
// every other method rejects (or, for the synchronous `pending`, throws) an InvalidInputError
// instead of a bare TypeError. `childSpawned` with a clock that throws returns a failed result.
import { createMemoryStore } from '@session-state/adapters-memory';
import { storeMatrix, type StoreKind } from '@session-state/testkit';

import { ClockError, createSessionStateAwareness, InvalidInputError, type RecordResult } from '../../src/index.js';
import { CHILD, humanTurn, openFixture, PARENT, PEER, recordingLogger, START, type Fixture } from '../support/harness.js';
import { noticeTexts } from '../support/noticeTexts.js';

/** Content that must never reach an error message or a log. */
const SECRET = 'the user said: my password is hunter2';

const thrower = (): never => {
  throw new Error(SECRET);
};

/** A copy of `base` whose `field` is a getter that throws. */
function withThrowingGetter(base: Record<string, unknown>, field: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...base };
  Object.defineProperty(copy, field, { get: thrower, enumerable: true, configurable: true });
  return copy;
}

function revoked<T extends object>(target: T): T {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}

/** A proxy every trap of which throws. */
const hostileProxy = (): object =>
  new Proxy(
    {},
    {
      get: thrower,
      has: thrower,
      ownKeys: thrower,
      getOwnPropertyDescriptor: thrower,
      getPrototypeOf: thrower,
    },
  );

const VALID = { ...humanTurn(CHILD), actorSessionKey: PEER, dedupeKey: 'turn-1', occurredAt: '2026-11-29T10:00:00Z', onlyIfWatched: false };
const FIELDS = Object.keys(VALID);

/** [label, input, the field the error must name (or a path below it)] */
const HOSTILE_RECORDS: ReadonlyArray<readonly [string, () => unknown, string]> = [
  ...FIELDS.map((field) => [`a throwing getter on ${field}`, () => withThrowingGetter(VALID, field), `record.${field}`] as const),
  ['a revoked Proxy as the input', () => revoked({ ...VALID }), 'record'],
  ['a Proxy whose every trap throws as the input', hostileProxy, 'record'],
  ['a revoked Proxy as the payload', () => ({ ...VALID, payload: revoked({ channel: 'telegram' }) }), 'record.payload'],
  ['a Proxy whose every trap throws as the payload', () => ({ ...VALID, payload: hostileProxy() }), 'record.payload'],
  ['a payload with a throwing getter two levels down', () => ({ ...VALID, payload: { meta: withThrowingGetter({ a: 1 }, 'b') } }), 'record.payload'],
  ['a payload whose key list throws', () => ({ ...VALID, payload: { meta: revoked({}) } }), 'record.payload'],
  ['a payload with a throwing toJSON', () => ({ ...VALID, payload: { channel: 'telegram', toJSON: thrower } }), 'record.payload'],
];

describe.each(storeMatrix)('input that throws when read, on the %s store', (_name, kind: StoreKind) => {
  let f: Fixture;
  beforeEach(async () => {
    f = await openFixture(kind);
  });
  afterEach(async () => {
    await f.dispose();
  });

  test.each(HOSTILE_RECORDS)(
    'record with %s: resolves with an InvalidInputError naming the field, stores nothing, leaks no content, and the next record works',
    async (_label, input, field) => {
      let promise: Promise<RecordResult> | undefined;
      expect(() => {
        promise = f.awareness.record(input() as never);
      }).not.toThrow();
      const result = await (promise as Promise<RecordResult>);
      expect(result.ok).toBe(false);
      const error = !result.ok ? result.error : undefined;
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).field.startsWith(field)).toBe(true);
      expect((error as Error).message).not.toContain('hunter2');
      expect(JSON.stringify(f.logger.entries)).not.toContain('hunter2');
      expect((await f.awareness.status(CHILD)).stateVersion).toBe(0);

      const next = await f.awareness.record(humanTurn(CHILD));
      expect(next.ok && 'event' in next && next.event.sequence).toBe(1);
    },
  );

  test('every other method rejects unreadable input with an InvalidInputError (pending throws one), never a TypeError', async () => {
    const calls: ReadonlyArray<readonly [string, () => unknown]> = [
      ['childSpawned', () => f.awareness.childSpawned(revoked({ parentKey: PARENT, childKey: CHILD }))],
      ['childSpawned', () => f.awareness.childSpawned(withThrowingGetter({ parentKey: PARENT, childKey: CHILD }, 'childKey') as never)],
      ['sent', () => f.awareness.sent(hostileProxy() as never)],
      ['drain', () => f.awareness.drain(revoked({}) as never)],
      ['status', () => f.awareness.status(revoked({}) as never)],
      ['status', () => f.awareness.status(CHILD, withThrowingGetter({ changesSince: 0 }, 'limit') as never)],
      ['list', () => f.awareness.list(revoked([CHILD]))],
      ['sessionReset', () => f.awareness.sessionReset(hostileProxy() as never)],
      ['sessionDeleted', () => f.awareness.sessionDeleted(revoked({}) as never)],
    ];
    for (const [method, call] of calls) {
      let returned: unknown;
      expect(() => {
        returned = call();
      }).not.toThrow();
      const error = await (returned as Promise<unknown>).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect({ method, invalidInput: error instanceof InvalidInputError }).toEqual({ method, invalidInput: true });
      expect((error as InvalidInputError).field.startsWith(method)).toBe(true);
      expect((error as Error).message).not.toContain('hunter2');
    }
    expect(() => noticeTexts(f.awareness.pending(revoked({}) as never))).toThrow(InvalidInputError);
    expect((await f.awareness.list([CHILD]))[0]).toEqual({ sessionKey: CHILD });
  });
});

describe('childSpawned with a clock that throws', () => {
  test('returns a failed result with a ClockError (no append), never throws synchronously, and works once the clock does', async () => {
    let broken = false;
    const logger = recordingLogger();
    const awareness = await createSessionStateAwareness({
      store: createMemoryStore(),
      logger,
      clock: {
        now: () => {
          if (broken) throw new Error('clock source unavailable');
          return START;
        },
      },
    });
    try {
      broken = true;
      let promise: Promise<unknown> | undefined;
      expect(() => {
        promise = awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
      }).not.toThrow();
      const result = (await promise) as { ok: boolean; error?: unknown };
      expect(result.ok).toBe(false);
      expect(result.error).toBeInstanceOf(ClockError);
      expect((result.error as Error).message).toBe('session-state childSpawned failed: the clock port threw (clock source unavailable)');
      expect(logger.entries.map((entry) => entry.message)).toContain('clock port failed');
      broken = false;
      expect((await awareness.status(CHILD)).stateVersion).toBe(0);
      const spawned = await awareness.childSpawned({ parentKey: PARENT, childKey: CHILD });
      expect(spawned.ok && spawned.event.sequence).toBe(1);
    } finally {
      await awareness.close();
    }
  });
});

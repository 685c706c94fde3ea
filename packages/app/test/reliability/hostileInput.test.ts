// Battery 5 (issue 7): hostile input. Arbitrary wrong values (wrong types, huge strings, NaN,
// negative and fractional numbers, 2^53 + 1, unicode, unpaired surrogates and control characters, quotes and
// newlines in keys, 5 KiB payloads, prototype-pollution keys) in every field of every method:
// each is an InvalidInputError naming the field (for `record`, a failed result carrying one),
// nothing is written, no other error escapes and no prototype changes. Then corrupt rows in a
// SQLite file: reads through the facade report and skip them and never crash.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { fc, test as propTest } from '@fast-check/jest';
import { createMemoryStore } from '@session-state/adapters-memory';
import { openSqliteStore, type CorruptRowInfo } from '@session-state/adapters-sqlite';
import type { SessionKey, StateStore } from '@session-state/domain';
import { storeMatrix, type StoreHarness } from '@session-state/testkit';

import { createSessionStateAwareness, InvalidInputError, type SessionStateAwareness } from '../../src/index.js';
import { recordingLogger, type RecordingLogger } from '../support/harness.js';
import { expectNo } from './support/failureClasses.js';
import { scaled, scaledTimeout } from './support/scale.js';
import { noticeTexts } from '../support/noticeTexts.js';

// --- hostile values, by the type a field expects --------------------------------------------------

const HUGE = 'x'.repeat(5 * 1024);
const BIG_NUMBERS = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, -0.5, 0.5, 2 ** 53 + 1, -(2 ** 53) - 1, 1e300];
const pollution = (): unknown => JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');

/** Anything that is not a string (never undefined: an absent optional field is valid). */
const notString = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, 1, ...BIG_NUMBERS, [], {}, ['agent:a:main'], new Date(0)),
  fc.double(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
  fc.constant(pollution()),
);
const badChar = fc.constantFrom(' ', '\t', '\n', '\r', '\u0000', '\u0007', '\u001f', '\u007f', '\u0085', '\u00a0', '\u2028', '\u3000', '"');
/** Ill-formed UTF-16 (an unpaired surrogate), which SQLite and PostgreSQL would store as U+FFFD. */
const ILL_FORMED = ['agent:\uD83D:main', 'agent:main:\uDE00', '\uD83D', 'agent:\uDE00\uD83D:main'];
/** Strings that are not session keys: empty, too long, ill-formed, or with whitespace, a control character or `"`. */
const badKey = fc.oneof(
  notString,
  fc.constantFrom('', 'a'.repeat(513), HUGE, 'agent:a:main\n', 'agent:"a":main', 'global ', ...ILL_FORMED),
  fc.tuple(fc.string({ maxLength: 20 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 20 })).map(([a, c, b]) => `${a}${String.fromCharCode(c)}${b}`),
  fc.tuple(fc.string({ maxLength: 20 }), badChar, fc.string({ maxLength: 20 })).map(([a, c, b]) => `${a}${c}${b}`),
);
const badBoolean = fc.oneof(notString.filter((v) => typeof v !== 'boolean'), fc.constantFrom('true', 'false', '', 'yes'));
const badSince = fc.oneof(
  fc.constantFrom<unknown>(...BIG_NUMBERS, '3', '', null, true, {}, []),
  fc.double().filter((d) => !(Number.isSafeInteger(d) && d >= 0)),
  fc.integer({ max: -1 }),
);
const badLimit = fc.oneof(badSince, fc.constantFrom(0, 201, 1000), fc.integer({ min: 201 }));
const badSummary = fc.oneof(
  notString,
  fc.constantFrom('', '   ', '\n\t\r', '\u0000\u0001'),
  fc.array(badChar.filter((c) => c !== '"' && c !== '\u00a0' && c !== '\u3000'), { minLength: 1, maxLength: 5 }).map((cs) => cs.join('')),
);
const badEnum = fc.oneof(notString, fc.constantFrom('', 'HUMAN', 'human ', 'goal-changed', '__proto__', 'constructor', HUGE));
const badDedupe = fc.oneof(
  notString,
  fc.constantFrom('', 'k'.repeat(513), 'a\nb', 'tab\there', '\u0000', ...ILL_FORMED),
);
const badOccurredAt = fc.oneof(
  fc.constantFrom<unknown>('', 'yesterday', '1', '2026-02-30', '2026-13-01T00:00:00Z', 0.5, Number.NaN, 2 ** 53 + 1, 8.64e15 + 1, true, null, {}, [], HUGE),
  fc.string({ maxLength: 8 }).filter((s) => !/^\d{4}-\d{2}-\d{2}/.test(s)),
);
const badPayload = fc.oneof(
  fc.constantFrom<unknown>(null, 'text', 42, true, [], [1, 2], new Date(0), { big: HUGE }, { nested: { n: Number.NaN } }, { inf: Number.POSITIVE_INFINITY }, { fn: () => 1 }),
  fc.constant(pollution()),
  fc.constant(JSON.parse('{"a": {"__proto__": 1}}') as unknown),
  fc.constant(JSON.parse('{"prototype": 1}') as unknown),
  fc.constant(Array.from({ length: 20 }).reduce<unknown>((inner) => ({ inner }), 1)),
  fc.string({ minLength: 4100, maxLength: 4200 }).map((s) => ({ s })),
  // Strings and keys that every store could not keep exactly: unpaired surrogates, and NUL
  // (which PostgreSQL text cannot hold).
  fc.constantFrom<unknown>({ s: 'a\uD83D' }, { ['k\uDE00']: 1 }, { nested: ['\uD83D'] }, { nul: 'a\u0000b' }, { ['k\u0000']: true }),
);
/** Unknown field names: quotes, newlines, unicode and the prototype-pollution keys. */
const weirdFieldName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'content', 'message', 'key"with"quotes', 'line\nbreak', '\u0000', '🙂', ''),
  fc.string({ minLength: 1, maxLength: 12 }),
);

// --- the cases -------------------------------------------------------------------------------------

const W = 'agent:main:main';
const T = 'agent:main:subagent:c1';

type Method = 'record' | 'childSpawned' | 'sent' | 'pending' | 'drain' | 'status' | 'list' | 'sessionReset' | 'sessionDeleted';

interface HostileCase {
  readonly method: Method;
  /** The field the error must name (or a parent of the named path). */
  readonly field: string;
  /** The arguments (shown by fast-check in a counterexample). */
  readonly args: readonly unknown[];
}

const hostile = (method: Method, field: string, ...args: unknown[]): HostileCase => ({ method, field, args });

/** Calls the case's method; may throw or reject. */
const callCase = (a: SessionStateAwareness, c: HostileCase): unknown => (a[c.method] as (...args: unknown[]) => unknown)(...c.args);

const validRecord = { sessionKey: T, kind: 'human_direct_message', actorType: 'human', summary: 'human turn' };
const validSpawn = { parentKey: W, childKey: T };
const validSent = { senderKey: W, deliveredTo: T, watch: true };

/** A copy of `base` with `field` set to `value`; a weird field name is added as an own property. */
const withField = (base: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> => {
  const copy: Record<string, unknown> = { ...base };
  Object.defineProperty(copy, field, { value, enumerable: true, configurable: true, writable: true });
  return copy;
};

const fieldCases = (
  method: Method,
  base: Record<string, unknown>,
  fields: ReadonlyArray<readonly [string, fc.Arbitrary<unknown>]>,
): fc.Arbitrary<HostileCase> =>
  fc.oneof(
    ...fields.map(([field, arb]) => arb.map((value) => hostile(method, `${method}.${field}`, withField(base, field, value)))),
    // A missing required field.
    fc.constantFrom(...Object.keys(base)).map((field) => {
      const copy = { ...base };
      delete copy[field];
      return hostile(method, `${method}.${field}`, copy);
    }),
    // An unknown extra field (its name may hold quotes, newlines or a pollution key).
    fc
      .tuple(weirdFieldName.filter((name) => !(name in base) && !OPTIONAL_FIELDS.includes(name)), notString)
      .map(([name, value]) => hostile(method, `${method}.${name}`, withField(base, name, value))),
    // Not an object at all.
    fc
      .oneof(notString.filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)), fc.string({ maxLength: 5 }))
      .map((value) => hostile(method, method, value)),
  );

const OPTIONAL_FIELDS = ['actorSessionKey', 'payload', 'dedupeKey', 'occurredAt', 'onlyIfWatched', 'summary', 'delivered'];

const keyCase = (method: 'pending' | 'drain' | 'sessionReset' | 'sessionDeleted', field: string): fc.Arbitrary<HostileCase> =>
  badKey.map((value) => hostile(method, `${method}.${field}`, value));

const hostileCase: fc.Arbitrary<HostileCase> = fc.oneof(
  {
    weight: 4,
    arbitrary: fieldCases(
      'record',
      validRecord,
      [
        ['sessionKey', badKey],
        ['kind', badEnum],
        ['actorType', badEnum],
        ['summary', badSummary],
        ['actorSessionKey', badKey],
        ['payload', badPayload],
        ['dedupeKey', badDedupe],
        ['occurredAt', badOccurredAt],
        ['onlyIfWatched', badBoolean],
      ],
    ),
  },
  {
    weight: 2,
    arbitrary: fieldCases(
      'childSpawned',
      validSpawn,
      [
        ['parentKey', badKey],
        ['childKey', badKey],
        ['summary', badSummary],
        ['dedupeKey', badDedupe],
      ],
    ),
  },
  {
    weight: 2,
    arbitrary: fieldCases(
      'sent',
      validSent,
      [
        ['senderKey', badKey],
        ['deliveredTo', badKey],
        ['watch', badBoolean],
        ['delivered', badBoolean],
      ],
    ),
  },
  keyCase('pending', 'watcherKey'),
  keyCase('drain', 'watcherKey'),
  keyCase('sessionReset', 'sessionKey'),
  keyCase('sessionDeleted', 'sessionKey'),
  badKey.map((value) => hostile('status', 'status.sessionKey', value)),
  badSince.map((value) => hostile('status', 'status.changesSince', T, { changesSince: value })),
  badLimit.map((value) => hostile('status', 'status.limit', T, { changesSince: 0, limit: value })),
  fc
    .tuple(weirdFieldName.filter((n) => n !== 'changesSince' && n !== 'limit'), fc.anything())
    .map(([name, value]) => hostile('status', `status.${name}`, T, withField({}, name, value))),
  fc.oneof(notString.filter((v) => !Array.isArray(v)), fc.string({ maxLength: 5 })).map((value) => hostile('list', 'list.sessionKeys', value)),
  fc.tuple(fc.array(fc.constantFrom(W, T), { maxLength: 3 }), badKey).map(([good, bad]) => hostile('list', 'list.sessionKeys', [...good, bad])),
);

// --- running a case ----------------------------------------------------------------------------------

/** The call's failure, whether thrown synchronously or as a rejection; for `record`, its failed result's error. */
async function failureOf(c: HostileCase, a: SessionStateAwareness): Promise<unknown> {
  let value: unknown;
  try {
    value = await callCase(a, c);
  } catch (error) {
    return error;
  }
  if (c.method === 'record' && typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false) {
    return (value as { error: unknown }).error;
  }
  return { notRejected: value };
}

/** Everything durable or queued that a rejected call must leave alone. */
async function snapshot(store: StateStore, a: SessionStateAwareness): Promise<string> {
  const keys = [W, T] as SessionKey[];
  return JSON.stringify({
    heads: await store.readHeads(keys),
    cursors: await store.listCursors(),
    events: (await store.readChanges(T as SessionKey, 0 as never, 200)).events.length,
    pending: keys.map((k) => noticeTexts(a.pending(k))),
  });
}

const prototypeNames = (): string => JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort());

describe.each(storeMatrix)('hostile input through every method on the %s store', (_name, kind) => {
  let opened: StoreHarness;
  let store: StateStore;
  let awareness: SessionStateAwareness;
  let logger: RecordingLogger;
  let before: string;
  const protoBefore = prototypeNames();

  beforeAll(async () => {
    opened = await kind.open();
    store = opened.store;
    logger = recordingLogger();
    awareness = await createSessionStateAwareness({ store, logger });
    await awareness.childSpawned({ parentKey: W, childKey: T });
    await awareness.record({ sessionKey: T, kind: 'human_direct_message', actorType: 'human', summary: 'a turn' });
    before = await snapshot(store, awareness);
  });
  afterAll(async () => {
    await awareness.close();
    await opened.cleanup();
  });

  propTest.prop([hostileCase], { numRuns: scaled(800) })(
    'every wrong value is an InvalidInputError naming its field, writes nothing, throws nothing else and pollutes no prototype',
    async (c) => {
      const failure = await failureOf(c, awareness);
      expect(failure).toBeInstanceOf(InvalidInputError);
      const error = failure as InvalidInputError;
      expect(error.name).toBe('InvalidInputError');
      expect(error.field === c.field || error.field.startsWith(`${c.field}.`)).toBe(true);
      expect(error.message).toContain(error.field);
      // The value is rendered short: a 5 KiB string or payload never comes back whole.
      expect(error.message.length).toBeLessThan(1200);
      expectNo('model-divergence', (await snapshot(store, awareness)) === before, () => `${c.method} with bad ${c.field} changed the state`);
      expect(prototypeNames()).toBe(protoBefore);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(JSON.stringify(logger.entries)).not.toContain(HUGE);
    },
    scaledTimeout(30_000),
  );

  test('bad retention options are rejected naming the option', async () => {
    for (const value of [0, -1, 0.5, Number.NaN, 2 ** 53 + 1, '10', null]) {
      for (const field of ['maxAgeMs', 'maxRows']) {
        const attempt = createSessionStateAwareness({ store: createMemoryStore(), retention: { [field]: value } as never });
        await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
        await expect(attempt).rejects.toMatchObject({ field: `options.retention.${field}` });
      }
    }
  });
});

// --- corrupt rows in a SQLite file ---------------------------------------------------------------

describe('corrupt rows in the SQLite file', () => {
  let dir: string;
  let path: string;
  let reported: CorruptRowInfo[];
  let awareness: SessionStateAwareness;

  const open = async (): Promise<SessionStateAwareness> =>
    createSessionStateAwareness({ store: openSqliteStore({ path, onCorruptRow: (info) => reported.push(info) }), logger: recordingLogger() });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'session-state-corrupt-'));
    path = join(dir, 'state.db');
    reported = [];
    awareness = await open();
  });
  afterEach(async () => {
    await awareness.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const damage = (sql: string, ...params: unknown[]): void => {
    const raw = new Database(path);
    try {
      raw.prepare(sql).run(...params);
    } finally {
      raw.close();
    }
  };

  test('status skips and reports a bad JSON payload, an unknown kind or actor type and a non-object payload; notices and paging still work', async () => {
    const spawn = await awareness.childSpawned({ parentKey: W, childKey: T });
    if (!spawn.ok) throw new Error('childSpawned failed');
    const sequences: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const result = await awareness.record({ sessionKey: T, kind: 'goal_changed', actorType: 'agent', summary: `change ${i}`, payload: { i } });
      if (!result.ok || !('event' in result)) throw new Error('record failed');
      sequences.push(result.event.sequence);
    }
    const [s0, s1, s2, s3] = sequences as [number, number, number, number];
    damage('UPDATE events SET payload = ? WHERE sequence = ?', '{"i": 1,', s0);
    damage("UPDATE events SET kind = 'no_such_kind' WHERE sequence = ?", s1);
    damage("UPDATE events SET actor_type = 'robot' WHERE sequence = ?", s2);
    damage("UPDATE events SET payload = '\"just a string\"' WHERE sequence = ?", s3);
    const good = [spawn.event.sequence, ...sequences.slice(4)];

    const status = await awareness.status(T, { changesSince: 0 });
    expect(status.stateChanges?.events.map((e) => e.sequence)).toEqual(good);
    expect(status.stateVersion).toBe(sequences[sequences.length - 1]);
    expect(reported.map((r) => r.sequence)).toEqual(expect.arrayContaining([s0, s1, s2, s3]));

    // Paging one event at a time across the corrupt rows reaches the head with no skip and no repeat.
    const paged: number[] = [];
    let since = 0;
    for (let page = 0; page < 20; page += 1) {
      const next = await awareness.status(T, { changesSince: since, limit: 1 });
      paged.push(...(next.stateChanges?.events ?? []).map((e) => e.sequence));
      since = next.stateChanges?.nextSince ?? since;
      if (next.stateChanges?.hasMore !== true) break;
    }
    expect(paged).toEqual(good);

    // The process keeps working: a new change notifies, a drain acknowledges, a restart recovers.
    expect(noticeTexts(await awareness.drain(W))).toHaveLength(1);
    await awareness.record({ sessionKey: T, kind: 'human_direct_message', actorType: 'human', summary: 'after corruption' });
    await awareness.close();
    awareness = await open();
    expect(noticeTexts(awareness.pending(W))).toHaveLength(1);
  });

  test('a corrupt event holding a dedupe key fails only the retry that meets it, as a failed result', async () => {
    const first = await awareness.record({ sessionKey: T, kind: 'compacted', actorType: 'system', summary: 'compacted', dedupeKey: 'compacted:op-1' });
    if (!first.ok || !('event' in first)) throw new Error('record failed');
    damage("UPDATE events SET kind = 'garbage' WHERE sequence = ?", first.event.sequence);
    const retry = await awareness.record({ sessionKey: T, kind: 'compacted', actorType: 'system', summary: 'compacted', dedupeKey: 'compacted:op-1' });
    expect(retry.ok).toBe(false);
    const other = await awareness.record({ sessionKey: T, kind: 'compacted', actorType: 'system', summary: 'other' });
    expect(other.ok).toBe(true);
    expect((await awareness.status(T, { changesSince: 0 })).stateChanges?.events).toHaveLength(1);
  });
});

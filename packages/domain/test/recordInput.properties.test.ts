// decodeRecordInput over mostly valid, sometimes invalid records: one answer, in one shape.
import { expect } from '@jest/globals';
import { fc, test as prop } from '@fast-check/jest';
import * as E from 'fp-ts/lib/Either.js';

import { clampOccurredAt, decodeRecordInput, OCCURRED_AT_WINDOW_MS, type AppendCommand } from '../src/input/recordInput.js';

const KINDS = ['human_direct_message', 'goal_changed', 'upstream_missing', 'child_spawned', 'run_completed', 'run_failed', 'compacted', 'adopted', 'created'];

/** Mostly valid values, sometimes invalid ones. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>): fc.Arbitrary<T | U> =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: invalid });

const sessionKey = mostly(
  fc.oneof(fc.constantFrom('agent:main:main', 'agent:main:subagent:c1', 'global', 'k'.repeat(512)), fc.stringMatching(/^[a-z:0-9-]{1,20}$/)),
  fc.oneof(fc.constantFrom('', 'has space', 'agent:"q', 'k'.repeat(513), 'tab\there'), fc.string({ maxLength: 12 }), fc.integer()),
);
const summary = mostly(
  fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom(' padded ', 'line\nbreak', 'tab\tand\u0085next', 'a\u2028b', '\u00a0nbsp\u00a0', 'x'.repeat(200), 'x'.repeat(201), '😀'.repeat(150), ' 😀'.repeat(120)),
    fc.string({ unit: 'binary', maxLength: 40 }),
  ),
  fc.constantFrom('', '   ', '\n\t', 12, null),
);
const payload = mostly(
  fc.oneof(
    fc.constant({ channel: 'telegram' }),
    fc.record({ outcome: fc.constantFrom('cancelled', 'timeout', 'error', 'boom', 1) }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    fc.constant(Object.create(null) as object),
  ),
  fc.constantFrom([1], null, 'text', { n: Number.NaN }, { k: 'x'.repeat(5000) }, JSON.parse('{"__proto__":1}') as object, new Date(0)),
);
const occurredAt = mostly(
  fc.oneof(fc.integer({ min: -1e13, max: 1e13 }), fc.constantFrom('2026-11-29T10:00:00.000Z', '2026-11-29', '2026-11-29T10:00', '2026-11-29T10:00:00+02:00')),
  fc.constantFrom('2026-02-30', 'yesterday', '1', 1.5, 9e15, true),
);
const absentOr = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.oneof({ weight: 3, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(undefined) });

/** Records whose fields are each absent, undefined, valid or invalid. */
const baseRecord = fc.record(
  {
    sessionKey,
    kind: mostly(fc.constantFrom(...KINDS), fc.constantFrom('message', '', 'hasOwnProperty', 7)),
    actorType: mostly(fc.constantFrom('human', 'agent', 'system'), fc.constantFrom('robot', undefined)),
    actorSessionKey: absentOr(sessionKey),
    summary,
    payload: absentOr(payload),
    dedupeKey: absentOr(mostly(fc.constantFrom('run-terminal:1', 'd'.repeat(512)), fc.constantFrom('', 'a\u0000b', 'd'.repeat(513), 3))),
    occurredAt: absentOr(occurredAt),
    onlyIfWatched: absentOr(mostly(fc.boolean(), fc.constantFrom('yes', 0))),
  },
  { requiredKeys: ['sessionKey', 'kind', 'actorType', 'summary'] },
);
/** Now and then a stray field (which may hold message content), or a non-plain object. */
const recordInput = fc.oneof(
  { weight: 10, arbitrary: baseRecord },
  { weight: 1, arbitrary: baseRecord.map((r) => ({ ...r, content: 'secret' })) },
  { weight: 1, arbitrary: baseRecord.map((r) => Object.assign(Object.create({ inherited: 1 }) as object, r)) },
);

const KEY_ORDER = ['sessionKey', 'kind', 'actorType', 'summary', 'onlyIfWatched', 'actorSessionKey', 'payload', 'payloadJson', 'dedupeKey', 'occurredAt'];

prop.prop([fc.oneof({ weight: 8, arbitrary: recordInput }, { weight: 1, arbitrary: fc.anything() })], { numRuns: 2000 })(
  'for any input: a command with its keys in the one order, or one worded rejection',
  (input) => {
    const decoded = decodeRecordInput(input);
    if (E.isRight(decoded)) {
      const keys = Object.keys(decoded.right);
      expect(keys).toEqual(KEY_ORDER.filter((key) => keys.includes(key)));
    } else {
      expect(decoded.left._tag).toBe('InvalidInput');
      expect(decoded.left.message).toBe(`invalid ${decoded.left.field}: expected ${decoded.left.expected}, got ${decoded.left.value}`);
    }
  },
);

prop.prop([recordInput], { numRuns: 300 })('decoding twice gives the same answer (the input is only read)', (input) => {
  expect(decodeRecordInput(input)).toStrictEqual(decodeRecordInput(input));
});

const NOW = Date.UTC(2026, 10, 29, 10);
const clampCommand = (occurredAt: number | undefined): AppendCommand => {
  const decoded = decodeRecordInput({ sessionKey: 'agent:main:main', kind: 'goal_changed', actorType: 'human', summary: 's', ...(occurredAt !== undefined ? { occurredAt } : {}) });
  if (E.isLeft(decoded)) throw new Error(decoded.left.message);
  return decoded.right;
};

prop.prop([fc.option(fc.integer({ min: NOW - 3 * OCCURRED_AT_WINDOW_MS, max: NOW + 3 * OCCURRED_AT_WINDOW_MS }), { nil: undefined })], { numRuns: 500 })(
  'a clamped occurredAt lies in [now - window, now]: kept when inside, the nearer bound when outside, absent stays absent, no other field changes',
  (at) => {
    const command = clampCommand(at);
    const clamped = clampOccurredAt(command, NOW);
    if (at === undefined) {
      expect(clamped).toBe(command);
      return;
    }
    const expected = Math.min(Math.max(at, NOW - OCCURRED_AT_WINDOW_MS), NOW);
    expect(clamped).toStrictEqual({ ...command, occurredAt: new Date(expected).toISOString() });
    if (expected === at) expect(clamped).toBe(command);
  },
);

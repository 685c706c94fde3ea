// The `record` input: occurredAt, the whole input, and that no rejection quotes a payload value in full.
import { describe, expect, test } from '@jest/globals';
import * as E from 'fp-ts/lib/Either.js';

import { OccurredAt, decodeRecordInput, type AppendCommand } from '../src/input/recordInput.js';
import type { InvalidInput } from '../src/input/validation.js';

const VALID_RECORD = {
  sessionKey: 'agent:main:subagent:child',
  kind: 'human_direct_message',
  actorType: 'human',
  summary: 'human message via telegram',
} as const;

function accepted(value: unknown): AppendCommand {
  const result = decodeRecordInput(value);
  if (E.isLeft(result)) throw new Error(`expected acceptance, got: ${result.left.message}`);
  return result.right;
}

function rejected(value: unknown): InvalidInput {
  const result = decodeRecordInput(value);
  if (E.isRight(result)) throw new Error(`expected a rejection, got: ${JSON.stringify(result.right)}`);
  return result.left;
}

const decodes = (codec: { decode: (u: unknown) => E.Either<unknown, unknown> }, u: unknown): boolean =>
  E.isRight(codec.decode(u));

describe('occurredAt', () => {
  test.each([
    ['an ISO string in UTC', '2026-11-29T10:00:00.000Z', '2026-11-29T10:00:00.000Z'],
    ['an ISO string with an offset', '2026-11-29T11:00:00+01:00', '2026-11-29T10:00:00.000Z'],
    ['epoch 0', 0, '1970-01-01T00:00:00.000Z'],
    ['epoch milliseconds', Date.UTC(2026, 10, 29, 10), '2026-11-29T10:00:00.000Z'],
  ])('accepts %s and returns ISO', (_label, input, iso) => {
    expect(OccurredAt.decode(input)).toStrictEqual(E.right(iso));
    expect(accepted({ ...VALID_RECORD, occurredAt: input }).occurredAt).toBe(iso);
  });

  test.each([
    ['a date only', '2026-11-29', '2026-11-29T00:00:00.000Z'],
    ['microseconds', '2026-11-29T10:00:00.123456Z', '2026-11-29T10:00:00.123Z'],
    ['a date-time without offset, read as UTC', '2026-11-29T10:00:00', '2026-11-29T10:00:00.000Z'],
  ])('accepts %s', (_label, input, iso) => {
    expect(OccurredAt.decode(input)).toStrictEqual(E.right(iso));
  });

  test.each([
    ['yesterday'],
    [''],
    ['1'],
    ['12'],
    ['2026'],
    ['March 7, 2026'],
    ['Sun, 29 Nov 2026 10:00:00 GMT'],
    ['1700000000000'],
    ['2026-02-30T00:00:00Z'],
    ['2026-13-01T00:00:00Z'],
    ['2026-11-29T25:00:00Z'],
    ['2026-11-29 10:00:00Z'],
    [1.5],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [9e15],
    [{}],
    [null],
    [true],
  ])(
    'rejects %p',
    (input) => {
      expect(decodes(OccurredAt, input)).toBe(false);
    },
  );

  test('is left out when not given, for the clock to fill', () => {
    expect(accepted(VALID_RECORD).occurredAt).toBeUndefined();
  });
});

describe('decodeRecordInput', () => {
  test('accepts the minimal input and defaults onlyIfWatched to false', () => {
    expect(accepted(VALID_RECORD)).toStrictEqual({ ...VALID_RECORD, onlyIfWatched: false });
  });

  test('normalises the summary of the command', () => {
    expect(accepted({ ...VALID_RECORD, summary: ' goal\nchanged ' }).summary).toBe('goal changed');
  });

  test('keeps every optional field given', () => {
    const input = {
      ...VALID_RECORD,
      actorSessionKey: 'agent:main:main',
      payload: { channel: 'telegram' },
      dedupeKey: 'turn:42',
      occurredAt: '2026-11-29T10:00:00.000Z',
      onlyIfWatched: true,
    };
    // The payload is carried as a copy with the JSON text it was validated as.
    expect(accepted(input)).toStrictEqual({ ...input, payloadJson: '{"channel":"telegram"}' });
  });

  test.each([['cancelled'], ['timeout'], ['error']])('run_failed with outcome %s is accepted and preserved', (outcome) => {
    const command = accepted({ ...VALID_RECORD, kind: 'run_failed', actorType: 'system', payload: { outcome, runId: 'r-1' } });
    expect(command.payload).toStrictEqual({ outcome, runId: 'r-1' });
  });

  test.each([
    ['without payload', undefined, 'undefined'],
    ['without outcome', { runId: 'r-1' }, 'undefined'],
    // A payload value is described, never quoted; the expectation lists the valid outcomes.
    ['with an unknown outcome', { outcome: 'crashed' }, 'got a string of 7 characters'],
    ['with a differently cased outcome', { outcome: 'Timeout' }, 'got a string of 7 characters'],
  ])('run_failed %s is rejected naming payload.outcome', (_label, payload, rendered) => {
    const error = rejected({ ...VALID_RECORD, kind: 'run_failed', ...(payload !== undefined ? { payload } : {}) });
    expect(error.field).toBe('record.payload.outcome');
    expect(error.message).toContain('record.payload.outcome');
    expect(error.message).toContain(rendered);
  });

  test('other kinds do not require an outcome', () => {
    expect(accepted({ ...VALID_RECORD, kind: 'run_completed' }).kind).toBe('run_completed');
  });

  test('an unknown field is rejected naming it', () => {
    const error = rejected({ ...VALID_RECORD, content: 'the whole message' });
    expect(error.field).toBe('record.content');
    expect(error.message).not.toContain('the whole message');
    expect(error.message).toContain('record.content');
  });

  test.each([[null], ['a string'], [[VALID_RECORD]], [undefined]])('a non-object input %p is rejected naming record', (value) => {
    expect(rejected(value).field).toBe('record');
  });

  // Each row: the input, the field the error must name, and how the value must appear: by type
  // and size, a short identifier-like string too (never quoted).
  test.each([
    ['missing sessionKey', { ...VALID_RECORD, sessionKey: undefined }, 'record.sessionKey', 'undefined'],
    ['an empty sessionKey', { ...VALID_RECORD, sessionKey: '' }, 'record.sessionKey', 'an empty string'],
    ['a sessionKey with a space', { ...VALID_RECORD, sessionKey: 'agent:main:a b' }, 'record.sessionKey', 'a string of 14 characters'],
    ['a sessionKey with a quote', { ...VALID_RECORD, sessionKey: 'agent:"x' }, 'record.sessionKey', 'a string of 8 characters'],
    ['a 513-character sessionKey', { ...VALID_RECORD, sessionKey: 'k'.repeat(513) }, 'record.sessionKey', 'a string of 513 characters'],
    ['an unknown kind', { ...VALID_RECORD, kind: 'message' }, 'record.kind', 'a string of 7 characters'],
    ['an unknown actorType', { ...VALID_RECORD, actorType: 'robot' }, 'record.actorType', 'a string of 5 characters'],
    ['a bad actorSessionKey', { ...VALID_RECORD, actorSessionKey: 'has space' }, 'record.actorSessionKey', 'a string of 9 characters'],
    ['an empty summary', { ...VALID_RECORD, summary: ' \n ' }, 'record.summary', 'a string of 3 characters'],
    ['a numeric summary', { ...VALID_RECORD, summary: 12 }, 'record.summary', '12'],
    ['an array payload', { ...VALID_RECORD, payload: [1] }, 'record.payload', 'an array of 1 item'],
    ['a NaN in the payload', { ...VALID_RECORD, payload: { n: Number.NaN } }, 'record.payload.n', 'NaN'],
    ['a nested bad payload value', { ...VALID_RECORD, payload: { a: [1, { b: 'x\u0000' }] } }, 'record.payload.a.1.b', 'a string of 2 characters'],
    ['an oversized payload', { ...VALID_RECORD, payload: { k: 'x'.repeat(5000) } }, 'record.payload', 'an object with 1 key'],
    ['an empty dedupeKey', { ...VALID_RECORD, dedupeKey: '' }, 'record.dedupeKey', 'an empty string'],
    ['a bad occurredAt', { ...VALID_RECORD, occurredAt: 'yesterday' }, 'record.occurredAt', 'a string of 9 characters'],
    ['a string onlyIfWatched', { ...VALID_RECORD, onlyIfWatched: 'yes' }, 'record.onlyIfWatched', 'a string of 3 characters'],
    // An unknown field may carry message content: it is described by type and size, never echoed.
    ['an unknown field', { ...VALID_RECORD, text: 'hi' }, 'record.text', 'a string of 2 characters'],
  ])('%s: the message names the field and the value', (_label, input, field, value) => {
    const error = rejected(input);
    expect(error._tag).toBe('InvalidInput');
    expect(error.field).toBe(field);
    expect(error.message).toContain(field);
    expect(error.message).toContain(value);
    expect(error.message).toContain(error.expected);
    expect(error.expected.length).toBeGreaterThan(0);
  });

  test('the payload rejection says why (the reserved key, the byte count)', () => {
    expect(rejected({ ...VALID_RECORD, payload: JSON.parse('{"__proto__":1}') as unknown }).message).toContain('__proto__');
    expect(rejected({ ...VALID_RECORD, payload: { k: 'x'.repeat(5000) } }).message).toContain('at most 4096 bytes of JSON');
  });

  test('a rejection never renders a whole long value', () => {
    const error = rejected({ ...VALID_RECORD, sessionKey: 'secret '.repeat(1000) });
    expect(error.message.length).toBeLessThan(300);
  });

  test('the field root can be renamed for other boundaries', () => {
    const result = decodeRecordInput({ ...VALID_RECORD, kind: 'x' }, 'input');
    expect(E.isLeft(result) && result.left.field).toBe('input.kind');
  });
});

describe('payload values never reach an error message in full', () => {
  const RUN_FAILED = { sessionKey: 'agent:main:subagent:child', kind: 'run_failed', actorType: 'system', summary: 'child run failed' };

  test('even a short mistyped run_failed outcome is described, not quoted (a payload value may be a secret token); the expectation lists the valid ones', () => {
    const decoded = decodeRecordInput({ ...RUN_FAILED, payload: { outcome: 'canceled' } });
    expect(decoded._tag === 'Left' && decoded.left.message).toContain('got a string of 8 characters');
    expect(decoded._tag === 'Left' && decoded.left.message).not.toContain('canceled');
    expect(decoded._tag === 'Left' && decoded.left.message).toContain('cancelled, timeout, error');
  });

  test('a long run_failed outcome (possibly content) is described by size only', () => {
    const content = 'the user wrote: my password is hunter2, please keep it';
    const decoded = decodeRecordInput({ ...RUN_FAILED, payload: { outcome: content } });
    expect(decoded._tag).toBe('Left');
    if (decoded._tag !== 'Left') return;
    expect(decoded.left.field).toBe('record.payload.outcome');
    expect(decoded.left.message).not.toContain('hunter2');
    expect(decoded.left.message).toContain(`a string of ${content.length} characters`);
  });

  test('an undefined payload property is rejected with a message that says how to fix it', () => {
    const decoded = decodeRecordInput({ ...RUN_FAILED, payload: { outcome: 'error', extra: undefined } });
    expect(decoded._tag === 'Left' && decoded.left.message).toContain('omit the property instead of undefined');
  });
});

describe('watchers', () => {
  test('keeps, once each and in order, the named agent-qualified watchers the event notifies; the target, the actor and other keys take no part; a named one that takes part makes onlyIfWatched false', () => {
    const named = ['agent:main:main', 'agent:ops:main', 'agent:main:main', VALID_RECORD.sessionKey, 'agent:peer:main', 'global', 'agent:main'];
    const command = accepted({ ...VALID_RECORD, actorSessionKey: 'agent:peer:main', onlyIfWatched: true, watchers: named });
    expect([command.watchers, command.onlyIfWatched]).toStrictEqual([['agent:main:main', 'agent:ops:main'], false]);
    expect(accepted({ ...VALID_RECORD, onlyIfWatched: true, watchers: ['global'] })).toStrictEqual({ ...VALID_RECORD, onlyIfWatched: true });
    // A log-only kind notifies nobody: its named watchers are dropped.
    expect(accepted({ ...VALID_RECORD, kind: 'run_completed', watchers: ['agent:main:main'] }).watchers).toBeUndefined();
  });

  test.each([
    [['agent:main:main', 'bad key'], 'record.watchers.1', 'a session key of'],
    ['agent:main:main', 'record.watchers', 'an array of at most 16 session keys'],
    [Array.from({ length: 17 }, (_, i) => `agent:w${i}:main`), 'record.watchers', 'an array of at most 16 session keys'],
  ])('%j is rejected naming %s', (watchers, field, expected) => {
    const error = rejected({ ...VALID_RECORD, watchers });
    expect([error.field, error.expected.startsWith(expected)]).toStrictEqual([field, true]);
    expect(error.message).not.toContain('bad key');
  });

  test('16 watchers are accepted', () => {
    expect(accepted({ ...VALID_RECORD, watchers: Array.from({ length: 16 }, (_, i) => `agent:w${i}:main`) }).watchers).toHaveLength(16);
  });
});

// The input codecs: session keys and their shapes, summaries, payloads, occurredAt and the
// whole `record` input, including that every rejection names the field and the value.
import { describe, expect, test } from '@jest/globals';
import { fc, test as prop } from '@fast-check/jest';
import * as E from 'fp-ts/lib/Either.js';

import { PayloadInput as Payload, PAYLOAD_MAX_BYTES, takePayload } from '../src/input/payload.js';
import { OccurredAt, decodeRecordInput, type AppendCommand } from '../src/input/recordInput.js';
import {
  SessionKeyInput,
  isAgentQualified,
  isMainSession,
  isNestedSubagent,
  parseAgentKey,
} from '../src/input/sessionKey.js';
import { Summary, normaliseSummary, SUMMARY_MAX_LENGTH } from '../src/input/summary.js';
import type { InvalidInput } from '../src/input/validation.js';

// --- helpers -------------------------------------------------------------------------------

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

// --- session keys --------------------------------------------------------------------------

describe('session keys', () => {
  test.each([
    'agent:main:main',
    'agent:main:subagent:child-7',
    'agent:ops:telegram:group:42',
    'global',
    'x',
    'k'.repeat(512),
  ])('accepts %s', (key) => {
    expect(SessionKeyInput.decode(key)).toStrictEqual(E.right(key));
  });

  test.each([
    ['empty', ''],
    ['513 characters', 'k'.repeat(513)],
    ['a space', 'agent:main:my session'],
    ['a tab', 'agent:main:\tmain'],
    ['a line break', 'agent:main:main\n'],
    ['a no-break space', 'agent:main:\u00a0main'],
    ['a line separator', 'agent:main:\u2028main'],
    ['a NUL', 'agent:main:\u0000'],
    ['a DEL', 'agent:main:\u007fmain'],
    ['a C1 control', 'agent:main:\u0085main'],
    ['a double quote', 'agent:main:"main"'],
  ])('rejects a key with %s', (_label, key) => {
    expect(decodes(SessionKeyInput, key)).toBe(false);
  });

  test.each([42, null, undefined, ['agent:main:main'], { key: 'global' }])('rejects the non-string %p', (value) => {
    expect(decodes(SessionKeyInput, value)).toBe(false);
  });
});

describe('session key shapes', () => {
  // key, agent-qualified, main, nested sub-agent
  test.each([
    ['agent:main:main', true, true, false],
    ['agent:ops:main', true, true, false],
    ['agent:main:subagent:child-7', true, false, true],
    ['agent:main:subagent:child-7:subagent:grandchild', true, false, true],
    ['agent:main:cron:subagent:x', true, false, true],
    ['agent:main:subagents:x', true, false, false],
    ['agent:subagent:main', true, true, false],
    ['agent:ops:telegram:group:42', true, false, false],
    ['agent:main:main:thread', true, false, false],
    ['agent:a:b', true, false, false],
    ['agent::x', false, false, false],
    ['agent:a:', false, false, false],
    ['agent:a', false, false, false],
    ['agent:', false, false, false],
    ['agent', false, false, false],
    ['global', false, false, false],
    ['Agent:main:main', false, false, false],
    ['x:agent:main:main', false, false, false],
  ])('%s: agent-qualified %p, main %p, nested sub-agent %p', (key, qualified, main, nested) => {
    expect(isAgentQualified(key)).toBe(qualified);
    expect(isMainSession(key)).toBe(main);
    expect(isNestedSubagent(key)).toBe(nested);
  });

  test('parseAgentKey splits at the first colon after the prefix', () => {
    expect(parseAgentKey('agent:ops:telegram:group:42')).toStrictEqual({ agentId: 'ops', rest: 'telegram:group:42' });
  });
});

// --- summaries -----------------------------------------------------------------------------

describe('summary normalisation', () => {
  test.each([
    ['a run of control characters becomes one space', 'line one\r\n\t\u0000line two', 'line one line two'],
    ['each separate run becomes its own space', 'a\nb\tc', 'a b c'],
    ['Unicode line and paragraph separators count as line breaks', 'a\u2028\u2029b', 'a b'],
    ['C1 controls count as control characters', 'a\u0085\u009fb', 'a b'],
    ['the result is trimmed', '  \n padded \t ', 'padded'],
    ['inner spaces are kept as they are', 'two  spaces', 'two  spaces'],
  ])('%s', (_label, raw, expected) => {
    expect(normaliseSummary(raw)).toBe(expected);
    expect(Summary.decode(raw)).toStrictEqual(E.right(expected));
  });

  test('a summary of exactly 200 characters is kept whole', () => {
    const raw = 'x'.repeat(SUMMARY_MAX_LENGTH);
    expect(normaliseSummary(raw)).toBe(raw);
  });

  test('a longer summary is cut to 199 characters and an ellipsis', () => {
    const raw = `${'a'.repeat(150)}${'b'.repeat(100)}`;
    const cut = normaliseSummary(raw);
    expect(cut).toBe(`${'a'.repeat(150)}${'b'.repeat(49)}…`);
    expect(Array.from(cut)).toHaveLength(200);
  });

  test('the cap counts code points, so astral characters are never split', () => {
    const raw = '😀'.repeat(250);
    const cut = normaliseSummary(raw);
    expect(cut).toBe(`${'😀'.repeat(199)}…`);
    expect(Array.from(cut)).toHaveLength(200);
  });

  test('the cut keeps exactly 199 characters even when the 199th is a space', () => {
    const raw = `${'a'.repeat(198)} ${'b'.repeat(10)}`;
    expect(normaliseSummary(raw)).toBe(`${'a'.repeat(198)} …`);
  });

  prop.prop([fc.string({ unit: 'binary', maxLength: 400 })])(
    'a normalised summary has at most 200 code points, no control characters, and normalises to itself',
    (raw) => {
      const line = normaliseSummary(raw);
      expect(Array.from(line).length).toBeLessThanOrEqual(SUMMARY_MAX_LENGTH);
      expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u);
      expect(normaliseSummary(line)).toBe(line);
    },
  );

  test('200 astral characters (400 UTF-16 units) are not cut', () => {
    const raw = '😀'.repeat(200);
    expect(normaliseSummary(raw)).toBe(raw);
  });

  test('normalisation happens before the cap: a long control run counts as one space', () => {
    const raw = `${'a'.repeat(100)}${'\n'.repeat(500)}${'b'.repeat(99)}`;
    expect(normaliseSummary(raw)).toBe(`${'a'.repeat(100)} ${'b'.repeat(99)}`);
  });

  test.each([[''], ['   '], ['\n\t\r'], ['\u0000\u0001 \u2028']])('an empty result is rejected (%p)', (raw) => {
    expect(decodes(Summary, raw)).toBe(false);
  });

  test('a non-string summary is rejected', () => {
    expect(decodes(Summary, 7)).toBe(false);
  });
});

// --- payloads ------------------------------------------------------------------------------

describe('payload', () => {
  // `{"k":"…"}` is 8 bytes around the value.
  const payloadOfBytes = (total: number, char = 'x', charBytes = 1): Record<string, string> => ({
    k: char.repeat((total - 8) / charBytes),
  });

  test('a payload of exactly 4 KiB serialised is accepted', () => {
    const payload = payloadOfBytes(PAYLOAD_MAX_BYTES);
    expect(Buffer.byteLength(JSON.stringify(payload))).toBe(4096);
    expect(decodes(Payload, payload)).toBe(true);
  });

  test('one byte more is rejected', () => {
    const payload = payloadOfBytes(PAYLOAD_MAX_BYTES + 1);
    expect(Buffer.byteLength(JSON.stringify(payload))).toBe(4097);
    expect(decodes(Payload, payload)).toBe(false);
  });

  // The walk counts the JSON text's bytes without building it: for any JSON object, padded to
  // exactly the cap it is taken (its text JSON.stringify's), and one byte more is refused.
  prop.prop([fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 })])(
    'any JSON object is taken at exactly 4 KiB of JSON text, with JSON.stringify\'s text, and refused at one byte more',
    (value) => {
      const padded = (bytes: number): Record<string, unknown> => ({ ...value, '~pad': 'x'.repeat(bytes) });
      const text = JSON.stringify(padded(0));
      fc.pre(!/\\u0000|"(__proto__|constructor|prototype)":/.test(text));
      const room = PAYLOAD_MAX_BYTES - Buffer.byteLength(text);
      fc.pre(room >= 0);
      const exact = padded(room);
      const taken = takePayload(exact);
      expect(taken.ok && taken.payload.json).toBe(JSON.stringify(exact));
      expect(Buffer.byteLength(JSON.stringify(exact))).toBe(PAYLOAD_MAX_BYTES);
      expect(takePayload(padded(room + 1)).ok).toBe(false);
    },
  );

  test('the limit counts UTF-8 bytes, not characters', () => {
    const fits = payloadOfBytes(4096, 'é', 2);
    const tooBig = payloadOfBytes(4098, 'é', 2);
    expect(Buffer.byteLength(JSON.stringify(fits))).toBe(4096);
    expect(decodes(Payload, fits)).toBe(true);
    expect(JSON.stringify(tooBig).length).toBeLessThan(4096);
    expect(decodes(Payload, tooBig)).toBe(false);
    const astral = { k: '😀'.repeat(1022) }; // 8 + 4088 bytes
    expect(Buffer.byteLength(JSON.stringify(astral))).toBe(4096);
    expect(decodes(Payload, astral)).toBe(true);
    expect(decodes(Payload, { k: '😀'.repeat(1023) })).toBe(false);
  });

  test.each([
    ['a nested object and array', { channel: 'telegram', ids: [1, 2, { x: null }], ok: true }],
    ['an object without prototype', Object.assign(Object.create(null) as object, { a: 1 })],
    ['an empty object', {}],
  ])('accepts %s', (_label, payload) => {
    expect(decodes(Payload, payload)).toBe(true);
  });

  class Channel {
    readonly name = 'telegram';
  }

  test.each([
    ['an array', [1, 2]],
    ['a string', 'telegram'],
    ['null', null],
    ['a Date', new Date(0)],
    ['a Map', new Map([['a', 1]])],
    ['a class instance', new Channel()],
    ['a nested class instance', { channel: new Channel() }],
    ['a nested Date', { at: new Date(0) }],
    ['a function value', { f: () => 1 }],
    ['NaN', { n: Number.NaN }],
    ['Infinity', { n: Number.POSITIVE_INFINITY }],
    ['NaN inside an array', { list: [1, Number.NaN] }],
    ['a bigint', { n: 1n }],
    ['a __proto__ key', JSON.parse('{"__proto__": {"polluted": true}}') as unknown],
    ['a nested __proto__ key', JSON.parse('{"a": {"__proto__": 1}}') as unknown],
  ])('rejects %s', (_label, payload) => {
    expect(decodes(Payload, payload)).toBe(false);
  });

  test('rejects a cyclic object instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(decodes(Payload, cyclic)).toBe(false);
  });
});

// --- occurredAt ----------------------------------------------------------------------------

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

// --- the record input ----------------------------------------------------------------------

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

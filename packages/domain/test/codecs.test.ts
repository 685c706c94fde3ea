// The input codecs: session keys and their shapes, summaries and payloads.
import { describe, expect, test } from '@jest/globals';
import { fc, test as prop } from '@fast-check/jest';
import * as E from 'fp-ts/lib/Either.js';

import { PayloadInput as Payload, PAYLOAD_MAX_BYTES } from '../src/input/payload.js';
import {
  SessionKeyInput,
  isAgentQualified,
  isNestedSubagent,
  parseAgentKey,
} from '../src/input/sessionKey.js';
import { Summary, normaliseSummary, SUMMARY_MAX_LENGTH } from '../src/input/summary.js';

const decodes = (codec: { decode: (u: unknown) => E.Either<unknown, unknown> }, u: unknown): boolean =>
  E.isRight(codec.decode(u));

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
    expect(parseAgentKey(key)?.rest === 'main').toBe(main);
    expect(isNestedSubagent(key)).toBe(nested);
  });

  test('parseAgentKey splits at the first colon after the prefix', () => {
    expect(parseAgentKey('agent:ops:telegram:group:42')).toStrictEqual({ agentId: 'ops', rest: 'telegram:group:42' });
  });
});

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

  // The walk writes the JSON text itself and counts its bytes: for any JSON object, padded to
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
      const taken = Payload.decode(exact);
      expect(E.isRight(taken) && taken.right.json).toBe(JSON.stringify(exact));
      expect(Buffer.byteLength(JSON.stringify(exact))).toBe(PAYLOAD_MAX_BYTES);
      expect(decodes(Payload, padded(room + 1))).toBe(false);
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

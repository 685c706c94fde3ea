// The stale-state notice text, compared byte-for-byte with the line SPEC §5 gives.
import { describe, expect, test } from '@jest/globals';

import { fc, test as propTest } from '@fast-check/jest';

import { NOTICE_TEXT_RECENT_SLOTS, noticeText, noticeTextMemo, noticeTextPerTarget, noticeTextRecent } from '../src/notice.js';
import { asSequence } from '../src/log/sequence.js';

/** UTF-8 bytes of a string, so the comparison is literally byte-for-byte. */
const bytes = (text: string): number[] => Array.from(Buffer.from(text, 'utf8'));

describe('noticeText', () => {
  test('is exactly the spec line for a sub-agent target at acked 14', () => {
    const expected =
      'Session "agent:main:subagent:child" changed (other actor). Reconcile before acting: session_status sessionKey "agent:main:subagent:child" changesSince 14.';
    expect(bytes(noticeText('agent:main:subagent:child', asSequence(14)))).toStrictEqual(bytes(expected));
  });

  test('prints acked 0 for a cursor seeded on an empty session', () => {
    expect(noticeText('agent:ops:telegram:group:42', asSequence(0))).toBe(
      'Session "agent:ops:telegram:group:42" changed (other actor). Reconcile before acting: session_status sessionKey "agent:ops:telegram:group:42" changesSince 0.',
    );
  });

  test('prints a large acked in plain decimal, never in exponent form', () => {
    expect(noticeText('agent:a:main', asSequence(Number.MAX_SAFE_INTEGER))).toBe(
      'Session "agent:a:main" changed (other actor). Reconcile before acting: session_status sessionKey "agent:a:main" changesSince 9007199254740991.',
    );
  });

  test('is one line: no line break, no trailing whitespace', () => {
    const text = noticeText('agent:main:main', asSequence(3));
    expect(text).not.toMatch(/[\r\n]/);
    expect(text).toBe(text.trim());
  });

  test('differs only in N when acked changes (distinct notices per acknowledgement)', () => {
    const a = noticeText('agent:main:main', asSequence(3));
    const b = noticeText('agent:main:main', asSequence(4));
    expect(a).not.toBe(b);
    expect(a.replace(/changesSince 3\.$/, 'changesSince 4.')).toBe(b);
  });
});

describe('noticeTextMemo', () => {
  propTest.prop([fc.array(fc.tuple(fc.constantFrom('agent:a:main', 'agent:b:main'), fc.nat(3)), { maxLength: 30 })])(
    'gives exactly noticeText(target, acked) for any sequence of calls',
    (calls) => {
      const textOf = noticeTextMemo();
      for (const [target, acked] of calls) expect(textOf(target, asSequence(acked))).toBe(noticeText(target, asSequence(acked)));
    },
  );
});

describe('noticeTextPerTarget', () => {
  // Several targets interleaved, each seen again at the same and at another acked: the memo's hits and misses.
  propTest.prop([fc.array(fc.tuple(fc.constantFrom('agent:a:main', 'agent:b:main', 'agent:c:main'), fc.nat(2)), { maxLength: 40 })])(
    'gives exactly noticeText(target, acked) for any sequence of calls',
    (calls) => {
      const textOf = noticeTextPerTarget();
      for (const [target, acked] of calls) expect(textOf(target, asSequence(acked))).toBe(noticeText(target, asSequence(acked)));
    },
  );
});

describe('noticeTextRecent', () => {
  // More targets than the memo keeps, each at a few ackeds: hits, misses and evictions.
  const targets = Array.from({ length: NOTICE_TEXT_RECENT_SLOTS + 4 }, (_, i) => `agent:t${i}:main`);
  propTest.prop([fc.array(fc.tuple(fc.constantFrom(...targets), fc.nat(2)), { maxLength: 120 })])(
    'gives exactly noticeText(target, acked) for any sequence of calls',
    (calls) => {
      const textOf = noticeTextRecent();
      for (const [target, acked] of calls) expect(textOf(target, asSequence(acked))).toBe(noticeText(target, asSequence(acked)));
    },
  );
});

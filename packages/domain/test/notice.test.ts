// The stale-state notice text, compared byte-for-byte with the line SPEC §5 gives.
import { describe, expect, test } from '@jest/globals';

import { noticeText } from '../src/notice.js';
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

describe('noticeText with a link', () => {
  test('puts "Open: [session](<link>)" between the change and the reconcile instruction, and is the default text without one', () => {
    expect(noticeText('agent:a:main', asSequence(3), '/chat/agent%3Aa%3Amain')).toBe(
      'Session "agent:a:main" changed (other actor). Open: [session](</chat/agent%3Aa%3Amain>) Reconcile before acting: session_status sessionKey "agent:a:main" changesSince 3.',
    );
    expect(noticeText('agent:a:main', asSequence(3), undefined)).toBe(noticeText('agent:a:main', asSequence(3)));
  });
});

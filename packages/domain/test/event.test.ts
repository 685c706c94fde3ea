// toRecordedEvent: the event `record` returns, with the public fields in the public key order.
import { describe, expect, test } from '@jest/globals';

import { toRecordedEvent, type StoredEvent } from '../src/log/event.js';
import { asSequence } from '../src/log/sequence.js';
import type { SessionKey } from '../src/input/sessionKey.js';
import type { Summary } from '../src/input/summary.js';

const stored: StoredEvent = {
  sessionKey: 'agent:main:subagent:child' as SessionKey,
  sequence: asSequence(7),
  kind: 'goal_changed',
  actorType: 'agent',
  summary: 'a change' as Summary,
  occurredAt: '2026-11-29T10:00:00.000Z',
  appendedAt: 1_000,
};

describe('toRecordedEvent', () => {
  test('without an actor or payload: sessionKey, then the SessionEvent fields, in order', () => {
    const recorded = toRecordedEvent(stored);
    expect(Object.keys(recorded)).toStrictEqual(['sessionKey', 'sequence', 'kind', 'actorType', 'summary', 'occurredAt']);
    expect(recorded).toStrictEqual({ sessionKey: stored.sessionKey, sequence: 7, kind: 'goal_changed', actorType: 'agent', summary: 'a change', occurredAt: stored.occurredAt });
  });

  test('with an actor and a payload (and a dedupe key, which is not shown): each in its place', () => {
    const payload = { channel: 'telegram' };
    const recorded = toRecordedEvent({ ...stored, actorSessionKey: 'agent:main:main' as SessionKey, payload, dedupeKey: 'k' as StoredEvent['dedupeKey'] });
    expect(Object.keys(recorded)).toStrictEqual(['sessionKey', 'sequence', 'kind', 'actorType', 'actorSessionKey', 'summary', 'occurredAt', 'payload']);
    expect(recorded.actorSessionKey).toBe('agent:main:main');
    expect(recorded.payload).toBe(payload);
  });
});

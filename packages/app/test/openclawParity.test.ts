// OpenClaw parity through the facade on the memory and SQLite stores (the scenarios:
// support/parityScenarios.ts), and the watched-sessions paragraph, which reads no store.
import { storeMatrix } from '@session-state/testkit';

import { renderWatchedSessions, type WatchedSession } from '../src/index.js';
import { CHILD, PEER } from './support/harness.js';
import { describeParity } from './support/parityScenarios.js';

describeParity(storeMatrix);

describe('renderWatchedSessions', () => {
  const row = (sessionKey: string, stateVersion = 3, pending = false): WatchedSession => ({ sessionKey, stateVersion, pending });

  test('names the watched sessions in the order given, with how to read them; empty when none', () => {
    expect(renderWatchedSessions([])).toBe('');
    expect(renderWatchedSessions([row(CHILD), row(PEER)])).toBe(
      `Sessions you watch: "${CHILD}", "${PEER}". When another actor changes one, you get one notice; you can read any of them with session_status (sessionKey, changesSince), and should before you act on what you know of it.`,
    );
  });

  test('the text is byte-stable while the watched set is: versions and pending marks do not change it', () => {
    expect(renderWatchedSessions([row(CHILD, 9, true), row(PEER, 40, true)])).toBe(renderWatchedSessions([row(CHILD), row(PEER)]));
    expect(renderWatchedSessions([row(CHILD)])).not.toBe(renderWatchedSessions([row(CHILD), row(PEER)]));
  });

  test('names at most 20 sessions and counts the rest', () => {
    const rows = Array.from({ length: 25 }, (_, i) => row(`agent:main:subagent:c${String(i).padStart(2, '0')}`));
    const text = renderWatchedSessions(rows);
    expect(text.match(/"agent:main:subagent:c\d\d"/gu)).toEqual(rows.slice(0, 20).map((r) => `"${r.sessionKey}"`));
    expect(text).toContain('"agent:main:subagent:c19" and 5 more.');
  });
});

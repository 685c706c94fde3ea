// Part of the StateStore contract: every text a store keeps (summary, payload, keys) comes back
// exactly, whatever the code points, or is refused alike by every store. A NUL is the hazard:
// PostgreSQL cannot store one and node:sqlite of some Node releases cut text at it on read.
import { expect } from 'expect';

import { decodeRecordInput, type AppendCommand, type SessionKey, type StateStore } from '@session-state/domain';

import type { StoreHarness } from '../stores.js';
import type { TestRunner } from './testRunner.js';

const T0 = 1_700_000_000_000;
const A = 'agent:a:main' as SessionKey;

function decoded(input: Record<string, unknown>): AppendCommand {
  const result = decodeRecordInput({ kind: 'human_direct_message', actorType: 'human', summary: 'a change', sessionKey: A, ...input });
  if (result._tag === 'Left') throw new Error(`test fixture: ${result.left.message}`);
  return result.right;
}

// Odd but well-formed text: the last BMP non-character, an astral pair, a combining mark, the
// largest code point, and a long run of them.
const ODD = 'U+FFFF \uFFFF emoji \u{1F600}\u{1F469}\u200D\u{1F4BB} e\u0301 \u{10FFFF} \u2028';
const LONG = `${ODD} ${'x\u{1F600}\uFFFF'.repeat(25_000)}`; // about 100,000 UTF-16 units

/** Registers the tests inside describeStateStoreContract's describe; `harness()` is the current test's harness. */
export function describeTextRoundTrip(harness: () => StoreHarness, { describe, test }: TestRunner): void {
  describe('text round-trips exactly on every driver, or is refused alike', () => {
    async function readBack(store: StateStore) {
      return (await store.readChanges(A, 0 as never, 10)).events;
    }

    test('odd code points and a 100,000-unit summary, in summary, payload and dedupe key, come back exactly after a reopen', async () => {
      const payload = { odd: ODD, nul: 'escaped \\u0000 stays text', nested: [ODD] };
      const commands = [decoded({ summary: ODD, payload, dedupeKey: `dedupe:${ODD.replace(/[\s\u2028]/gu, '_')}` })];
      // Past decodeRecordInput (which bounds a summary), as a direct caller of the port may pass it.
      commands.push({ ...decoded({}), summary: LONG } as AppendCommand);
      const outcomes = await harness().store.append(commands.map((command) => ({ command, appendedAt: T0 })));
      expect(outcomes.map((o) => o.type)).toEqual(['appended', 'appended']);
      const events = await readBack(await harness().reopen());
      expect(events.map((e) => e.summary)).toEqual([commands[0]?.summary, LONG]);
      expect(events[0]?.payload).toEqual(payload);
      expect(JSON.stringify(events[0]?.payload)).toBe(commands[0]?.payloadJson);
      expect(events[0]?.dedupeKey).toBe(commands[0]?.dedupeKey);
    });

    test('a NUL is refused alike: decodeRecordInput turns one in a summary into a space and refuses one in a payload or dedupe key; the port refuses a raw one', async () => {
      expect(decoded({ summary: 'a\u0000b' }).summary).toBe('a b');
      expect(decodeRecordInput({ kind: 'human_direct_message', actorType: 'human', summary: 's', sessionKey: A, payload: { v: 'a\u0000b' } })._tag).toBe('Left');
      expect(decodeRecordInput({ kind: 'human_direct_message', actorType: 'human', summary: 's', sessionKey: A, dedupeKey: 'a\u0000b' })._tag).toBe('Left');
      const store = harness().store;
      const base = decoded({ payload: { v: 1 } });
      const outcomes = await store.append([
        { command: { ...base, summary: 'before\u0000after' } as AppendCommand, appendedAt: T0 },
        { command: { ...base, payloadJson: '{"v":"a\u0000b"}' } as AppendCommand, appendedAt: T0 },
      ]);
      expect(outcomes.map((o) => o.type)).toEqual(['failed', 'failed']);
      expect(await readBack(store)).toEqual([]);
      expect(await store.readHeads([A])).toEqual([]);
    });
  });
}

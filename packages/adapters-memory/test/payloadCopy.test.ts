// The memory store keeps its own copy of every payload, and that copy is exactly what a JSON
// round trip gives (the SQLite store stores JSON text), whichever way it was made.
import { fc, test as prop } from '@fast-check/jest';
import { asSequence, type AppendCommand, type Payload, type SessionKey, type StateStore } from '@session-state/domain';

import { createMemoryStore } from '../src/index.js';

const KEY = 'agent:main:subagent:c1' as SessionKey;

function command(payload: Payload): AppendCommand {
  // A hand-built command (past the domain's validation): the store still keeps its own copy.
  return { sessionKey: KEY, kind: 'compacted', actorType: 'system', summary: 'compacted' as AppendCommand['summary'], onlyIfWatched: false, payload, payloadJson: JSON.stringify(payload) };
}

async function storedPayload(store: StateStore, payload: Payload): Promise<unknown> {
  const [outcome] = await store.append([{ command: command(payload), appendedAt: 1_000 }]);
  if (outcome?.type !== 'appended') throw new Error(`expected appended, got ${JSON.stringify(outcome)}`);
  const page = await store.readChanges(KEY, asSequence(outcome.event.sequence - 1), 1);
  return page.events[0]?.payload;
}

const primitive = fc.oneof(fc.string({ maxLength: 8 }), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom(-0, 0, Number.NaN, Number.POSITIVE_INFINITY));
const value = fc.oneof({ weight: 4, arbitrary: primitive }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
const payloads = fc.oneof(
  fc.dictionary(fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom('0', '10', '2', '__proto__', 'constructor')), value, { maxKeys: 6, noNullPrototype: true }),
  fc.constantFrom({ when: new Date(0) }, { nested: { a: [1, { b: -0 }] } }),
);

prop.prop([payloads])('the stored payload equals the JSON round trip of the given one (key order, -0, NaN, nesting)', async (payload) => {
  const store = createMemoryStore();
  const stored = await storedPayload(store, payload as Payload);
  const roundTrip: unknown = JSON.parse(JSON.stringify(payload));
  // toEqual compares primitives with Object.is (so -0 and 0 differ); toStrictEqual would trip on an own "constructor" key.
  expect(stored).toEqual(roundTrip);
  expect(Object.keys(stored as object)).toEqual(Object.keys(roundTrip as object));
  expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
});

test('mutating the payload after the append changes nothing stored', async () => {
  const store = createMemoryStore();
  const payload = { channel: 'telegram', n: 1 };
  const [outcome] = await store.append([{ command: command(payload), appendedAt: 1_000 }]);
  payload.channel = 'changed';
  payload.n = 2;
  const page = await store.readChanges(KEY, asSequence(0), 10);
  expect(page.events[0]?.payload).toEqual({ channel: 'telegram', n: 1 });
  expect(outcome?.type === 'appended' ? outcome.event.payload : undefined).toEqual({ channel: 'telegram', n: 1 });
});

test('a flat payload keeps its key order and loses negative zero, like JSON text', async () => {
  const stored = await storedPayload(createMemoryStore(), { b: -0, 10: 'ten', a: true, 2: null } as Payload);
  expect(Object.keys(stored as object)).toEqual(['2', '10', 'b', 'a']);
  expect(Object.is((stored as { b: number }).b, 0)).toBe(true);
});

test('a payload handed out by a result or a read cannot change the log: it is a frozen copy', async () => {
  const store = createMemoryStore();
  const given = { channel: 'telegram', nested: { n: 1 } };
  const [outcome] = await store.append([{ command: command(given), appendedAt: 1_000 }]);
  if (outcome?.type !== 'appended') throw new Error('expected appended');
  given.channel = 'changed by the caller';

  const handedOut = outcome.event.payload as { channel: string; nested: { n: number } };
  expect(() => {
    handedOut.channel = 'changed through the result';
  }).toThrow(TypeError);
  expect(() => {
    handedOut.nested.n = 2;
  }).toThrow(TypeError);
  expect(await storedPayload(store, { probe: true })).toEqual({ probe: true });
  const page = await store.readChanges(KEY, asSequence(0), 1);
  expect(page.events[0]?.payload).toEqual({ channel: 'telegram', nested: { n: 1 } });
});

// The logger port takes pino as it is, with no adapter: `logger: pino()` compiles (tsc -b checks
// this file), and what the facade logs reaches pino's line with its fields and its message.
import { Writable } from 'node:stream';

import { createMemoryStore } from '@session-state/adapters-memory';
import pino from 'pino';

import { createSessionStateAwareness } from '../src/index.js';

test('logger: pino() fits the port as it is, and a rejected record logs one pino line holding its fields and its message', async () => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const awareness = await createSessionStateAwareness({ store: createMemoryStore(), logger: pino(destination) });
  const result = await awareness.record({ sessionKey: 'not a key', kind: 'goal_changed', actorType: 'human', summary: 'goal edited' });
  await awareness.close();

  expect(result.ok).toBe(false);
  expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
    expect.objectContaining({ level: 40, msg: 'record rejected invalid input', operation: 'record', field: 'record.sessionKey' }),
  ]);
});

// On PostgreSQL the inspector hears of another gateway's append through the store's LISTEN
// signals: with the fallback re-read pushed out of the test's reach, an append that asks for a
// notice, made through a second store, still reaches the event stream as a new overview.
import { openPostgresStore } from '@session-state/adapters-postgres';
import type { StateStore } from '@session-state/domain';
import { dropSchema, pgUrl, uniqueSchema } from '@session-state/testkit';

import { storeSignalChanges } from '../../src/changes.js';
import { startInspector, type RunningInspector } from '../../src/startInspector.js';
import { awarenessOn, MANAGER, RESEARCHER, writeScene } from '../support/scene.js';
import { openEventStream } from '../support/serverRig.js';

/** Far beyond the test's timeout: only a signal can bring the update. */
const NO_FALLBACK_MS = 3_600_000;

const schema = uniqueSchema('inspector');
let reader: StateStore;
let inspector: RunningInspector;

beforeAll(async () => {
  const writer = await openPostgresStore({ connectionString: pgUrl(), schema });
  await (await writeScene(writer)).close();
  reader = await openPostgresStore({ connectionString: pgUrl(), schema });
  inspector = await startInspector({ store: reader, changes: storeSignalChanges(reader, NO_FALLBACK_MS), label: schema, port: 0 });
});

afterAll(async () => {
  await inspector.close();
  await reader.close();
  await dropSchema(schema);
});

test("another gateway's append that asks for a notice reaches the event stream through LISTEN", async () => {
  const stream = await openEventStream(inspector.url);
  try {
    const first = await stream.next();
    const writer = await openPostgresStore({ connectionString: pgUrl(), schema });
    const awareness = await awarenessOn(writer);
    let sequence: number;
    try {
      // The manager drains first (its pair goes idle), so the next human message raises a notice.
      await awareness.drain(MANAGER);
      const recorded = await awareness.record({ sessionKey: RESEARCHER, kind: 'human_direct_message', actorType: 'human', summary: 'from another gateway' });
      sequence = 'event' in recorded ? recorded.event.sequence : -1;
    } finally {
      await awareness.close();
    }
    let update = await stream.next();
    while (update.overview.counts.highestHead < sequence) update = await stream.next();
    expect(update.version).toBeGreaterThan(first.version);
    expect(update.overview.graph.sessions.find((node) => node.id === RESEARCHER)?.head).toBe(sequence);
  } finally {
    stream.close();
  }
});

// The live overview pushes a new version only when what the store holds changed: a change
// source that fires without a commit (a checkpoint, a fallback timer) pushes nothing.
import { createMemoryStore } from '@session-state/adapters-memory';

import { startLiveOverview, type OverviewUpdate } from '../src/liveOverview.js';
import { RESEARCHER, writeScene } from './support/scene.js';
import { manualChanges } from './support/serverRig.js';

test('a change signal without a change in the store pushes no update; one commit pushes exactly one', async () => {
  const store = createMemoryStore();
  const awareness = await writeScene(store);
  const changes = manualChanges();
  const live = await startLiveOverview(store, changes.source);
  const pushed: OverviewUpdate[] = [];
  live.subscribe((frame) => pushed.push(frame.update));
  try {
    for (let i = 0; i < 3; i += 1) {
      changes.fire();
      await live.refresh();
    }
    expect(pushed).toEqual([]);
    expect((await live.current()).update.version).toBe(1);

    const recorded = await awareness.record({ sessionKey: RESEARCHER, kind: 'compacted', actorType: 'system', summary: 'compacted' });
    changes.fire();
    changes.fire();
    await live.refresh();
    expect(pushed.map((update) => update.version)).toEqual([2]);
    expect(pushed[0]?.overview.counts.highestHead).toBe('event' in recorded ? recorded.event.sequence : -1);
  } finally {
    await live.close();
    await awareness.close();
  }
});

test('each start is a new run: versions restart from 1 under a different run id', async () => {
  const store = createMemoryStore();
  const awareness = await writeScene(store);
  const runs: string[] = [];
  try {
    for (let i = 0; i < 2; i += 1) {
      const live = await startLiveOverview(store, manualChanges().source);
      const { update, data } = await live.current();
      expect(update.version).toBe(1);
      expect(JSON.parse(data)).toEqual(update);
      runs.push(update.run);
      await live.close();
    }
    expect(new Set(runs).size).toBe(2);
  } finally {
    await awareness.close();
  }
});

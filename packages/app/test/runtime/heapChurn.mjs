// The runtime regression scenario: a gateway that records while its heap churns, then closes.
// better-sqlite3 12 aborted the process here on Node 24 (a statement finalised by the garbage
// collector after its environment's cleanup hooks were gone). Run by heapChurn.test.ts on the
// Node that runs the suite; exits 0 and prints "ok <records>" when the process survived.
//   node heapChurn.mjs <state file>
import { createSessionStateAwareness } from '@session-state/app';
import { openSqliteStore } from '@session-state/adapters-sqlite';

const awareness = await createSessionStateAwareness({ store: openSqliteStore({ path: process.argv[2] }), wake: () => {} });
await awareness.childSpawned({ parentKey: 'agent:main:main', childKey: 'agent:main:subagent:churn' });
let records = 0;
let keep = [];
for (let round = 0; round < 200; round += 1) {
  keep = Array.from({ length: 20_000 }, (_, i) => ({ round, i, text: `object ${i}` }));
  if (round % 20 === 0) {
    const result = await awareness.record({ sessionKey: 'agent:main:subagent:churn', kind: 'human_direct_message', actorType: 'human', summary: `round ${round}` });
    if (result.ok) records += 1;
  }
}
await awareness.close();
console.log(`ok ${records} ${keep.length}`);

// A small store for the inspector's tests, written through the real facade: a manager that
// spawned a nested sub-agent, another agent watching it by an explicit watch, a human message
// that leaves both pairs pending, and two keys outside the watch graph's agent boxes.
import { createManualClock } from '@session-state/adapters-memory';
import { createSessionStateAwareness, type SessionStateAwareness } from '@session-state/app';
import type { Logger, StateStore } from '@session-state/domain';

export const MANAGER = 'agent:main:main';
export const RESEARCHER = 'agent:main:subagent:researcher';
export const OPS = 'agent:ops:main';
/** A valid key that is not agent-qualified, spelled like an agent box would be. */
export const BARE_AGENT = 'agent:main';
export const GLOBAL = 'global';

const quietLogger: Logger = { warn: () => undefined, error: () => undefined };

/** The facade over `store` with a manual clock and a quiet logger. */
export async function awarenessOn(store: StateStore): Promise<SessionStateAwareness> {
  return createSessionStateAwareness({ store, clock: createManualClock(Date.UTC(2026, 10, 1)), logger: quietLogger });
}

/**
 * Writes the scene: spawn (manager → researcher), an explicit watch (ops → researcher), a goal
 * change and a human message on the researcher (both pairs pending), and one event each on
 * `global` and `agent:main`. Returns the facade (open; the caller closes it).
 */
export async function writeScene(store: StateStore): Promise<SessionStateAwareness> {
  const awareness = await awarenessOn(store);
  const spawned = await awareness.childSpawned({ parentKey: MANAGER, childKey: RESEARCHER });
  if (!spawned.ok) throw new Error('the scene could not spawn');
  await awareness.sent({ senderKey: OPS, deliveredTo: RESEARCHER, watch: true });
  for (const input of [
    { sessionKey: RESEARCHER, kind: 'goal_changed', actorType: 'human', summary: 'goal set' },
    { sessionKey: RESEARCHER, kind: 'run_completed', actorType: 'system', summary: 'a child run ended' },
    { sessionKey: RESEARCHER, kind: 'human_direct_message', actorType: 'human', summary: 'human message via telegram' },
    { sessionKey: GLOBAL, kind: 'compacted', actorType: 'system', summary: 'compacted' },
    { sessionKey: BARE_AGENT, kind: 'adopted', actorType: 'system', summary: 'adopted' },
  ] as const) {
    const result = await awareness.record(input);
    if (!result.ok) throw new Error(`the scene could not record ${input.kind}`);
  }
  return awareness;
}

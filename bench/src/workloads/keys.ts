// The session keys and record inputs the workloads use, the same on every side.
import { SEED_EVENT } from '../raw/seed.js';

/** Target session `i` of workloads 1–3 (a nested sub-agent, as delegated work usually is). */
export const targetKey = (i: number): string => `agent:bench:subagent:t${i}`;

/**
 * Watcher `slot` of target `i`: main sessions of other agents, spread so that every watcher
 * watches `slots` targets and every target has `slots` distinct watchers.
 */
export const watcherKey = (i: number, slot: number, sessions: number, slots: number): string =>
  `agent:w${(i + slot * Math.floor(sessions / slots)) % sessions}:main`;

/** Session `i` of the workload 4 log. */
export const logKey = (i: number): string => `agent:log:s${i}`;

/** A `record` input: a human turn sent straight to `sessionKey` (notifies its watchers). */
export function humanTurn(sessionKey: string) {
  return {
    sessionKey,
    kind: SEED_EVENT.kind,
    actorType: SEED_EVENT.actorType,
    summary: SEED_EVENT.summary,
    payload: { channel: SEED_EVENT.payload.channel },
  };
}

/** The raw baseline's form of the same record. */
export function rawHumanTurn(sessionKey: string) {
  return { ...humanTurn(sessionKey), notifies: true };
}

/** Throws unless a `record` result is ok: a failing library side would measure the error path. */
export function expectRecorded(result: { readonly ok: boolean }, where: string): void {
  if (!result.ok) {
    const error = (result as { error?: unknown }).error;
    throw new Error(`${where}: record failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
  }
}

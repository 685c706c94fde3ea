// The session keys and record inputs the workloads use, the same on every side.
import { SEED_EVENT } from '../raw/seed.js';

/** Target session `i` (a nested sub-agent, as delegated work usually is). */
export const targetKey = (i: number): string => `agent:bench:subagent:t${i}`;

/** Watcher `slot` of target `i`: every watcher watches `slots` targets, every target has `slots` distinct watchers. */
export const watcherKey = (i: number, slot: number, sessions: number, slots: number): string => `agent:w${(i + slot * Math.floor(sessions / slots)) % sessions}:main`;

export const logKey = (i: number): string => `agent:log:s${i}`;

/** A `record` input: a human turn sent straight to `sessionKey` (it notifies the watchers). */
export const humanTurn = (sessionKey: string) => ({ sessionKey, kind: SEED_EVENT.kind, actorType: SEED_EVENT.actorType, summary: SEED_EVENT.summary, payload: { channel: SEED_EVENT.payload.channel } });

export const rawHumanTurn = (sessionKey: string) => ({ ...humanTurn(sessionKey), notifies: true });

/** Throws unless a `record` result is ok: a failing library side would measure the error path. */
export function expectRecorded(result: { readonly ok: boolean }, where: string): void {
  if (result.ok) return;
  const error = (result as { error?: unknown }).error;
  throw new Error(`${where}: record failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
}

export const keysOf = (sessions: number, key: (i: number) => string): string[] => Array.from({ length: sessions }, (_, i) => key(i));

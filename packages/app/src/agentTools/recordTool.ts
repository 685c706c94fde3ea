// The `record` tool (offered only when writing is allowed): appends one event to a session's
// signal log through the facade, so watchers' cursors move exactly as when the gateway records it.
import { ActorType, EVENT_KINDS, PAYLOAD_MAX_BYTES, SUMMARY_MAX_LENGTH } from '@session-state/domain';

import type { RecordInput, SessionStateAwareness } from '../api.js';
import { agentTool, objectSchema, sessionKeyProperty, type AgentTool } from './agentTool.js';
import { RECORD_OUTPUT } from './outputSchemas.js';

const RECORD_SCHEMA = objectSchema(['sessionKey', 'kind', 'actorType', 'summary'], {
  sessionKey: sessionKeyProperty('The session the event belongs to'),
  kind: { type: 'string', enum: [...EVENT_KINDS], description: 'What happened; human_direct_message, goal_changed and upstream_missing notify the session\'s watchers.' },
  actorType: { type: 'string', enum: Object.keys(ActorType.keys), description: 'Who caused it.' },
  actorSessionKey: sessionKeyProperty('The session that caused it (its own watch never notifies it)'),
  summary: { type: 'string', minLength: 1, description: `One line of metadata (never message content), at most ${SUMMARY_MAX_LENGTH} characters after normalising.` },
  payload: { type: 'object', description: `A small JSON object of metadata (at most ${PAYLOAD_MAX_BYTES} bytes); run_failed needs outcome: cancelled, timeout or error.` },
  dedupeKey: { type: 'string', minLength: 1, description: 'An at-least-once key: recording it again returns the stored event and changes nothing.' },
  occurredAt: { type: ['string', 'integer'], description: 'When it happened (ISO string or epoch ms); informational, default now; kept within the last 24 hours (a later time reads as now).' },
  onlyIfWatched: { type: 'boolean', description: 'When true and nobody watches the session, nothing is written (outcome skipped).' },
});

const DESCRIPTION = [
  "Append one event to a session's signal log: a one-line summary of what happened, never message content.",
  'Sessions watching it get one notice when the kind notifies (human_direct_message, goal_changed, upstream_missing) and the actor is not the watcher itself.',
  'Returns { outcome: "recorded", event } with the stored event (its sequence is the session\'s new stateVersion), or { outcome: "skipped", reason: "unwatched" } with onlyIfWatched when nobody watches the session.',
].join(' ');

/** The `record` tool over `awareness.record`, whose own validation names the bad field (`record.summary`). */
export function recordTool(awareness: SessionStateAwareness): AgentTool<'record'> {
  const annotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;
  return agentTool({ name: 'record', description: DESCRIPTION, inputSchema: RECORD_SCHEMA, outputSchema: RECORD_OUTPUT, annotations }, async (input) => {
    // The facade decodes the whole input, unknown fields included, and never rejects: a bad
    // one comes back as `ok: false` with an InvalidInputError naming the field.
    const result = await awareness.record(input as RecordInput);
    if (result.outcome === 'failed') throw result.error;
    return result.outcome === 'recorded' ? { outcome: result.outcome, event: result.event } : { outcome: result.outcome, reason: result.reason };
  });
}

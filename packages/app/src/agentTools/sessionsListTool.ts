// The `sessions_list` tool: the state version of each named session, so the model can tell which
// changed since it last looked without reading their deltas.
import type { SessionStateAwareness } from '../api.js';
import { decode, SessionsListInput } from '../input/codecs.js';
import { agentTool, objectSchema, READS, sessionKeyProperty, type AgentTool } from './agentTool.js';
import { SESSIONS_LIST_OUTPUT } from './outputSchemas.js';

const SESSIONS_LIST_SCHEMA = objectSchema(['sessionKeys'], {
  sessionKeys: { type: 'array', items: sessionKeyProperty('A session to look up'), description: 'The sessions to look up; one row comes back for each, in this order.' },
});

const DESCRIPTION = [
  'The current state version of each named session: { sessions: [{ sessionKey, stateVersion }] }, one row per key in the order given.',
  'stateVersion is the highest sequence the session ever logged; it is missing when the session never logged a change.',
  'A stateVersion higher than the one you saw last means the session changed since: call session_status with that sessionKey and changesSince = the version you saw last to read what changed.',
].join(' ');

export function sessionsListTool(awareness: SessionStateAwareness): AgentTool<'sessions_list'> {
  return agentTool({ name: 'sessions_list', description: DESCRIPTION, inputSchema: SESSIONS_LIST_SCHEMA, outputSchema: SESSIONS_LIST_OUTPUT, annotations: READS }, async (input) => {
    const { sessionKeys } = decode(SessionsListInput, input, 'sessions_list');
    return { sessions: await awareness.list(sessionKeys) };
  });
}

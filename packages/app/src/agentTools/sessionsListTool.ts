// The `sessions_list` tool: the state version of each named session, so the model can tell which
// changed since it last looked without reading their deltas.
import { SessionKeyInput } from '@session-state/domain';
import * as t from 'io-ts';

import type { SessionStateAwareness } from '../api.js';
import { strictObject } from '../input/codecs.js';
import { answerWith, sessionKeyProperty, type AgentTool, type ToolInputSchema } from './agentTool.js';

export const SESSIONS_LIST = 'sessions_list';

const SessionsListInput = t.type({ sessionKeys: t.array(SessionKeyInput, 'an array of session keys') });

const SESSIONS_LIST_SCHEMA: ToolInputSchema = {
  type: 'object',
  properties: {
    sessionKeys: { type: 'array', items: sessionKeyProperty('A session to look up'), description: 'The sessions to look up; one row comes back for each, in this order.' },
  },
  required: ['sessionKeys'],
  additionalProperties: false,
};

const DESCRIPTION = [
  'The current state version of each named session: { sessions: [{ sessionKey, stateVersion }] }, one row per key in the order given.',
  'stateVersion is the highest sequence the session ever logged; it is missing when the session never logged a change.',
  'A stateVersion higher than the one you saw last means the session changed since: call session_status with that sessionKey and changesSince = the version you saw last to read what changed.',
].join(' ');

/** The `sessions_list` tool over `awareness.list`. */
export function sessionsListTool(awareness: SessionStateAwareness): AgentTool<'sessions_list'> {
  return {
    name: SESSIONS_LIST,
    description: DESCRIPTION,
    inputSchema: SESSIONS_LIST_SCHEMA,
    handler: (input) =>
      answerWith(SESSIONS_LIST, async () => {
        const { sessionKeys } = strictObject(SessionsListInput, ['sessionKeys'], input, SESSIONS_LIST);
        return { sessions: await awareness.list(sessionKeys) };
      }),
  };
}

// The read tools: `session_status`, the reconcile a notice asks for, with the notice's own parameter names
// (`session_status sessionKey "<target>" changesSince N`), and `sessions_list`, the state version of each named
// session, so the model can tell which changed since it last looked without reading their deltas.
import { MAX_PAGE_LIMIT } from '@session-state/domain';

import type { SessionStateAwareness } from '../api.js';
import { decode, SessionsListInput, SessionStatusInput } from '../input/codecs.js';
import { agentTool, objectSchema, READS, sessionKeyProperty, type AgentTool } from './agentTool.js';
import { SESSION_STATUS_OUTPUT, SESSIONS_LIST_OUTPUT } from './outputSchemas.js';

const SESSION_STATUS_SCHEMA = objectSchema(['sessionKey'], {
  sessionKey: sessionKeyProperty('The session to read (the target named in the notice)'),
  changesSince: {
    type: 'integer',
    minimum: 0,
    description: 'Return the changes after this sequence: the N from the notice, or the nextSince of the previous page. Omit it to get only stateVersion.',
  },
  limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, description: `At most this many events per page (1-${MAX_PAGE_LIMIT}, default ${MAX_PAGE_LIMIT}).` },
});

const STATUS_DESCRIPTION = [
  'Reconcile with another session: read what changed there since you last looked, before you act on anything you assumed about it.',
  'A notice "Session "<target>" changed (other actor). Reconcile before acting: session_status sessionKey "<target>" changesSince N." means a human or another agent changed that session; call this tool with sessionKey = <target> and changesSince = N.',
  'Returns stateVersion (the highest sequence the session ever logged) and stateChanges: events after changesSince, oldest first, each with sequence, kind (human_direct_message, goal_changed, upstream_missing, child_spawned, run_completed, run_failed, compacted, adopted, created), actorType (human, agent, system), a one-line summary (metadata, never the message itself), occurredAt and sometimes payload.',
  'If hasMore is true, call again with changesSince = nextSince until hasMore is false.',
  'historyGap true means some changes after changesSince were deleted by retention and are not listed (earliestRetained is the lowest sequence still kept, 0 when none): treat what you knew about the session as stale and re-read its current state (e.g. its history) instead of relying on these events alone.',
  'Without changesSince only stateVersion is returned: a cheap check, since a higher stateVersion than you saw last means the session changed.',
].join(' ');

const READER_NOTE =
  ' Reading up to the end (hasMore false) also marks those changes as seen, so the notice about them is withdrawn and will not come back.';

/** `session_status` over `awareness.status`; with `reader`, a read with `changesSince` passes it, so a page reaching the head acknowledges its cursor. */
export function sessionStatusTool(awareness: SessionStateAwareness, reader: string | undefined): AgentTool<'session_status'> {
  const description = reader === undefined ? STATUS_DESCRIPTION : STATUS_DESCRIPTION + READER_NOTE;
  return agentTool({ name: 'session_status', description, inputSchema: SESSION_STATUS_SCHEMA, outputSchema: SESSION_STATUS_OUTPUT, annotations: READS }, async (input) => {
    const { sessionKey, changesSince, limit } = decode(SessionStatusInput, input, 'session_status');
    return { ...(await awareness.status(sessionKey, { changesSince, limit, reader: changesSince === undefined ? undefined : reader })) };
  });
}

const SESSIONS_LIST_SCHEMA = objectSchema(['sessionKeys'], {
  sessionKeys: { type: 'array', items: sessionKeyProperty('A session to look up'), description: 'The sessions to look up; one row comes back for each, in this order.' },
});

const LIST_DESCRIPTION = [
  'The current state version of each named session: { sessions: [{ sessionKey, stateVersion }] }, one row per key in the order given.',
  'stateVersion is the highest sequence the session ever logged; it is missing when the session never logged a change.',
  'A stateVersion higher than the one you saw last means the session changed since: call session_status with that sessionKey and changesSince = the version you saw last to read what changed.',
].join(' ');

export function sessionsListTool(awareness: SessionStateAwareness): AgentTool<'sessions_list'> {
  return agentTool({ name: 'sessions_list', description: LIST_DESCRIPTION, inputSchema: SESSIONS_LIST_SCHEMA, outputSchema: SESSIONS_LIST_OUTPUT, annotations: READS }, async (input) => {
    const { sessionKeys } = decode(SessionsListInput, input, 'sessions_list');
    return { sessions: await awareness.list(sessionKeys) };
  });
}

// The tools' output schemas (MCP `outputSchema`): what `structuredContent` holds when `isError` is false, field for field.
import { ActorType, EVENT_KINDS } from '@session-state/domain';

import { objectSchema, type JsonSchema } from './agentTool.js';

const STRING: JsonSchema = { type: 'string' };
const SEQUENCE: JsonSchema = { type: 'integer', minimum: 0 };
const BOOLEAN: JsonSchema = { type: 'boolean' };
const EVENT_FIELDS = ['sequence', 'kind', 'actorType', 'summary', 'occurredAt'];
const EVENT = {
  sequence: SEQUENCE,
  kind: { type: 'string', enum: [...EVENT_KINDS] },
  actorType: { type: 'string', enum: Object.keys(ActorType.keys) },
  actorSessionKey: STRING,
  summary: STRING,
  occurredAt: STRING,
  payload: { type: 'object' },
};

export const SESSION_STATUS_OUTPUT = objectSchema(['sessionKey', 'stateVersion'], {
  sessionKey: STRING,
  stateVersion: SEQUENCE,
  stateChanges: objectSchema(['events', 'historyGap', 'earliestRetained', 'hasMore', 'nextSince'], {
    events: { type: 'array', items: objectSchema(EVENT_FIELDS, EVENT) },
    historyGap: BOOLEAN,
    earliestRetained: SEQUENCE,
    hasMore: BOOLEAN,
    nextSince: SEQUENCE,
  }),
});

export const SESSIONS_LIST_OUTPUT = objectSchema(['sessions'], {
  sessions: { type: 'array', items: objectSchema(['sessionKey'], { sessionKey: STRING, stateVersion: SEQUENCE }) },
});

export const RECORD_OUTPUT = objectSchema(['outcome'], {
  outcome: { type: 'string', enum: ['recorded', 'skipped'] },
  event: objectSchema(['sessionKey', ...EVENT_FIELDS], { sessionKey: STRING, ...EVENT }),
  reason: { type: 'string', enum: ['unwatched'] },
});

/** The `notices` an answer carries: the watcher's pending notices, each naming the session_status call that reconciles it. */
export const NOTICES: JsonSchema = {
  type: 'array',
  items: objectSchema(['watcher', 'target', 'changesSince', 'text'], { watcher: STRING, target: STRING, changesSince: SEQUENCE, text: STRING }),
};

export const NOTICES_WAIT_OUTPUT = objectSchema(['notices'], { notices: NOTICES });

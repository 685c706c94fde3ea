// JSON Schema fragments the tools share, kept in step with the domain's codecs.
import { SESSION_KEY_EXPECTED, SESSION_KEY_MAX_LENGTH } from '@session-state/domain';

import type { JsonSchema } from './agentTool.js';

/** A session key property: a string of 1-512 characters, `what` saying which session it names. */
export function sessionKeyProperty(what: string): JsonSchema {
  return { type: 'string', minLength: 1, maxLength: SESSION_KEY_MAX_LENGTH, description: `${what}: ${SESSION_KEY_EXPECTED}.` };
}

// Session keys: the branded codec and the shape rules (agent-qualified, main, nested sub-agent)
// that decide who may watch whom and who gets woken.
import type * as t from 'io-ts';

import { refinement } from './validation.js';

/** A validated session key: 1-512 characters without whitespace, control characters, `"` or unpaired surrogates (stored as U+FFFD, two keys would merge). */
export type SessionKey = t.Branded<string, { readonly SessionKey: unique symbol }>;

export const SESSION_KEY_MAX_LENGTH = 512;

// Whitespace (incl. Unicode spaces and line separators), C0/C1 controls, the double quote and
// an unpaired surrogate (with the `u` flag a well-formed pair is one code point, not Cs).
const FORBIDDEN = /[\s\u0000-\u001f\u007f-\u009f"\p{Cs}]/u;

export function isSessionKey(value: string): value is SessionKey {
  return value.length >= 1 && value.length <= SESSION_KEY_MAX_LENGTH && !FORBIDDEN.test(value);
}

/** The expectation printed when a key is rejected. */
export const SESSION_KEY_EXPECTED = 'a session key of 1-512 characters without whitespace, control characters, \'"\' or unpaired surrogates';

export const SessionKeyInput = refinement<SessionKey, string>(SESSION_KEY_EXPECTED, (u): u is SessionKey => typeof u === 'string' && isSessionKey(u));

/** The parts of `agent:<agentId>:<rest>`, both non-empty; undefined for any other key. */
export function parseAgentKey(key: string): { readonly agentId: string; readonly rest: string } | undefined {
  const match = /^agent:([^:]+):(.+)$/su.exec(key);
  return match === null ? undefined : { agentId: match[1] as string, rest: match[2] as string };
}

/** Only agent-qualified keys take part in watching, as watcher or as target. */
export function isAgentQualified(key: string): boolean {
  return parseAgentKey(key) !== undefined;
}

/** An agent-qualified key whose `<rest>` has a `subagent` segment; such watchers are not woken. */
export function isNestedSubagent(key: string): boolean {
  const parsed = parseAgentKey(key);
  return parsed !== undefined && parsed.rest.split(':').includes('subagent');
}

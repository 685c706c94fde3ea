// The MCP resources of `session-state mcp`: a session's status (`session-state://sessions/{sessionKey}`) and the
// reader watcher's pending notices (`session-state://watchers/{watcherKey}/notices`), as URIs, listings and JSON text.
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type Resource, type ResourceTemplateType } from '@modelcontextprotocol/server';
import type { SessionStateAwareness } from '@session-state/app';
import { isSessionKey, SESSION_KEY_EXPECTED } from '@session-state/domain';

import { orElse } from '../orElse.js';

/** A resource the server serves: a session's status, or a watcher's pending notices. */
export interface ResourceRef {
  readonly kind: 'session' | 'notices';
  readonly key: string;
}

const JSON_TYPE = 'application/json';
const SESSION_TEMPLATE = 'session-state://sessions/{sessionKey}';
const NOTICES_TEMPLATE = 'session-state://watchers/{watcherKey}/notices';
const URI = /^session-state:\/\/(?:sessions\/([^/?#]+)|watchers\/([^/?#]+)\/notices)$/u;

export const RESOURCE_TEMPLATES: ResourceTemplateType[] = [
  {
    uriTemplate: SESSION_TEMPLATE,
    name: 'session',
    mimeType: JSON_TYPE,
    description: "A session's state version, as session_status answers without changesSince: { sessionKey, stateVersion }.",
  },
  {
    uriTemplate: NOTICES_TEMPLATE,
    name: 'notices',
    mimeType: JSON_TYPE,
    description: "The --reader watcher's pending notices, oldest first: [{ watcher, target, changesSince, text }]; each names the session_status call that reconciles it.",
  },
];

/** The URI of `ref`: the key percent-encoded, but for ':' and '@' (legal in a path, and common in session keys). */
export function uriOf({ kind, key }: ResourceRef): string {
  const segment = encodeURIComponent(key).replace(/%3A/giu, ':').replace(/%40/giu, '@');
  return kind === 'session' ? `session-state://sessions/${segment}` : `session-state://watchers/${segment}/notices`;
}

/** The resources to list: the reader's notices and the sessions it watches (none without a reader). */
export function listedResources(reader: string | undefined, watched: readonly string[]): Resource[] {
  if (reader === undefined) return [];
  const notices = { uri: uriOf({ kind: 'notices', key: reader }), name: `notices of ${reader}`, mimeType: JSON_TYPE };
  return [notices, ...watched.map((key) => ({ uri: uriOf({ kind: 'session', key }), name: key, mimeType: JSON_TYPE }))];
}

/** The resource a client's URI names (in either encoding of the key); a protocol error when it names none this server serves. */
export function parseUri(uri: string, reader: string | undefined): ResourceRef {
  const match = URI.exec(uri);
  const key = match === null ? undefined : orElse(() => decodeURIComponent(match[1] ?? match[2] ?? ''), undefined);
  if (key === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `not a resource of this server: expected ${SESSION_TEMPLATE} or ${NOTICES_TEMPLATE}`);
  if (!isSessionKey(key)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `the key in the resource URI must be ${SESSION_KEY_EXPECTED}`);
  if (match?.[1] !== undefined) return { kind: 'session', key };
  // Only the reader's notices are queued in this process: another watcher's would always read empty.
  if (key !== reader) throw new ResourceNotFoundError(uri, `this server serves the notices of its --reader watcher only${reader === undefined ? ', and has none' : ''}`);
  return { kind: 'notices', key };
}

/** What `read` resolves with; a failure is a protocol error with a fixed sentence (a driver's words stay out). */
export async function orUnavailable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch {
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'could not read session state just now; try again later');
  }
}

/** The JSON text of `ref` now. */
export async function readResource(awareness: SessionStateAwareness, ref: ResourceRef): Promise<string> {
  return orUnavailable(async () => JSON.stringify(ref.kind === 'session' ? await awareness.status(ref.key) : awareness.pending(ref.key)));
}

// The key checks every store runs before a write, even when called directly (from JavaScript, past a cast): SQLite and PostgreSQL
// store an unpaired surrogate as U+FFFD, so the write would land on another key's rows; every store refuses the same requests.
import type { AppendRequest } from './stateStore.port.js';
import { DedupeKey } from '../input/recordInput.js';
import { isSessionKey, SESSION_KEY_EXPECTED } from '../input/sessionKey.js';

/** Throws (a caller's bug) unless `key` is a session key; the message names the field, never the key. */
export function assertStoreKey(field: string, key: unknown): void {
  if (typeof key !== 'string' || !isSessionKey(key)) throw new RangeError(`invalid ${field}: expected ${SESSION_KEY_EXPECTED}`);
}

/** Throws unless every key of the request (session, actor, spawn parent, watchers, dedupe key) is one and the payload comes with its JSON text. */
export function assertAppendRequest(request: AppendRequest): void {
  const { command } = request;
  assertStoreKey('command.sessionKey', command.sessionKey);
  if (command.actorSessionKey !== undefined) assertStoreKey('command.actorSessionKey', command.actorSessionKey);
  if (request.seedWatcher !== undefined) assertStoreKey('seedWatcher', request.seedWatcher);
  for (const watcher of command.watchers ?? []) assertStoreKey('command.watchers', watcher);
  if (command.dedupeKey !== undefined && !DedupeKey.is(command.dedupeKey)) throw new RangeError(`invalid command.dedupeKey: expected ${DedupeKey.name}`);
  if ((command.payload === undefined) !== (command.payloadJson === undefined) || (command.payloadJson !== undefined && typeof command.payloadJson !== 'string')) {
    throw new RangeError('invalid command.payload: expected a payload with its JSON text (payloadJson), as decodeRecordInput gives it');
  }
  // decodeRecordInput never yields a NUL here (summaries turn control characters into spaces,
  // JSON text escapes them); PostgreSQL cannot store one and some node:sqlite builds cut text at
  // it, so every store refuses it alike.
  if (typeof command.summary !== 'string' || command.summary.includes('\u0000')) throw new RangeError('invalid command.summary: expected text without NUL (U+0000)');
  if (command.payloadJson?.includes('\u0000') === true) throw new RangeError('invalid command.payloadJson: expected JSON text without a raw NUL (U+0000)');
}

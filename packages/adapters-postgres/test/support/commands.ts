// Test fixtures: session keys and append commands built by the domain's own decoder.
import { decodeRecordInput, isSessionKey, type AppendCommand, type AppendRequest, type SessionKey } from '@session-state/domain';

export function key(raw: string): SessionKey {
  if (!isSessionKey(raw)) throw new Error(`test fixture: ${raw} is not a session key`);
  return raw;
}

/** A human turn on `sessionKey` (a notifying event), with any field overridden. */
export function humanTurn(sessionKey: SessionKey, fields: Record<string, unknown> = {}): AppendCommand {
  const decoded = decodeRecordInput({ kind: 'human_direct_message', actorType: 'human', summary: 'a change', ...fields, sessionKey });
  if (decoded._tag === 'Left') throw new Error(`test fixture: ${decoded.left.message}`);
  return decoded.right;
}

export function request(command: AppendCommand, appendedAt = Date.UTC(2026, 10, 30)): AppendRequest {
  return { command, appendedAt };
}

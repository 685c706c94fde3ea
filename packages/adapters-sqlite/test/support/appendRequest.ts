// An append request as the facade hands it to the store: a record input decoded by the domain,
// appended at a fixed time. Fields not given are a human's goal change.
import { decodeRecordInput, type AppendRequest } from '@session-state/domain';

export function appendRequest(input: { readonly sessionKey: string; readonly summary: string } & Record<string, unknown>, appendedAt = 1_000): AppendRequest {
  const decoded = decodeRecordInput({ kind: 'goal_changed', actorType: 'human', ...input });
  if (decoded._tag === 'Left') throw new Error(decoded.left.message);
  return { command: decoded.right, appendedAt };
}

// `record` and `childSpawned`: validate, read the clock (and clamp `occurredAt` to it), join the open group-commit batch. A write
// that did not happen is a result, `{ ok: false, error }`; only invalid childSpawned input rejects.
import { clampOccurredAt, decodeRecordInput, isAgentQualified, normaliseSummary, type AppendCommand, type AppendRequest, type Summary } from '@session-state/domain';

import type { RecordResult, SessionStateAwareness } from '../api.js';
import { ClosedError, InvalidInputError, StoreOperationError, type ClockError } from '../errors/errors.js';
import { readClock } from '../errors/failures.js';
import { ChildSpawnedInput, decode } from '../input/codecs.js';
import { unreadableInput } from '../input/unreadable.js';
import type { FacadeParts } from '../parts.js';
import { failedResult, type AppendOperation, type FailedResult } from '../pipeline/appendPipeline.js';

type RecordDeps = Pick<FacadeParts, 'clock' | 'counters' | 'logger' | 'failures' | 'appends' | 'isClosed'>;
type RecordMethods = Pick<SessionStateAwareness, 'record' | 'childSpawned'>;

export function createRecordMethods({ clock, counters, logger, failures, appends, isClosed }: RecordDeps): RecordMethods {
  const rejected = (invalid: InvalidInputError): RecordResult => {
    counters.add('appendFailures');
    logger.warn({ operation: 'record', field: invalid.field, expected: invalid.expected }, 'record rejected invalid input');
    return failedResult(invalid);
  };

  /** The time, or the failed result of a bad clock reading. */
  const appendTime = (operation: AppendOperation, sessionKey: string): number | FailedResult<ClockError> => {
    const appendedAt = readClock(clock, operation);
    if (typeof appendedAt === 'number') return appendedAt;
    counters.add('appendFailures');
    return failedResult(failures.clock(appendedAt, { sessionKey }));
  };

  return {
    record(input) {
      // Hostile input may still make the decoder throw (a getter it reads).
      try {
        if (isClosed()) return Promise.resolve(failedResult(new ClosedError('record')));
        const decoded = decodeRecordInput(input);
        if (decoded._tag === 'Left') return Promise.resolve(rejected(new InvalidInputError(decoded.left)));
        const appendedAt = appendTime('record', decoded.right.sessionKey);
        return typeof appendedAt === 'number' ? appends.submit('record', { command: clampOccurredAt(decoded.right, appendedAt), appendedAt }) : Promise.resolve(appendedAt);
      } catch (error) {
        return Promise.resolve(rejected(unreadableInput('record', input, error)));
      }
    },

    async childSpawned(input) {
      if (isClosed()) return failedResult(new ClosedError('childSpawned'));
      const { parentKey, childKey, summary, dedupeKey } = decode(ChildSpawnedInput, input, 'childSpawned');
      const command: AppendCommand = {
        sessionKey: childKey,
        kind: 'child_spawned',
        actorType: 'agent',
        actorSessionKey: parentKey,
        summary: summary ?? (normaliseSummary(`spawned by ${parentKey}`) as Summary),
        onlyIfWatched: false,
        ...(dedupeKey !== undefined ? { dedupeKey } : {}),
      };
      const appendedAt = appendTime('childSpawned', childKey);
      if (typeof appendedAt !== 'number') return appendedAt;
      const seeds = isAgentQualified(parentKey) && isAgentQualified(childKey) && parentKey !== childKey;
      const request: AppendRequest = { command, appendedAt, ...(seeds ? { seedWatcher: parentKey } : {}) };
      const result = await appends.submit('childSpawned', request);
      // childSpawned never sets onlyIfWatched, so a skip is the store's fault.
      if (result.outcome === 'skipped') return failedResult(new StoreOperationError('childSpawned', 'the store skipped a spawn edge'));
      return result;
    },
  };
}

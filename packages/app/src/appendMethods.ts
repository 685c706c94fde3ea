// `record` and `childSpawned`: validate, read the clock, and join the open group-commit batch.
// Their answer is whether the event was written, so a write that did not happen (the store or
// the clock failed, or the facade is closed) is a result, `{ ok: false, error }`, never a
// rejection. Input that is not a valid call rejects childSpawned; record never rejects at all.
import { decodeRecordInput, isAgentQualified, normaliseSummary, type AppendCommand, type AppendRequest, type Summary } from '@session-state/domain';

import type { RecordResult, SessionStateAwareness } from './awarenessApi.js';
import { failedResult } from './appendPipeline.js';
import { readClock } from './clockReading.js';
import type { FacadeParts } from './facadeParts.js';
import { decodeChildSpawned } from './inputs.js';
import { InvalidInputError } from './invalidInputError.js';
import { ClosedError, StoreOperationError } from './storeOperationError.js';
import { decodeReadable, unreadableInput } from './unreadableInput.js';

export function createAppendMethods(parts: FacadeParts): Pick<SessionStateAwareness, 'record' | 'childSpawned'> {
  const { clock, counters, logger, failures, appends, isClosed } = parts;

  /**
   * The synchronous part of `record`: validate, read the clock, join the open batch. Hostile
   * input may still make it throw (a getter the decoder reads); `record` guards it.
   */
  const recordNow = (input: unknown): Promise<RecordResult> => {
    if (isClosed()) return Promise.resolve(failedResult(new ClosedError('record')));
    const decoded = decodeRecordInput(input);
    if (decoded._tag === 'Left') {
      counters.add('appendFailures');
      logger.warn({ operation: 'record', field: decoded.left.field, expected: decoded.left.expected }, 'record rejected invalid input');
      return Promise.resolve(failedResult(new InvalidInputError(decoded.left)));
    }
    const appendedAt = readClock(clock, 'record');
    if (typeof appendedAt !== 'number') {
      counters.add('appendFailures');
      return Promise.resolve(failedResult(failures.clock(appendedAt, { sessionKey: decoded.right.sessionKey })));
    }
    return appends.submit('record', { command: decoded.right, appendedAt });
  };

  return {
    record(input) {
      // record never throws and never rejects: anything thrown while reading the input (a getter,
      // a revoked Proxy, a payload's toJSON) is a failed result like any other bad input.
      try {
        return recordNow(input);
      } catch (error) {
        const invalid = unreadableInput('record', input, error);
        counters.add('appendFailures');
        logger.warn({ operation: 'record', field: invalid.field, expected: invalid.expected }, 'record rejected invalid input');
        return Promise.resolve(failedResult(invalid));
      }
    },

    async childSpawned(input) {
      // Like record: after close() the spawn edge is not written, and the result says so.
      if (isClosed()) return failedResult(new ClosedError('childSpawned'));
      const { parentKey, childKey, summary, dedupeKey } = decodeReadable('childSpawned', input, () => decodeChildSpawned(input));
      const command: AppendCommand = {
        sessionKey: childKey,
        kind: 'child_spawned',
        actorType: 'agent',
        actorSessionKey: parentKey,
        summary: summary ?? (normaliseSummary(`spawned by ${parentKey}`) as Summary),
        onlyIfWatched: false,
        ...(dedupeKey !== undefined ? { dedupeKey } : {}),
      };
      // A failing clock is no fault of the input: a failed result, as for a storage failure.
      const appendedAt = readClock(clock, 'childSpawned');
      if (typeof appendedAt !== 'number') {
        counters.add('appendFailures');
        return failedResult(failures.clock(appendedAt, { sessionKey: childKey }));
      }
      const seeds = isAgentQualified(parentKey) && isAgentQualified(childKey) && parentKey !== childKey;
      const request: AppendRequest = { command, appendedAt, ...(seeds ? { seedWatcher: parentKey } : {}) };
      const result = await appends.submit('childSpawned', request);
      // childSpawned never sets onlyIfWatched, so the store cannot skip it.
      if (result.outcome === 'skipped') return failedResult(new StoreOperationError('childSpawned', 'the store skipped a spawn edge'));
      return result;
    },
  };
}

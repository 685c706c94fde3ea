// Retention in the memory store: one bounded prune batch, and its preview.
import { asSequence, evolveHead, planJournalPrune, planPruneMaterial, type PruneBatch, type PrunedSession, type PrunePreview, type PruneRequest, type SessionKey, type StoredEvent } from '@session-state/domain';

import { allCursors, checkInteger, clockMs, commitPlan, commitRemoval, forgetEvents, type MemoryState } from './state.js';

/** Ages and caps the log, expires idle cursors and retains the journal, deleting at most `batchSize` events. */
export function pruneBatch(state: MemoryState, request: PruneRequest): PruneBatch {
  const now = clockMs('now', request.now);
  checkInteger('maxAgeMs', request.maxAgeMs, 0);
  checkInteger('maxRows', request.maxRows, 0);
  checkInteger('batchSize', request.batchSize, 1);
  if (request.cursorMaxAgeMs !== undefined) checkInteger('cursorMaxAgeMs', request.cursorMaxAgeMs, 0);
  if (request.journalAfter !== undefined) checkInteger('journalAfter', request.journalAfter, 0);
  const cutoff = now - request.maxAgeMs;
  const cursorCutoff = now - (request.cursorMaxAgeMs ?? request.maxAgeMs);

  // Age first, then the earliest-appended events beyond the row cap.
  const aged = state.order.filter((event) => event.appendedAt < cutoff);
  const doomed = new Set(aged.slice(0, request.batchSize));
  let remaining = state.order.length - doomed.size;
  for (const event of state.order) {
    if (remaining <= request.maxRows || doomed.size >= request.batchSize) break;
    if (!doomed.has(event)) {
      doomed.add(event);
      remaining -= 1;
    }
  }

  const bySession = new Map<SessionKey, StoredEvent[]>();
  for (const event of doomed) bySession.set(event.sessionKey, [...(bySession.get(event.sessionKey) ?? []), event]);
  const pruned: PrunedSession[] = [];
  for (const [sessionKey, gone] of bySession) {
    const session = state.sessions.get(sessionKey);
    if (session === undefined) continue;
    session.events = session.events.filter((event) => !doomed.has(event));
    const before = session.head.pruneWatermark;
    session.head = evolveHead(session.head, { type: 'pruned', highestDeleted: asSequence(gone.reduce((highest, event) => Math.max(highest, event.sequence), 0)) });
    pruned.push({ sessionKey, before, after: session.head.pruneWatermark });
  }
  forgetEvents(state, [...doomed]);

  const expiring = allCursors(state).filter((row) => row.touchedAt < cursorCutoff);
  const expiredCursors = commitRemoval(state, expiring, 'expired', request.now);
  const onPruned = pruned.flatMap(({ sessionKey }) => [...(state.byTarget.get(sessionKey)?.values() ?? [])]);
  commitPlan(state, planPruneMaterial({ pruned, cursors: onPruned, now: request.now }));

  const journalPrune = planJournalPrune({
    entries: state.journal,
    isLive: (watcher, target) => state.byWatcher.get(watcher)?.has(target) === true,
    cutoff,
    maxRows: request.maxRows,
    batchSize: request.batchSize,
    after: request.journalAfter ?? 0,
  });
  const removed = new Set(journalPrune.positions);
  if (removed.size > 0) state.journal = state.journal.filter((entry) => !removed.has(entry.position));

  return {
    eventsDeleted: doomed.size,
    expiredCursors,
    done: aged.length <= request.batchSize && remaining <= request.maxRows && journalPrune.done,
    journalAfter: journalPrune.journalAfter,
  };
}

/** What pruneBatch run to completion would delete and expire: counted, nothing changed. */
export function previewPrune(state: MemoryState, request: PruneRequest): PrunePreview {
  const now = clockMs('now', request.now);
  const aged = state.order.filter((event) => event.appendedAt < now - request.maxAgeMs).length;
  const cursorCutoff = now - (request.cursorMaxAgeMs ?? request.maxAgeMs);
  return {
    eventsToDelete: aged + Math.max(0, state.order.length - aged - request.maxRows),
    cursorsToExpire: allCursors(state).filter((row) => row.touchedAt < cursorCutoff).length,
  };
}

// The memory store's baseline: a plain in-memory log and cursor table doing the bookkeeping of a
// `record` and a `status` read (a Map of logs, a Map of cursors per target), with no facade.
import type { RawRecord } from './rawDb.js';

type RefEvent = Omit<RawRecord, 'notifies' | 'actorSessionKey'> & { readonly sequence: number; readonly occurredAt: string; readonly appendedAt: number };

/** `watch` makes an idle cursor at 0 for the pair, as `sent({ watch: true })` does; `read` gives at most `limit` events after `since`, the head, whether more follow and the earliest retained. */
export function createMemoryReference() {
  const logs = new Map<string, RefEvent[]>();
  const cursors = new Map<string, Map<string, { acked: number; notified: number; material: number; touchedAt: number }>>();
  const journal: unknown[] = [];
  const notices = new Map<string, { readonly target: string; readonly acked: number }>();
  let sequence = 0;
  return {
    watch(watcher: string, target: string): void {
      if (!cursors.has(target)) cursors.set(target, new Map());
      cursors.get(target)?.set(watcher, { acked: 0, notified: 0, material: 0, touchedAt: Date.now() });
    },
    append(record: RawRecord, now: number): number {
      sequence += 1;
      const { sessionKey, kind, actorType, summary, payload } = record;
      const event: RefEvent = { sequence, sessionKey, kind, actorType, summary, ...(payload !== undefined ? { payload: { ...payload } } : {}), occurredAt: new Date(now).toISOString(), appendedAt: now };
      const log = logs.get(sessionKey);
      if (log === undefined) logs.set(sessionKey, [event]);
      else log.push(event);
      for (const [watcher, c] of cursors.get(sessionKey) ?? []) {
        if (!record.notifies || watcher === record.actorSessionKey) continue;
        if (c.material <= c.acked && sequence > c.acked) {
          c.notified = c.material = sequence;
          journal.push({ watcher, target: sessionKey, type: 'notice_raised', acked: c.acked, notified: sequence, material: sequence, at: now });
          notices.set(watcher, { target: sessionKey, acked: c.acked });
        } else if (sequence > c.material) c.material = sequence;
        c.touchedAt = now;
      }
      return sequence;
    },
    read(sessionKey: string, since: number, limit: number) {
      const log = logs.get(sessionKey) ?? [];
      let [lo, hi] = [0, log.length];
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((log[mid]?.sequence ?? 0) <= since) lo = mid + 1;
        else hi = mid;
      }
      return { stateVersion: log[log.length - 1]?.sequence ?? 0, events: log.slice(lo, lo + limit), hasMore: log.length - lo > limit, earliestRetained: log[0]?.sequence ?? 0 };
    },
  };
}

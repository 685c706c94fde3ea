// Whole scans over the paged `scanPending`, for tests: every page from the first, each in an
// event-loop turn of its own (as the app's restart-scan pacer pulls them), notices joined.
import type { Notice, ScanRequest, SessionKey, StateStore } from '@session-state/domain';

type Owns = (watcher: SessionKey) => boolean;

/** Every page of `scanPending` of `limit` cursors each; the notices in pair order. */
export async function scanAll(store: StateStore, request: Omit<ScanRequest, 'after' | 'limit'>, limit = 500): Promise<readonly Notice[]> {
  const notices: Notice[] = [];
  let page = await store.scanPending({ ...request, limit });
  notices.push(...page.notices);
  while (page.next !== undefined) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    page = await store.scanPending({ ...request, after: page.next, limit });
    notices.push(...page.notices);
  }
  return notices;
}

/** The restart scan over every page, at `now`. */
export const restartScanAll = (store: StateStore, now: number, owns?: Owns, limit?: number): Promise<readonly Notice[]> =>
  scanAll(store, { raise: { now }, ...(owns !== undefined ? { owns } : {}) }, limit);

/** The held notices of every page (nothing written). */
export const heldNotices = (store: StateStore, owns?: Owns, targets?: readonly SessionKey[], limit?: number): Promise<readonly Notice[]> =>
  scanAll(store, { ...(owns !== undefined ? { owns } : {}), ...(targets !== undefined ? { targets } : {}) }, limit);

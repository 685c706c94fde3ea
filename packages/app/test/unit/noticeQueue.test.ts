// The notice queue alone: one entry per (watcher, target), oldest first, equal texts coalesce.
import { asSequence, noticeText } from '@session-state/domain';
import fc from 'fast-check';

import { createNoticeQueue as createQueue, type NoticeQueue } from '../../src/notices/queue.js';

const entry = (target: string, acked: number, notified: number, takenUntil?: number) => ({ target, acked: asSequence(acked), notified: asSequence(notified), ...(takenUntil !== undefined ? { takenUntil } : {}) });
/** How many texts the queue built: it builds one for each new entry only. */
let textsBuilt = 0;
const textOf = (target: string, acked: number): string => ((textsBuilt += 1), noticeText(target, asSequence(acked)));
/** The queue, its offers building texts with textOf. */
const createNoticeQueue = () => {
  const queue = createQueue();
  return { ...queue, offer: (watcher: string, notice: ReturnType<typeof entry>) => queue.offer(watcher, notice, textOf) };
};
const A0 = noticeText('a', asSequence(0));
const A3 = noticeText('a', asSequence(3));
const B0 = noticeText('b', asSequence(0));
const C1 = noticeText('c', asSequence(1));
const textsOf = (queue: Pick<NoticeQueue, 'entries'>, watcher: string): string[] => queue.entries(watcher).map((queued) => queued.text);

/** Three watchers or targets, so the queue's entries collide often. */
const name = (prefix: string) => fc.constantFrom(`${prefix}1`, `${prefix}2`, `${prefix}3`);
/** The queue's operations as fast-check commands (the property tests add their own). */
const queueOps = [
  fc.record({ type: fc.constant('offer' as const), watcher: name('w'), target: name('t'), acked: fc.constantFrom(0, 1), notified: fc.nat(9) }),
  fc.record({ type: fc.constant('remove' as const), watcher: name('w'), target: name('t') }),
  fc.record({ type: fc.constant('removeWatcher' as const), watcher: name('w') }),
  fc.record({ type: fc.constant('removeTarget' as const), target: name('t') }),
] as const;

describe('the notice queue', () => {
  test('keeps one entry per pair, oldest first; an equal text keeps its place and refreshes notified', () => {
    const queue = createNoticeQueue();
    expect(queue.offer('w', entry('a', 0, 3))).toBe('queued');
    expect(queue.offer('w', entry('b', 0, 4))).toBe('queued');
    expect(queue.offer('w', entry('a', 0, 7))).toBe('coalesced');

    expect(textsOf(queue, 'w')).toEqual([A0, B0]);
    expect(queue.entries('w')[0]?.notified).toBe(7);
  });

  test('the text is built once, for a new entry; a coalesced offer keeps the entry\'s text', () => {
    const queue = createNoticeQueue();
    const before = textsBuilt;
    expect(queue.offer('w', entry('a', 0, 3))).toBe('queued');
    expect(queue.offer('w', entry('a', 0, 5))).toBe('coalesced');
    expect(textsBuilt - before).toBe(1);
    expect(textsOf(queue, 'w')).toEqual([A0]);
    expect(queue.offer('w', entry('a', 3, 6))).toBe('queued');
    expect(textsOf(queue, 'w')).toEqual([A3]);
    expect(textsBuilt - before).toBe(2);
  });

  test('a coalesced offer takes the lease the store gives: released when a taken entry comes back untaken', () => {
    const queue = createNoticeQueue();
    queue.offer('w', entry('a', 0, 3));
    expect(queue.offer('w', entry('a', 0, 3, 500))).toBe('coalesced');
    expect(queue.entryOf('w', 'a')?.takenUntil).toBe(500);
    expect(queue.offer('w', entry('a', 0, 4, 500))).toBe('coalesced');
    expect(queue.offer('w', entry('a', 0, 4))).toBe('released');
    expect(queue.entryOf('w', 'a')?.takenUntil).toBeUndefined();
  });

  test('a different text for a pair replaces its entry and moves it to the back', () => {
    const queue = createNoticeQueue();
    queue.offer('w', entry('a', 0, 3));
    queue.offer('w', entry('b', 0, 4));
    expect(queue.offer('w', entry('a', 3, 5))).toBe('queued');
    expect(textsOf(queue, 'w')).toEqual([B0, A3]);
  });

  test('watchers never share entries; removal by pair, watcher, target and identity', () => {
    const queue = createNoticeQueue();
    queue.offer('w1', entry('a', 0, 1));
    queue.offer('w2', entry('a', 0, 1));
    queue.offer('w2', entry('b', 0, 2));
    queue.offer('w3', entry('c', 0, 3));
    const stale = queue.entries('w3')[0];

    queue.remove('w1', 'a');
    expect(textsOf(queue, 'w1')).toEqual([]);
    queue.removeTarget('a');
    expect(textsOf(queue, 'w2')).toEqual([B0]);
    queue.removeWatcher('w2');
    expect(textsOf(queue, 'w2')).toEqual([]);

    queue.offer('w3', entry('c', 1, 4)); // a newer entry survives removal of the old one
    if (stale !== undefined) queue.removeIfSame('w3', stale);
    expect(textsOf(queue, 'w3')).toEqual([C1]);
  });

  test('entriesOn(target), allEntries() and size() hold exactly the queued entries after any offers and removals', () => {
    const op = fc.oneof(...queueOps, fc.record({ type: fc.constant('removeIfSame' as const), watcher: name('w'), target: name('t') }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const queue = createNoticeQueue();
        for (const o of ops) {
          if (o.type === 'offer') queue.offer(o.watcher, entry(o.target, o.acked, o.notified));
          else if (o.type === 'remove') queue.remove(o.watcher, o.target);
          else if (o.type === 'removeWatcher') queue.removeWatcher(o.watcher);
          else if (o.type === 'removeTarget') queue.removeTarget(o.target);
          else {
            const current = queue.entries(o.watcher).find((e) => e.target === o.target);
            if (current !== undefined) queue.removeIfSame(o.watcher, current);
          }
        }
        // The reference: every watcher's own entries, read through entries().
        const expected = ['w1', 'w2', 'w3'].flatMap((watcher) => queue.entries(watcher).map((e) => ({ watcher, entry: e })));
        const key = (p: { watcher: string; entry: { target: string } }) => `${p.watcher}>${p.entry.target}`;
        const sorted = <T extends { watcher: string; entry: { target: string } }>(pairs: readonly T[]) => [...pairs].sort((a, b) => (key(a) < key(b) ? -1 : 1));
        expect(sorted(queue.allEntries())).toEqual(sorted(expected));
        expect(queue.size()).toBe(expected.length);
        for (const target of ['t1', 't2', 't3']) {
          expect(sorted(queue.entriesOn(target))).toEqual(sorted(expected.filter((p) => p.entry.target === target)));
        }
      }),
    );
  });

  test('entries(watcher) follow a model of per-watcher lists (oldest first; a coalesce keeps its place, a new text goes last) through any offers and removals', () => {
    // Few targets and watchers, so watchers go from one entry to several and back again.
    const op = fc.oneof(...queueOps);
    type Modelled = { target: string; acked: number; notified: number };
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const queue = createNoticeQueue();
        const model = new Map<string, Modelled[]>();
        const listOf = (watcher: string): Modelled[] => model.get(watcher) ?? [];
        for (const o of ops) {
          if (o.type === 'offer') {
            queue.offer(o.watcher, entry(o.target, o.acked, o.notified));
            const list = listOf(o.watcher);
            const at = list.findIndex((m) => m.target === o.target);
            const offered = { target: o.target, acked: o.acked, notified: o.notified };
            if (at >= 0 && list[at]?.acked === o.acked) model.set(o.watcher, list.map((m, i) => (i === at ? offered : m)));
            else model.set(o.watcher, [...list.filter((m) => m.target !== o.target), offered]);
          } else if (o.type === 'remove') {
            queue.remove(o.watcher, o.target);
            model.set(o.watcher, listOf(o.watcher).filter((m) => m.target !== o.target));
          } else if (o.type === 'removeWatcher') {
            queue.removeWatcher(o.watcher);
            model.delete(o.watcher);
          } else {
            queue.removeTarget(o.target);
            for (const [watcher, list] of model) model.set(watcher, list.filter((m) => m.target !== o.target));
          }
          for (const watcher of ['w1', 'w2', 'w3']) {
            const seen = queue.entries(watcher).map((e) => ({ target: e.target, acked: e.acked as number, notified: e.notified as number }));
            expect(seen).toEqual(listOf(watcher));
          }
        }
      }),
    );
  });
});

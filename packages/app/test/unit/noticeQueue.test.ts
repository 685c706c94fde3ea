// The notice queue alone: one entry per (watcher, target), oldest first, equal texts coalesce.
import { asSequence } from '@session-state/domain';

import { createNoticeQueue } from '../../src/noticeQueue';

const entry = (target: string, text: string, notified: number) => ({ target, text, notified: asSequence(notified) });

describe('the notice queue', () => {
  test('keeps one entry per pair, oldest first; an equal text keeps its place and refreshes notified', () => {
    const queue = createNoticeQueue();
    expect(queue.offer('w', entry('a', 'A0', 3))).toBe('queued');
    expect(queue.offer('w', entry('b', 'B0', 4))).toBe('queued');
    expect(queue.offer('w', entry('a', 'A0', 7))).toBe('coalesced');

    expect(queue.texts('w')).toEqual(['A0', 'B0']);
    expect(queue.entries('w')[0]?.notified).toBe(7);
  });

  test('a different text for a pair replaces its entry and moves it to the back', () => {
    const queue = createNoticeQueue();
    queue.offer('w', entry('a', 'A0', 3));
    queue.offer('w', entry('b', 'B0', 4));
    expect(queue.offer('w', entry('a', 'A3', 5))).toBe('queued');
    expect(queue.texts('w')).toEqual(['B0', 'A3']);
  });

  test('watchers never share entries; removal by pair, watcher, target and identity', () => {
    const queue = createNoticeQueue();
    queue.offer('w1', entry('a', 'A0', 1));
    queue.offer('w2', entry('a', 'A0', 1));
    queue.offer('w2', entry('b', 'B0', 2));
    queue.offer('w3', entry('c', 'C0', 3));
    const stale = queue.entries('w3')[0];

    queue.remove('w1', 'a');
    expect(queue.texts('w1')).toEqual([]);
    queue.removeTarget('a');
    expect(queue.texts('w2')).toEqual(['B0']);
    queue.removeWatcher('w2');
    expect(queue.texts('w2')).toEqual([]);

    queue.offer('w3', entry('c', 'C1', 4)); // a newer entry survives removal of the old one
    if (stale !== undefined) queue.removeIfSame('w3', stale);
    expect(queue.texts('w3')).toEqual(['C1']);
  });
});

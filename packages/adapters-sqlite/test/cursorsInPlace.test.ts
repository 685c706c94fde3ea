// decodeCursorsInPlace: the sound cursor rows of a select, in order, in the select's own array.
import type { CorruptRowInfo } from '@session-state/domain';

import { decodeCursorsInPlace } from '../src/cursorsInPlace.js';

const values = (watcher: string, acked: unknown): unknown[] => [watcher, 'agent:t:main', acked, 2, 3, 1_000];

test('keeps the sound rows in order, drops and reports each corrupt one, in the array it was given', () => {
  const reported: CorruptRowInfo[] = [];
  const rows = [values('agent:a:main', 'x'), values('agent:b:main', 1), values('agent:c:main', -1), values('agent:d:main', 2)];

  const decoded = decodeCursorsInPlace({ onCorruptRow: (info) => reported.push(info) }, 'append', rows);

  expect(decoded).toStrictEqual([
    { watcher: 'agent:b:main', target: 'agent:t:main', acked: 1, notified: 2, material: 3, touchedAt: 1_000 },
    { watcher: 'agent:d:main', target: 'agent:t:main', acked: 2, notified: 2, material: 3, touchedAt: 1_000 },
  ]);
  expect(decoded).toBe(rows);
  expect(reported).toStrictEqual([
    { operation: 'append', table: 'cursors', reason: 'a watermark is not a non-negative integer' },
    { operation: 'append', table: 'cursors', reason: 'a watermark is not a non-negative integer' },
  ]);
});

test('an empty select stays empty', () => {
  expect(decodeCursorsInPlace({ onCorruptRow: () => undefined }, 'append', [])).toStrictEqual([]);
});

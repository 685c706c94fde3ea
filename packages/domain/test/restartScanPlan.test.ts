// The restart scan's plan: each pending cursor raised to its material watermark and journalled,
// one `recovered` notice per pending pair in pair order.
import { expect, test } from '@jest/globals';

import type { CursorRow } from '../src/log/append.js';
import { planScan } from '../src/cursor/plans.js';
import { asSequence } from '../src/log/sequence.js';
import type { SessionKey } from '../src/input/sessionKey.js';

const row = (watcher: string, target: string, acked: number, notified: number, material: number): CursorRow => ({
  watcher: watcher as SessionKey,
  target: target as SessionKey,
  acked: asSequence(acked),
  notified: asSequence(notified),
  material: asSequence(material),
  touchedAt: 0,
});

const cursors = [row('agent:w2:main', 'agent:t:main', 1, 2, 5), row('agent:w1:main', 'agent:t:main', 1, 5, 5), row('agent:w3:main', 'agent:t:main', 4, 4, 4)];

test('raises every pending cursor to material, one recovered notice per pending pair in pair order, each at its acked and the raised notified', () => {
  const plan = planScan({ cursors, raise: { now: 9 } });
  expect(plan.notices).toEqual([
    { watcher: 'agent:w1:main', target: 'agent:t:main', acked: 1, notified: 5, reason: 'recovered' },
    { watcher: 'agent:w2:main', target: 'agent:t:main', acked: 1, notified: 5, reason: 'recovered' },
  ]);
  expect(plan.cursorWrites).toEqual([{ ...row('agent:w2:main', 'agent:t:main', 1, 5, 5), touchedAt: 9 }]);
});

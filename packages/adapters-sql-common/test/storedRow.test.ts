// Reading stored rows back: the event and cursor checks every adapter shares, the key order of
// the objects they build, and the reports a corrupt cursor row gives (never its content).
import { describe, expect, jest } from '@jest/globals';
import { fc, test } from '@fast-check/jest';

import type { CorruptRowInfo, CorruptRowSink } from '@session-state/domain';

import {
  decodeStoredCursor,
  decodeStoredCursors,
  decodeStoredWatermarks,
  storedCursorProblem,
  storedEventDecoders,
  storedWatermarksProblem,
  type ParseStoredPayload,
  type StoredEventValues,
} from '../src/rows/storedRow.js';

const SECRET = 'do-not-report-this-content';

/** The payload column is JSON text (as SQLite's is). */
const parseJsonText: ParseStoredPayload = (column) => {
  try {
    return JSON.parse(column as string) as unknown;
  } catch {
    return undefined;
  }
};

/** The driver hands the payload column over parsed (as PostgreSQL's does). */
const parsed = storedEventDecoders();
const fromText = storedEventDecoders(parseJsonText);

const full: StoredEventValues = [
  7,
  'human_direct_message',
  'human',
  'agent:main:main',
  'human message via telegram',
  '2026-11-29T10:00:00.000Z',
  { channel: 'telegram' },
  'agent:main:subagent:child',
  'turn:1',
  1_000,
];

function withColumn(values: readonly unknown[], index: number, value: unknown): unknown[] {
  const copy = [...values];
  copy[index] = value;
  return copy;
}

// --- events --------------------------------------------------------------------------------

describe('decodeEvent', () => {
  const sessionEventJson =
    '{"sequence":7,"kind":"human_direct_message","actorType":"human","actorSessionKey":"agent:main:main",' +
    '"summary":"human message via telegram","occurredAt":"2026-11-29T10:00:00.000Z","payload":{"channel":"telegram"}';

  test('builds the StoredEvent with every optional field: the public fields in their order, then the stored ones', () => {
    const decoded = parsed.decodeEvent(full, 0);
    expect(decoded).toStrictEqual({
      ok: true,
      event: {
        sequence: 7,
        kind: 'human_direct_message',
        actorType: 'human',
        actorSessionKey: 'agent:main:main',
        summary: 'human message via telegram',
        occurredAt: '2026-11-29T10:00:00.000Z',
        payload: { channel: 'telegram' },
        sessionKey: 'agent:main:subagent:child',
        dedupeKey: 'turn:1',
        appendedAt: 1_000,
      },
    });
    expect(JSON.stringify(decoded.ok && decoded.event)).toBe(`${sessionEventJson},"sessionKey":"agent:main:subagent:child","dedupeKey":"turn:1","appendedAt":1000}`);
  });

  test('decodeSessionEvent reads only the first seven columns, as the public SessionEvent a changes page holds', () => {
    const decoded = parsed.decodeSessionEvent(full.slice(0, 7), 0);
    expect(JSON.stringify(decoded.ok && decoded.event)).toBe(`${sessionEventJson}}`);
    expect(parsed.decodeSessionEvent(withColumn(full.slice(0, 7), 1, 'no_such_kind'))).toStrictEqual({ ok: false, reason: 'unknown kind' });
  });

  test('leaves out a null actor session key, payload and dedupe key, never parsing the null payload', () => {
    const parsePayload = jest.fn(parseJsonText);
    const values = withColumn(withColumn(withColumn(full, 3, null), 6, null), 8, null);
    const decoded = storedEventDecoders(parsePayload).decodeEvent(values);
    expect(decoded.ok && Object.keys(decoded.event)).toEqual(['sequence', 'kind', 'actorType', 'summary', 'occurredAt', 'sessionKey', 'appendedAt']);
    expect(parsePayload).not.toHaveBeenCalled();
  });

  test('reads from `offset`, after the columns a joined select puts first', () => {
    expect(parsed.decodeEvent([12, 3, ...full], 2)).toStrictEqual(parsed.decodeEvent(full, 0));
  });

  test('reads a JSON-text payload column with the adapter reader it is given', () => {
    const decoded = fromText.decodeEvent(withColumn(full, 6, '{"channel":"telegram"}'), 0);
    expect(decoded.ok && decoded.event.payload).toStrictEqual({ channel: 'telegram' });
  });

  test.each([
    ['an unknown kind', 1, 'no_such_kind', 'unknown kind'],
    ['an unknown actor type', 2, 'robot', 'unknown actor type'],
    ['a payload that is an array', 6, [1, 2], 'payload is not a JSON object'],
    ['a payload that is a string', 6, SECRET, 'payload is not a JSON object'],
  ])('refuses %s with a reason that names no stored value', (_name, index, value, reason) => {
    const decoded = parsed.decodeEvent(withColumn(full, index, value), 0);
    expect(decoded).toStrictEqual({ ok: false, reason });
    expect(JSON.stringify(decoded)).not.toContain(SECRET);
  });

  test('refuses JSON text that is not an object, or not JSON, as "payload is not a JSON object"', () => {
    for (const text of ['[1,2]', 'null', '7', `{${SECRET}`]) {
      expect(fromText.decodeEvent(withColumn(full, 6, text), 0)).toStrictEqual({ ok: false, reason: 'payload is not a JSON object' });
    }
  });
});

describe('a parsed payload column', () => {
  test('is a payload when it is a JSON object; an array, a scalar or nothing parsed is not', () => {
    const decoded = parsed.decodeEvent(withColumn(full, 6, { a: 1 }));
    expect(decoded.ok && decoded.event.payload).toStrictEqual({ a: 1 });
    for (const value of [[1], 'text', 7, true, undefined]) {
      expect(parsed.decodeEvent(withColumn(full, 6, value))).toStrictEqual({ ok: false, reason: 'payload is not a JSON object' });
    }
  });
});


// --- cursors -------------------------------------------------------------------------------

const sound = ['agent:w:main', 'agent:t:main', 3, 5, 9, 1_000, null] as const;

function collecting(): CorruptRowSink & { readonly reports: CorruptRowInfo[] } {
  const reports: CorruptRowInfo[] = [];
  return { reports, onCorruptRow: (info) => reports.push(info) };
}

describe('storedCursorProblem', () => {
  test('accepts sound values, idle (all equal) or pending', () => {
    expect(storedCursorProblem(sound)).toBeUndefined();
    expect(storedCursorProblem(['agent:w:main', 'agent:t:main', 4, 4, 4, 0, null])).toBeUndefined();
    expect(storedCursorProblem(['agent:w:main', 'agent:t:main', 3, 5, 9, 0, 1_500])).toBeUndefined();
  });

  test.each([
    ['a watcher that is not text', 0, 42, 'watcher or target is not text'],
    ['a target that is not text', 1, null, 'watcher or target is not text'],
    ['an acked that is text', 2, SECRET, 'a watermark is not a non-negative integer'],
    ['a negative notified', 3, -1, 'a watermark is not a non-negative integer'],
    ['a fractional material', 4, 9.5, 'a watermark is not a non-negative integer'],
    ['acked above notified', 2, 6, 'watermarks are out of order'],
    ['notified above material', 3, 10, 'watermarks are out of order'],
    ['a touched_at that is text', 5, SECRET, 'touched_at is not a number'],
    ['a taken_until that is text', 6, SECRET, 'taken_until is not a number'],
  ])('refuses %s with a reason that names no stored value', (_name, index, value, reason) => {
    const problem = storedCursorProblem(withColumn(sound, index, value));
    expect(problem).toBe(reason);
    expect(problem).not.toContain(SECRET);
  });

  const watermark = fc.nat();
  test.prop([watermark, watermark, watermark])('integer watermarks are accepted exactly when acked <= notified <= material', (acked, notified, material) => {
    const problem = storedCursorProblem(['agent:w:main', 'agent:t:main', acked, notified, material, 0, null]);
    expect(problem === undefined).toBe(acked <= notified && notified <= material);
  });
});

describe('storedWatermarksProblem and decodeStoredWatermarks (a pending-cursor scan reads the pair, the watermarks and the lease, no touched_at)', () => {
  const pendingRow = [...sound.slice(0, 5), null];

  test('check the pair and the watermarks exactly as storedCursorProblem does, and nothing after them', () => {
    expect(storedWatermarksProblem(pendingRow)).toBeUndefined();
    expect(storedCursorProblem(pendingRow.slice(0, 5))).toBe('touched_at is not a number');
    for (const [index, value] of [[0, 1], [2, SECRET], [3, 2], [4, 4]] as const) {
      const row = withColumn(pendingRow, index, value);
      expect(storedWatermarksProblem(row)).toBeDefined();
      expect(storedWatermarksProblem(row)).toBe(storedCursorProblem(withColumn(sound, index, value)));
    }
  });

  test('give the watermarks, or undefined after one report naming the operation and the check', () => {
    const sink = collecting();
    expect(decodeStoredWatermarks(sink, 'restartScan', pendingRow)).toStrictEqual({ acked: 3, notified: 5, material: 9 });
    expect(decodeStoredWatermarks(sink, 'restartScan', withColumn(pendingRow, 5, 1_500))).toStrictEqual({ acked: 3, notified: 5, material: 9, takenUntil: 1_500 });
    expect(decodeStoredWatermarks(sink, 'pendingNotices', withColumn(pendingRow, 2, 7))).toBeUndefined();
    expect(sink.reports).toEqual([{ operation: 'pendingNotices', table: 'cursors', reason: 'watermarks are out of order' }]);
  });
});

describe('decodeStoredCursor and decodeStoredCursors', () => {
  test('sound values become the CursorRow, reporting nothing', () => {
    const sink = collecting();
    expect(decodeStoredCursor(sink, 'drain', sound)).toStrictEqual({
      watcher: 'agent:w:main',
      target: 'agent:t:main',
      acked: 3,
      notified: 5,
      material: 9,
      touchedAt: 1_000,
    });
    expect(sink.reports).toEqual([]);
  });

  test('corrupt values are left out in order and each reported with the operation and the check, never the content', () => {
    const sink = collecting();
    const other = withColumn(sound, 0, 'agent:o:main');
    const rows = [withColumn(sound, 2, SECRET), other, withColumn(sound, 4, 1), sound];
    expect(decodeStoredCursors(sink, 'listCursors', rows).map((row) => row.watcher)).toEqual(['agent:o:main', 'agent:w:main']);
    expect(sink.reports).toEqual([
      { operation: 'listCursors', table: 'cursors', reason: 'a watermark is not a non-negative integer' },
      { operation: 'listCursors', table: 'cursors', reason: 'watermarks are out of order' },
    ]);
    expect(JSON.stringify(sink.reports)).not.toContain(SECRET);
  });

  test('one corrupt row is undefined after one report', () => {
    const sink = collecting();
    expect(decodeStoredCursor(sink, 'drain', withColumn(sound, 5, 'x'))).toBeUndefined();
    expect(sink.reports).toEqual([{ operation: 'drain', table: 'cursors', reason: 'touched_at is not a number' }]);
  });
});

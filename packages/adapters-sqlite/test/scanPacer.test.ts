// The restart scan's pacer sizes each chunk so a page (its commit included) fits its wall-time
// budget, from the times it is told (no clock here): it reserves the commit, ends a page when a
// minimum chunk no longer fits, always lets a page read one chunk, and believes a slow chunk only
// by a quarter so one slow statement does not shrink the pages after it to a minimum chunk each.
import { createScanPacer } from '../src/scanPacer.js';

const options = { budgetMs: 5, firstRows: 100, minRows: 20, maxRows: 1000 };

test('the first chunk reads firstRows; later chunks fill what is left of the budget at the measured cost per row', () => {
  const pacer = createScanPacer(options);
  expect(pacer.nextChunk(0)).toBe(100);
  pacer.chunkTook(100, 1); // 0.01 ms a row
  expect(pacer.nextChunk(1)).toBe(400);
  expect(pacer.nextChunk(0)).toBe(500);
});

test('the commit is reserved out of the budget', () => {
  const pacer = createScanPacer(options);
  pacer.chunkTook(100, 1);
  pacer.commitTook(2);
  expect(pacer.nextChunk(1)).toBe(200);
});

test('a page commits once a minimum chunk no longer fits, but the first chunk of a page is never empty', () => {
  const pacer = createScanPacer(options);
  pacer.chunkTook(100, 10); // 0.1 ms a row: 20 rows take 2 ms
  expect(pacer.nextChunk(3)).toBe(20);
  expect(pacer.nextChunk(3.5)).toBe(0);
  pacer.commitTook(10); // a commit longer than the whole budget
  expect(pacer.nextChunk(0)).toBe(20);
});

test('a chunk reads at most maxRows', () => {
  const pacer = createScanPacer(options);
  pacer.chunkTook(1000, 0.1);
  expect(pacer.nextChunk(0)).toBe(1000);
});

test('a slow chunk raises the cost per row by a quarter of the difference; a fast one lowers it at once', () => {
  const pacer = createScanPacer(options);
  pacer.chunkTook(100, 1); // 0.01 ms a row
  pacer.chunkTook(100, 41); // one slow statement: 0.41 ms a row measured, 0.11 believed
  expect(pacer.nextChunk(0)).toBe(Math.floor(5 / 0.11));
  pacer.chunkTook(100, 0.5); // 0.005 ms a row
  expect(pacer.nextChunk(0)).toBe(1000);
});

test('a slow commit is believed by a quarter too', () => {
  const pacer = createScanPacer(options);
  pacer.chunkTook(100, 1);
  pacer.commitTook(1);
  pacer.commitTook(9); // believed: 1 + 8 / 4 = 3 ms
  expect(pacer.nextChunk(0)).toBe(200);
});

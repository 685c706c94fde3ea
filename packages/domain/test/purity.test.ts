// Keeps packages/domain/src pure: it imports only fp-ts, io-ts and its own files, and never
// reads the clock, randomness or the process.
import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { importSpecifiers, purityViolations } from './support/purity.js';

const SRC = path.join(__dirname, '..', 'src');

/** Every source file of the domain (co-located tests are not part of the built core). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|js|mts|cts)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('packages/domain/src is pure', () => {
  const files = sourceFiles(SRC);

  test('the scan finds the domain sources, ports included', () => {
    const names = files.map((f) => path.relative(SRC, f).split(path.sep).join('/'));
    expect(names).toEqual(expect.arrayContaining(['cursor/cursor.ts', 'index.ts', 'ports/stateStore.port.ts']));
  });

  test('no file imports anything but fp-ts, io-ts or relative files, or uses Date.now, Math.random, process., require( or node:', () => {
    const violations = files.flatMap((file) =>
      purityViolations(readFileSync(file, 'utf8')).map((v) => `${path.relative(SRC, file)}: ${v}`),
    );
    expect(violations).toStrictEqual([]);
  });
});

describe('the purity checker', () => {
  test.each([
    ["import * as E from 'fp-ts/Either';", []],
    ["import * as t from 'io-ts';", []],
    ["import { pipe } from 'fp-ts/function';", []],
    ["import type { Cursor } from './cursor';", []],
    ["export { noticeText } from '../notice';", []],
    ['const at = new Date(ms).toISOString();', []],
    ['// never call Date.now() here', []],
    ["import fs from 'fs';", ["imports 'fs'"]],
    ["import { readFileSync } from 'node:fs';", ["imports 'node:fs'", 'uses node: import']],
    ["import type { Config } from 'jest';", ["imports 'jest'"]],
    ["export * from 'fp-ts-extra';", ["imports 'fp-ts-extra'"]],
    ["const m = await import('crypto');", ["imports 'crypto'"]],
    ["const m = require('./cursor');", ['uses require(']],
    ['const t = Date.now();', ['uses Date.now']],
    ['const r = Math.random();', ['uses Math.random']],
    ["const e = process.env['X'];", ['uses process.']],
  ])('%s -> %p', (source, expected) => {
    expect(purityViolations(source)).toStrictEqual(expected);
  });

  test('reads multi-line imports', () => {
    expect(importSpecifiers("import {\n  a,\n  b,\n} from 'better-sqlite3';")).toStrictEqual(['better-sqlite3']);
  });
});

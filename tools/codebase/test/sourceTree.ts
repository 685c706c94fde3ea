// The repository's files as git lists them, and a small lexer that splits each source line into
// its code and its comment, for the codebase checks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The core library: domain, stores, shared SQL, app. */
export const CORE_PACKAGES = ['domain', 'adapters-memory', 'adapters-sql-common', 'adapters-sqlite', 'adapters-postgres', 'app'];

export const REPO_ROOT = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: __dirname, encoding: 'utf8' }).trim();

/** Tracked files plus untracked, not ignored ones (in a clean clone: exactly `git ls-files`), that exist. */
export function gitFiles(...patterns: string[]): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...patterns], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return [...new Set(out.split('\n').filter((file) => file !== ''))].filter((file) => fs.existsSync(path.join(REPO_ROOT, file))).sort();
}

export const readRepoFile = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** Lines as `wc -l` counts them: newline characters. */
export const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

export const isTest = (file: string): boolean => file.includes('/test/') || file.includes('.test.');
export const isGeneratedMigration = (file: string): boolean => file.endsWith('migrations/generated.ts');

/** `packages/<name>/src/...` source files (TypeScript and JavaScript), tests and generated migrations left out. */
export function packageSources(): string[] {
  return gitFiles('packages/*/src/*').filter((file) => /\.(ts|js|mjs|cjs)$/.test(file) && !isTest(file) && !isGeneratedMigration(file));
}

export const packageOf = (file: string): string => file.split('/')[1] ?? '';

export interface SourceLine {
  readonly number: number;
  /** The line's code, strings included, comments removed. */
  readonly code: string;
  /** The line's comment text, markers included; '' when it has none. */
  readonly comment: string;
}

const REGEX_AFTER = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
const REGEX_AFTER_WORDS = /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;

/** Splits TypeScript or JavaScript source into lines of code and comment (strings, templates and regex literals are code). */
export function sourceLines(text: string): SourceLine[] {
  const lines: { code: string; comment: string }[] = [{ code: '', comment: '' }];
  let line = lines[0]!;
  type Mode = 'code' | 'line' | 'block' | "'" | '"' | '`' | 'regex';
  let mode: Mode = 'code';
  const templateDepths: number[] = [];
  let braceDepth = 0;
  let inClass = false;
  let lastSignificant = '';
  const emit = (ch: string, to: 'code' | 'comment'): void => {
    line[to] += ch;
  };
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    const next = text[i + 1] ?? '';
    if (ch === '\n') {
      if (mode === 'line') mode = 'code';
      line = { code: '', comment: '' };
      lines.push(line);
      continue;
    }
    switch (mode) {
      case 'line':
        emit(ch, 'comment');
        break;
      case 'block':
        emit(ch, 'comment');
        if (ch === '*' && next === '/') {
          emit(next, 'comment');
          i += 1;
          mode = 'code';
        }
        break;
      case "'":
      case '"':
        emit(ch, 'code');
        if (ch === '\\' && next !== '\n') {
          emit(next, 'code');
          i += 1;
        } else if (ch === mode) mode = 'code';
        break;
      case '`':
        emit(ch, 'code');
        if (ch === '\\' && next !== '\n') {
          emit(next, 'code');
          i += 1;
        } else if (ch === '`') mode = 'code';
        else if (ch === '$' && next === '{') {
          emit(next, 'code');
          i += 1;
          templateDepths.push(braceDepth);
          braceDepth += 1;
          mode = 'code';
        }
        break;
      case 'regex':
        emit(ch, 'code');
        if (ch === '\\' && next !== '\n') {
          emit(next, 'code');
          i += 1;
        } else if (ch === '[') inClass = true;
        else if (ch === ']') inClass = false;
        else if (ch === '/' && !inClass) {
          mode = 'code';
          lastSignificant = 'x';
        }
        break;
      case 'code':
        if (ch === '/' && next === '/') {
          mode = 'line';
          emit(ch, 'comment');
          break;
        }
        if (ch === '/' && next === '*') {
          mode = 'block';
          emit(ch + next, 'comment');
          i += 1;
          break;
        }
        emit(ch, 'code');
        if (/\s/.test(ch)) break;
        if (ch === "'" || ch === '"' || ch === '`') mode = ch;
        else if (ch === '/') {
          const before = line.code.slice(0, -1).trimEnd();
          if (REGEX_AFTER.has(lastSignificant) || REGEX_AFTER_WORDS.test(before)) {
            mode = 'regex';
            inClass = false;
          }
        } else if (ch === '{') braceDepth += 1;
        else if (ch === '}') {
          braceDepth -= 1;
          if (templateDepths.length > 0 && templateDepths[templateDepths.length - 1] === braceDepth) {
            templateDepths.pop();
            mode = '`';
          }
        }
        lastSignificant = ch === ')' || ch === ']' || /[\w$]/.test(ch) ? 'x' : ch;
        break;
    }
  }
  if (text.endsWith('\n')) lines.pop();
  return lines.map((l, index) => ({ number: index + 1, code: l.code.trim() === '' ? '' : l.code, comment: l.comment.trim() }));
}

export interface CommentCounts {
  readonly commentLines: number;
  readonly codeLines: number;
}

/** A comment line holds a comment and no code (`/**` and `*\/` lines included); a code line holds code. */
export function commentCounts(lines: readonly SourceLine[]): CommentCounts {
  let commentLines = 0;
  let codeLines = 0;
  for (const l of lines) {
    if (l.code !== '') codeLines += 1;
    else if (l.comment !== '') commentLines += 1;
  }
  return { commentLines, codeLines };
}

// Size limits of the source tree: file length, folder width, and the line budgets of the core
// library and of all source.
import { CORE_PACKAGES, gitFiles, isGeneratedMigration, isTest, lineCount, packageSources, readRepoFile } from './sourceTree';

/** The longest a source file in packages/<name>/src may be, in lines. */
const MAX_FILE_LINES = 300;
/** The most entries (files and folders) any folder under packages/<name>/src may hold. */
const MAX_FOLDER_ENTRIES = 15;
/** The core library's line budget: every counted file in the CORE_PACKAGES. */
const CORE_LINE_BUDGET = 9_500;
/** The line budget of all counted source in the repository. */
const ALL_SOURCE_LINE_BUDGET = 20_000;
/** What the budgets count: `git ls-files` of these patterns ... */
const COUNTED_PATTERNS = ['*.ts', '*.js', '*.mjs', '*.cjs'];
/** ... less tests, the generated API docs, generated migrations and Jest configuration. */
const isJestConfig = (file: string): boolean => /(^|\/)jest\.(config|preset)\.[cm]?[jt]s$/.test(file) || file.startsWith('tools/jest/');
const isCounted = (file: string): boolean => !isTest(file) && !file.startsWith('docs/api/') && !isGeneratedMigration(file) && !isJestConfig(file);

const listing = (rows: readonly string[]): string => rows.map((row) => `  ${row}`).join('\n');

test(`no source file in packages/*/src is over ${MAX_FILE_LINES} lines`, () => {
  const tooLong = packageSources()
    .map((file) => ({ file, lines: lineCount(readRepoFile(file)) }))
    .filter(({ lines }) => lines > MAX_FILE_LINES)
    .sort((a, b) => b.lines - a.lines)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(tooLong.length === 0 ? 'none' : `${tooLong.length} files over ${MAX_FILE_LINES} lines:\n${listing(tooLong)}`).toBe('none');
});

test(`no folder under packages/*/src has more than ${MAX_FOLDER_ENTRIES} entries`, () => {
  const entries = new Map<string, Set<string>>();
  for (const file of gitFiles('packages/*/src/*')) {
    const parts = file.split('/');
    for (let depth = 3; depth < parts.length; depth += 1) {
      const folder = parts.slice(0, depth).join('/');
      const entry = parts[depth]!;
      entries.set(folder, (entries.get(folder) ?? new Set()).add(entry));
    }
  }
  const tooWide = [...entries]
    .filter(([, names]) => names.size > MAX_FOLDER_ENTRIES)
    .sort((a, b) => b[1].size - a[1].size)
    .map(([folder, names]) => `${folder}/: ${names.size} entries`);
  expect(tooWide.length === 0 ? 'none' : `${tooWide.length} folders over ${MAX_FOLDER_ENTRIES} entries:\n${listing(tooWide)}`).toBe('none');
});

describe('line budgets (git ls-files *.ts *.js *.mjs *.cjs, less tests, docs/api, generated migrations, jest configs)', () => {
  const counted = gitFiles(...COUNTED_PATTERNS)
    .filter(isCounted)
    .map((file) => ({ file, lines: lineCount(readRepoFile(file)) }));
  const byTop = (files: typeof counted, depth: number): string[] => {
    const sums = new Map<string, number>();
    for (const { file, lines } of files) {
      const key = file.split('/').slice(0, depth).join('/');
      sums.set(key, (sums.get(key) ?? 0) + lines);
    }
    return [...sums].sort((a, b) => b[1] - a[1]).map(([key, lines]) => `${key}: ${lines}`);
  };


  test(`the core library (${CORE_PACKAGES.join(', ')}) is at most ${CORE_LINE_BUDGET} lines`, () => {
    const core = counted.filter(({ file }) => CORE_PACKAGES.some((name) => file.startsWith(`packages/${name}/`)));
    const total = core.reduce((sum, { lines }) => sum + lines, 0);
    const most = CORE_LINE_BUDGET;
    expect(total <= most ? 'within' : `core library ${total} lines > ${most}:\n${listing(byTop(core, 2))}`).toBe('within');
  });

  test(`all source is at most ${ALL_SOURCE_LINE_BUDGET} lines`, () => {
    const total = counted.reduce((sum, { lines }) => sum + lines, 0);
    const most = ALL_SOURCE_LINE_BUDGET;
    expect(total <= most ? 'within' : `all source ${total} lines > ${most}:\n${listing(byTop(counted, 2))}`).toBe('within');
  });
});

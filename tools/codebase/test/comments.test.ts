// Comment checks: how much comment the core carries, and that no comment cites an issue, a bench
// workload or a measured figure (figures live in docs/decisions/).
import { commentCounts, CORE_PACKAGES, packageOf, packageSources, readRepoFile, sourceLines, type SourceLine } from './sourceTree';

/** The most comment lines per code line in each core package's src. */
const MAX_COMMENT_RATIO = 0.25;
/** How many of a package's most commented files a ratio failure lists. */
const FILES_LISTED = 12;

/** Citations no comment may make: an issue number, a bench workload. */
const CITATIONS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: 'issue number', pattern: /\bissues?\s*#?\d+/i },
  { what: 'issue number', pattern: /(?:^|[^\w&])#\d+\b/ },
  { what: 'bench workload', pattern: /\bw\d+[a-z]?\b/ },
  { what: 'bench workload', pattern: /\bpg\d+[a-z]?\b/ },
  { what: 'bench workload', pattern: /\b(?:workloads?|bench)\s+\d+[a-z]?\b/i },
  { what: 'bench workload', pattern: /--only\s+\d/ },
];
/** A time or a percentage: `0.33 s`, `27 %`, `10 ms`, `1 µs`, or a range of them (`9–60 ms`: always a measurement). */
const FIGURE = /(\d[\d,_]*(?:\.\d+)?\s?[–-]\s?)?(\d[\d,_]*(?:\.\d+)?)\s?(ms|s|µs|us|%)(?![\w])/g;
/** Words just before a figure that make it a measurement whatever else holds: an estimate, an observation. */
const MEASURED_BEFORE = /(?:~|≈|\b(?:about|around|roughly|some|nearly|almost|took|saw|measured))\s*$/i;
/** A comment that states a default is describing configuration. */
const STATES_DEFAULT = /\bdefault\b/i;
/** A comment describing a constant or option named for its unit (`GRACE_MS`, `pollMs`) gives a configured value. */
const UNIT_NAMED_DECLARATION = /\b\w*(?:_MS|Ms|_S|_SECONDS|Seconds|_PERCENT|Percent)\b\??\s*[:=]/;
const MS_PER_UNIT: Record<string, number> = { ms: 1, s: 1000, µs: 0.001, us: 0.001 };
/** Configured values are compared with the file's numeric literals only from this size up (a literal 1 or 2 proves nothing). */
const MIN_LITERAL_MATCH = 10;

const withoutCodeSpans = (comment: string): string => comment.replace(/`[^`]*`/g, '``');

/** The numeric literals of a file's code, as numbers. */
function numericLiterals(lines: readonly SourceLine[]): Set<number> {
  const numbers = new Set<number>();
  for (const l of lines) for (const m of l.code.matchAll(/(?<![\w.])\d[\d_]*(?:\.\d+)?/g)) numbers.add(Number(m[0].replace(/_/g, '')));
  return numbers;
}

/** The code line a comment line belongs to: its own, or the first line after its comment block. */
function attachedCode(lines: readonly SourceLine[], index: number): string {
  if (lines[index]!.code !== '') return lines[index]!.code;
  let i = index;
  while (i < lines.length && lines[i]!.code === '' && lines[i]!.comment !== '') i += 1;
  return lines[i]?.code ?? '';
}

function figureIsConfigured(value: number, unit: string, literals: Set<number>): boolean {
  if (unit === '%') return (value >= MIN_LITERAL_MATCH && literals.has(value)) || literals.has(value / 100);
  const ms = value * (MS_PER_UNIT[unit] ?? 1);
  return ms >= MIN_LITERAL_MATCH && literals.has(ms);
}

/** The offending citations and measured figures of one file's comments. */
export function commentFindings(file: string, text: string): string[] {
  const lines = sourceLines(text);
  const literals = numericLiterals(lines);
  const findings: string[] = [];
  lines.forEach((l, index) => {
    if (l.comment === '') return;
    const where = `${file}:${l.number}`;
    for (const { what, pattern } of CITATIONS) {
      const m = pattern.exec(l.comment);
      if (m !== null) findings.push(`${where}: ${what} "${m[0].trim()}": ${l.comment}`);
    }
    const comment = withoutCodeSpans(l.comment);
    for (const m of comment.matchAll(FIGURE)) {
      const value = Number(m[2]!.replace(/[,_]/g, ''));
      const unit = m[3]!;
      const estimated = m[1] !== undefined || MEASURED_BEFORE.test(comment.slice(0, m.index));
      const configured = STATES_DEFAULT.test(comment) || UNIT_NAMED_DECLARATION.test(attachedCode(lines, index)) || figureIsConfigured(value, unit, literals);
      if (estimated || !configured) findings.push(`${where}: measured figure "${m[0]}": ${l.comment}`);
    }
  });
  return findings;
}

test(`each core package's src has at most ${MAX_COMMENT_RATIO} comment lines per code line`, () => {
  const over: string[] = [];
  for (const name of CORE_PACKAGES) {
    const files = packageSources()
      .filter((file) => packageOf(file) === name)
      .map((file) => ({ file, ...commentCounts(sourceLines(readRepoFile(file))) }));
    const comments = files.reduce((sum, f) => sum + f.commentLines, 0);
    const code = files.reduce((sum, f) => sum + f.codeLines, 0);
    if (code === 0 || comments / code <= MAX_COMMENT_RATIO) continue;
    over.push(`packages/${name}: ${comments} comment lines / ${code} code lines = ${(comments / code).toFixed(2)}; most commented:`);
    for (const f of [...files].sort((a, b) => b.commentLines - a.commentLines).slice(0, FILES_LISTED)) {
      over.push(`    ${f.file}: ${f.commentLines} comment / ${f.codeLines} code (${(f.commentLines / Math.max(1, f.codeLines)).toFixed(2)})`);
    }
  }
  expect(over.length === 0 ? 'none' : `core packages over ${MAX_COMMENT_RATIO} comment lines per code line:\n  ${over.join('\n  ')}`).toBe('none');
});

test('no comment in packages/*/src cites an issue number, a bench workload or a measured time or percentage', () => {
  const findings = packageSources().flatMap((file) => commentFindings(file, readRepoFile(file)));
  expect(findings.length === 0 ? 'none' : `${findings.length} findings in comments: what belongs in docs/decisions/ or the issue tracker:\n  ${findings.join('\n  ')}`).toBe('none');
});

describe('the citation rules tell configuration from measurement', () => {
  const check = (source: string): string[] => commentFindings('x.ts', source);
  test.each([
    ['a unit-named constant', '/** How long a closing watch may finish: 5 s grace. */\nconst CLOSE_GRACE_MS = 5_000;\n'],
    ['a default', '  /** How long a connect may take; default 10000 ms. */\n  connectTimeoutMs?: number;\n'],
    ['a value the code sets', '// polling the store every 200 ms\nconst POLL = 200;\n'],
    ['a code span', '/** A duration: `45s` or `500ms`. */\nexport const x = 1;\n'],
    ['a figure in a string', "const s = 'took 5 ms'; // a label\n"],
  ])('allows %s', (_what, source) => expect(check(source)).toEqual([]));
  test.each([
    ['a measured time', '// a count(*) per batch read every row: 7.7 ms at 1,000,000 rows\nconst x = 1;\n'],
    ['a range', '// fsync took 9–60 ms a batch\nconst WAIT_MS = 60;\n'],
    ['an estimate', '/** a read is about 1 µs */\nconst READ_MS = 1;\n'],
    ['a percentage', '// one-record commits were 15% slower\nconst x = 1;\n'],
    ['an issue number', '// Unwatch (issue 15): removes the cursor\nconst x = 1;\n'],
    ['a hash issue number', '// see #15\nconst x = 1;\n'],
    ['a workload', '// measurable on (w7)\nconst x = 1;\n'],
    ['a bench workload by number', '// bench 8 saw long turns\nconst x = 1;\n'],
    ['a PostgreSQL workload', '// CPU profile (bench pg8).\nconst x = 1;\n'],
  ])('flags %s', (_what, source) => expect(check(source)).not.toEqual([]));
});

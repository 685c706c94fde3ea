// One name per concept (docs/contract.md's vocabulary): the retired names may not appear in the
// code of packages/*/src (comments are the comment checks' business).
import { packageSources, readRepoFile, sourceLines } from './sourceTree';

/** Names the code may not use, and the contract's word for each. */
const RETIRED_NAMES: readonly { readonly pattern: RegExp; readonly use: string }[] = [
  // `recover`, `recoverPending`, `'./recover.js'`, `RecoverOptions`, `Recovery`. The contract's
  // `notice_recovered` event, the `'recovered'` notice reason and `noticesRecovered` stay: they
  // name what the restart scan queued.
  { pattern: /\brecover(?![a-z])|Recover(?!ed\b)/, use: 'restart scan' },
  { pattern: /ReadAck/, use: 'acked (a reader acknowledging its cursor)' },
  { pattern: /lagging/i, use: 'pending (material above notified) or behind the head' },
];
/**
 * Names stored in every gateway's database by a shipped migration: renaming one costs a migration
 * on every state file and schema for no change of behaviour, so the schema keeps them.
 */
const STORED_NAMES = /index\('cursors_lagging'\)/;
/** A quoted `unwatched`: allowed as an EndReason and as the contract's record skip reason only. */
const UNWATCHED_LITERAL = /(['"`])unwatched\1/;
/** Code near the literal (its line and the lines before it) that makes it one of the two allowed uses. */
const UNWATCHED_CONTEXT = /EndReason|watch_ended|[Rr]emoval|skipped/;
const CONTEXT_LINES = 3;

/** The retired names in one file's code. */
export function lexiconFindings(file: string, text: string): string[] {
  const findings: string[] = [];
  const lines = sourceLines(text);
  lines.forEach((l, index) => {
    if (l.code === '' || STORED_NAMES.test(l.code)) return;
    for (const { pattern, use } of RETIRED_NAMES) {
      const m = pattern.exec(l.code);
      if (m !== null) findings.push(`${file}:${l.number}: "${m[0]}" (say: ${use}): ${l.code.trim()}`);
    }
    if (!UNWATCHED_LITERAL.test(l.code)) return;
    const near = lines.slice(Math.max(0, index - CONTEXT_LINES + 1), index + 1).map((x) => x.code).join('\n');
    if (!UNWATCHED_CONTEXT.test(near)) findings.push(`${file}:${l.number}: 'unwatched' outside an EndReason: ${l.code.trim()}`);
  });
  return findings;
}

test('the code of packages/*/src uses none of the retired names', () => {
  const findings = packageSources().flatMap((file) => lexiconFindings(file, readRepoFile(file)));
  expect(findings.length === 0 ? 'none' : `${findings.length} uses of retired names:\n  ${findings.join('\n  ')}`).toBe('none');
});

describe('the lexicon rules', () => {
  test.each([
    ['the contract\'s notice_recovered event', "export const NoticeRecovered = t.literal('notice_recovered');\n"],
    ['the noticesRecovered metric', "counters.add('noticesRecovered');\n"],
    ['a retired name in a comment', '// the old recover() pass\nconst x = 1;\n'],
    ['unwatched as an EndReason', "journalRemoval(db, 'unwatch', rows, 'unwatched', now);\n"],
    ['the index name a shipped migration stored', "index('cursors_lagging')\n"],
    ['unwatched as the record skip reason', "return { type: 'skipped', reason: 'unwatched' };\n"],
  ])('allow %s', (_what, source) => expect(lexiconFindings('x.ts', source)).toEqual([]));
  test.each([
    ['recover()', 'await recover(db, now);\n'],
    ['a recover module', "import { scan } from './recover.js';\n"],
    ['recoverPage', 'const page = await recoverPage(db);\n'],
    ['ReadAck', 'const plan = planReadAck(input);\n'],
    ['lagging', 'const laggingCursors = await pending(db);\n'],
    ['unwatched as another state', "const state = 'unwatched';\n"],
  ])('flag %s', (_what, source) => expect(lexiconFindings('x.ts', source)).not.toEqual([]));
});

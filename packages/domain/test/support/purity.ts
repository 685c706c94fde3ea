// The purity rules of packages/domain/src as a checker over source text: allowed imports and
// forbidden ambient calls (clock, randomness, process, require, node built-ins).

/** Module specifiers the domain may import: fp-ts, io-ts (and subpaths) or its own files. */
export function isAllowedImport(specifier: string): boolean {
  return (
    /^(fp-ts|io-ts)(\/.*)?$/.test(specifier) || specifier.startsWith('./') || specifier.startsWith('../')
  );
}

/** Tokens the domain must not use; `new Date(ms)` to format a given time is fine. */
export const FORBIDDEN_TOKENS: readonly { readonly name: string; readonly pattern: RegExp }[] = [
  { name: 'Date.now', pattern: /\bDate\s*\.\s*now\b/ },
  { name: 'Math.random', pattern: /\bMath\s*\.\s*random\b/ },
  { name: 'process.', pattern: /\bprocess\s*\./ },
  { name: 'require(', pattern: /\brequire\s*\(/ },
  { name: 'node: import', pattern: /['"`]node:/ },
];

/** Drops comments so prose about a rule ("never Date.now") does not trip it. */
export function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Every module specifier the source imports or re-exports, statically or dynamically. */
export function importSpecifiers(source: string): string[] {
  const code = stripComments(source);
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"`]([^'"`]+)['"`]/g,
    /\bexport\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"`]([^'"`]+)['"`]/g,
    /\bimport\s*['"`]([^'"`]+)['"`]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]/g,
    /\brequire\s*\(\s*['"`]([^'"`]+)['"`]/g,
  ];
  return patterns.flatMap((pattern) => Array.from(code.matchAll(pattern), (m) => m[1] ?? ''));
}

/** The purity violations of one source file, as readable lines (empty when pure). */
export function purityViolations(source: string): string[] {
  const code = stripComments(source);
  const imports = importSpecifiers(source)
    .filter((specifier) => !isAllowedImport(specifier))
    .map((specifier) => `imports '${specifier}'`);
  const tokens = FORBIDDEN_TOKENS.filter(({ pattern }) => pattern.test(code)).map(({ name }) => `uses ${name}`);
  return [...imports, ...tokens];
}

#!/usr/bin/env node
// Rewrites the import specifiers of the TypeScript sources for Node's ESM resolution, in place:
// a relative specifier gets its file's `.js` (`./x` -> `./x.js`, a directory `./d` -> `./d/index.js`),
// and a deep import into a package without an `exports` map gets its file (`fp-ts/Either` ->
// `fp-ts/lib/Either.js`). Idempotent: a specifier that already names a file is left alone, so it
// can be re-run after merging branches that add imports. Covers import/export declarations,
// `import('…')` calls and `import('…')` types in packages/*/{src,test} and bench/src.
// Usage: node tools/esm/addJsExtensions.mjs [--check]   (--check: list what would change, exit 1 if any)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const ts = createRequire(path.join(ROOT, 'package.json'))('typescript');
const check = process.argv.includes('--check');

/** Bare deep imports into packages that have no `exports` map, and the folder their CommonJS files live in. */
const DEEP_IMPORTS = { 'fp-ts': 'lib', 'io-ts': 'lib' };

function* tsFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') yield* tsFiles(full);
    } else if (/\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

function rewrite(file, specifier) {
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    if (/\.(js|mjs|cjs|json|node)$/.test(specifier)) return specifier;
    const target = path.resolve(path.dirname(file), specifier);
    if (fs.existsSync(`${target}.ts`) || fs.existsSync(`${target}.js`)) return `${specifier}.js`;
    if (fs.existsSync(path.join(target, 'index.ts'))) return `${specifier.replace(/\/$/, '')}/index.js`;
    console.warn(`${path.relative(ROOT, file)}: cannot resolve ${specifier}; left as it is`);
    return specifier;
  }
  const [, pkg, rest] = /^((?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(specifier) ?? [];
  const folder = pkg && DEEP_IMPORTS[pkg];
  if (folder === undefined || /\.(js|json)$/.test(rest)) return specifier;
  return `${pkg}/${rest.startsWith(`${folder}/`) ? rest : `${folder}/${rest}`}.js`;
}

function specifierNodes(source) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const roots = [
  ...fs.readdirSync(path.join(ROOT, 'packages')).flatMap((p) => ['src', 'test'].map((d) => path.join(ROOT, 'packages', p, d))),
  path.join(ROOT, 'bench', 'src'),
];
let changedFiles = 0;
for (const root of roots) {
  for (const file of tsFiles(root)) {
    const text = fs.readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const edits = specifierNodes(source)
      .map((node) => ({ start: node.getStart(source) + 1, end: node.getEnd() - 1, from: node.text, to: rewrite(file, node.text) }))
      .filter((edit) => edit.to !== edit.from)
      .sort((a, b) => b.start - a.start);
    if (edits.length === 0) continue;
    changedFiles += 1;
    if (check) {
      for (const edit of edits) console.log(`${path.relative(ROOT, file)}: ${edit.from} -> ${edit.to}`);
      continue;
    }
    let out = text;
    for (const edit of edits) out = out.slice(0, edit.start) + edit.to + out.slice(edit.end);
    fs.writeFileSync(file, out);
  }
}
console.log(`${changedFiles} file(s) ${check ? 'would change' : 'rewritten'}`);
if (check && changedFiles > 0) process.exitCode = 1;

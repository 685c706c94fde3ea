// Prints the fenced code block of one language between the README's `<!-- NAME:start -->` and
// `<!-- NAME:end -->` markers, exactly as written: the install test runs what the README says.
// Usage: node readmeBlock.mjs README.md NAME LANG
import { readFileSync } from 'node:fs';

const [readmePath, name, lang] = process.argv.slice(2);
const readme = readFileSync(readmePath, 'utf8');
const section = new RegExp(`<!-- ${name}:start -->([\\s\\S]*?)<!-- ${name}:end -->`).exec(readme)?.[1];
const code = section && new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1];
if (!code) {
  console.error(`README.md has no \`\`\`${lang} block between the ${name} markers`);
  process.exit(1);
}
process.stdout.write(code);

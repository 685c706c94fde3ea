// The SQL text a store prepares at open is statements.generated.json, rendered from the drizzle
// queries of src/sql/: the queries stay the one source of the SQL, and this fails when the committed
// file is not what they render now.
import fs from 'node:fs';
import path from 'node:path';

import { renderedStatementsText } from '../src/sql/render.js';

test('statements.generated.json is what the queries render (else run npm run statements:render:sqlite)', () => {
  const committed = fs.readFileSync(path.join(__dirname, '..', 'src', 'statements.generated.json'), 'utf8');
  expect(committed).toBe(renderedStatementsText());
});

#!/usr/bin/env bash
# The install-like-a-user test: packs every publishable package (npm pack), installs the tarballs
# into a scratch project outside the repository the way the README's "Use it in your gateway"
# says (npm install ./session-state-*.tgz; third-party dependencies come from the npm registry or
# its cache), compiles a tiny TypeScript gateway against them with strict and skipLibCheck: false
# (and checks that no drizzle, better-sqlite3 or pg declaration is part of that compile), runs it
# on the memory, SQLite and (when SESSION_STATE_PG_URL is set) PostgreSQL stores, runs the
# README's gateway.js, `npx session-state --help`, `npx session-state demo` and `inspect` there, and checks
# that a PostgreSQL-only gateway installs no better-sqlite3. Ends with one line: PASS or FAIL.
# Usage: tools/installTest/run.sh (after npm install; it builds first). KEEP=1 keeps the scratch folder.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TEMPLATE="$ROOT/tools/installTest/gateway"
PACKAGES=(domain adapters-memory adapters-sql-common adapters-sqlite adapters-postgres app prometheus inspector cli)
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/session-state-install-test.XXXXXX")"
PG_SCHEMA="install_test_$$"
STEP="start"

finish() {
  local status=$?
  if [[ -n "${SESSION_STATE_PG_URL:-}" ]] && command -v psql >/dev/null; then
    psql -q "$SESSION_STATE_PG_URL" -c "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE" >/dev/null 2>&1 || true
  fi
  if [[ $status -eq 0 ]]; then
    [[ "${KEEP:-}" == 1 ]] || rm -rf "$SCRATCH"
    echo "install test: PASS"
  else
    echo "install test: FAIL at: $STEP (scratch folder kept: $SCRATCH)"
  fi
}
trap finish EXIT

step() {
  STEP="$1"
  echo "--- $1"
}

step "build"
(cd "$ROOT" && npm run build --silent)

step "npm pack every publishable package"
PACK_JSON="$SCRATCH/pack.json"
mkdir "$SCRATCH/gateway"
(cd "$ROOT" && npm pack --silent --json --pack-destination "$SCRATCH/gateway" "${PACKAGES[@]/#/--workspace=packages/}" >"$PACK_JSON")
node -e '
  const packs = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  for (const p of packs) console.log(`${p.filename.padEnd(46)} ${String(p.entryCount).padStart(4)} files ${(p.size / 1024).toFixed(1).padStart(7)} kB packed ${(p.unpackedSize / 1024).toFixed(1).padStart(7)} kB unpacked`);
' "$PACK_JSON"

step "install the tarballs into a scratch project outside the repository ($SCRATCH/gateway)"
cd "$SCRATCH/gateway"
npm init -y >/dev/null
npm install --no-audit --no-fund --prefer-offline ./session-state-*.tgz
cp -R "$TEMPLATE/." .
npm install --no-audit --no-fund --prefer-offline --save-dev "typescript@$(node -p "require('$ROOT/node_modules/typescript/package.json').version")" "@types/node@^20"
test -x node_modules/.bin/session-state

step "compile the gateway: strict, skipLibCheck false (moduleResolution node, then nodenext)"
npx tsc -p tsconfig.json
npx tsc -p tsconfig.nodenext.json
LEAKED="$(npx tsc -p tsconfig.json --noEmit --listFilesOnly | grep -E '/node_modules/(drizzle-orm|better-sqlite3|@types/better-sqlite3|pg|@types/pg)/' || true)"
if [[ -n "$LEAKED" ]]; then
  echo "the public types pull in driver declarations:"
  echo "$LEAKED" | head -5
  false
fi

step "run the gateway (memory, SQLite${SESSION_STATE_PG_URL:+, PostgreSQL})"
node dist/gateway.js "$SCRATCH/gateway/gateway.db" "${SESSION_STATE_PG_URL:-}" "$PG_SCHEMA"

step "the README's gateway.js (Use it in your gateway), then the CLI on the file it left"
node -e '
  const readme = require("fs").readFileSync(process.argv[1], "utf8");
  const section = /<!-- gateway-example:start -->([\s\S]*?)<!-- gateway-example:end -->/.exec(readme)?.[1];
  const code = section && /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error("README.md has no ```js block between the gateway-example markers");
  require("fs").writeFileSync("gateway.js", code);
' "$ROOT/README.md"
node gateway.js | tee readme-gateway.out
grep -q '^wake agent:main:main$' readme-gateway.out
grep -q '^version [0-9]*: human_direct_message$' readme-gateway.out
npx --no-install session-state list --db session-state.db

step "npx session-state --help"
npx --no-install session-state --help | head -3

step "npx session-state demo"
npx --no-install session-state demo --db ./demo.db | tail -3
npx --no-install session-state list --db ./demo.db >/dev/null

step "npx session-state inspect serves the page and its cytoscape bundle from the installed packages"
# The installed bin itself, not npx: npx forwards SIGTERM to its child and then exits 143 itself,
# so `wait` would report the signal instead of the inspector's own exit status.
./node_modules/.bin/session-state inspect --port 0 --db ./demo.db >inspect.out 2>inspect.err &
INSPECT_PID=$!
for _ in $(seq 1 100); do [[ -s inspect.out ]] && break; sleep 0.1; done
node -e '
  const url = require("fs").readFileSync("inspect.out", "utf8").trim();
  (async () => {
    const overview = await (await fetch(new URL("/api/overview", url))).json();
    const bundle = await fetch(new URL("/vendor/cytoscape.min.js", url));
    if (overview.overview.graph.sessions.length !== 3 || bundle.status !== 200) throw new Error("the inspector did not serve the demo");
    console.log(`inspect: ${url} serves ${overview.overview.graph.sessions.length} sessions and the cytoscape bundle`);
  })().catch((error) => { console.error(error.message); process.exit(1); });
'
kill -TERM "$INSPECT_PID"
wait "$INSPECT_PID"

step "a PostgreSQL-only gateway installs no better-sqlite3"
mkdir "$SCRATCH/postgres-only"
cd "$SCRATCH/postgres-only"
echo '{ "name": "postgres-only-gateway", "version": "1.0.0", "private": true }' >package.json
npm install --no-audit --no-fund --prefer-offline \
  ../gateway/session-state-app-*.tgz ../gateway/session-state-domain-*.tgz \
  ../gateway/session-state-adapters-postgres-*.tgz ../gateway/session-state-adapters-sql-common-*.tgz
test -d node_modules/pg
test ! -e node_modules/better-sqlite3
node -e "require('@session-state/app'); require('@session-state/adapters-postgres'); console.log('postgres-only: no better-sqlite3 in node_modules')"
STEP="done"

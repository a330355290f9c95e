#!/usr/bin/env bash
# Serves the built Worker for the end-to-end tests from a fresh, seeded local state.
set -euo pipefail
# Called by hand as well as by Playwright: run from the repository with the project's own Node 22 and
# wrangler first on PATH (the system's Node may be older: db/seed.ts needs --experimental-strip-types).
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
port="${1:-8788}"
state=".wrangler/e2e-$port"
rm -rf "$state"
node scripts/dev-vars.mjs >/dev/null
# Migrations and seed through one local runtime (wrangler's apply starts one per migration: decision 233).
WRANGLER_PERSIST="$state/v3" node --experimental-strip-types db/seed.ts --migrate >/dev/null
exec npx wrangler dev -c wrangler.toml -c workers/images/wrangler.toml --port "$port" --ip 127.0.0.1 --inspector-port "$((port + 1000))" --persist-to "$state" --var ENVIRONMENT:test

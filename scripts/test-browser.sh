#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# relayout: the browser tests (the `browser` stage of scripts/test.sh), headless.
#
#   scripts/test-browser.sh
#
#  1. npm ci when node_modules is missing or older than package-lock.json (playwright-core and
#     vite are dev dependencies);
#  2. scripts/build-wasm.sh (incremental): the three builds into bindings/js/dist;
#  3. node --test tests/browser/: the demo and benchmark pages in Debian's Chromium
#     (/usr/bin/chromium, or RELAYOUT_CHROMIUM) through playwright-core, served by Vite's dev
#     server (web/vite.config.js, `npm start`) with and without COOP/COEP; the packed tarball in
#     a Vite app, on the dev server and built (vite build, vite preview).
# Screenshots of the pages are kept in build/artefacts/browser/.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
run() {
    echo "+ $*"
    "$@"
}

chromium=${RELAYOUT_CHROMIUM:-/usr/bin/chromium}
[[ -x "$chromium" ]] || {
    echo "test-browser.sh: $chromium not found: apt-get install chromium (scripts/setup.sh installs it)" >&2
    exit 1
}
if [[ ! -d node_modules || package-lock.json -nt node_modules ]]; then
    run npm ci --no-audit --no-fund
fi
run bash scripts/build-wasm.sh
echo "test-browser.sh: $("$chromium" --version 2>/dev/null | head -n 1)"
run node --test --test-reporter=spec tests/browser/
echo "test-browser.sh: browser tests passed; screenshots in build/artefacts/browser/"

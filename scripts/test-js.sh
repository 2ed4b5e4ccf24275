#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# relayout: the JavaScript tests (the `js` stage of scripts/test.sh; also `npm test`).
#
#   scripts/test-js.sh
#
#  1. npm ci when node_modules is missing or older than package-lock.json;
#  2. scripts/build-wasm.sh (incremental): the three builds into bindings/js/dist;
#  3. node --test tests/js/ (API contract per build, case lists vs the JS reference, the
#     packed tarball in an empty project);
#  4. the Vitest suite (tests/js/**/*.vitest.js);
#  5. tsc --noEmit on the TypeScript declarations (tests/js/types-check.ts with the DOM lib,
#     tests/js/nodom/types-check.ts without it; tests/js/types.test.js, in step 3, compiles
#     them for targets ES2020, ES2022 and ESNext with and without skipLibCheck);
#  6. publint and @arethetypeswrong/cli on the packed package.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
run() {
    echo "+ $*"
    "$@"
}

if [[ ! -d node_modules || package-lock.json -nt node_modules ]]; then
    run npm ci --no-audit --no-fund
fi
run bash scripts/build-wasm.sh
run node --test --test-reporter=spec tests/js/
run npx vitest run --config tests/js/vitest.config.js
run npx tsc --noEmit -p tests/js
run npx tsc --noEmit -p tests/js/nodom
# the package as registries and type resolvers see it (ESM only: require() needs Node 20.19+)
run npx publint
run npx attw --pack . --profile esm-only
echo "test-js.sh: all JavaScript tests passed"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# relayout: builds the three WebAssembly flavours and lays them out for bindings/js.
#
#   scripts/build-wasm.sh [FLAVOUR...]      (default: simd-threads simd baseline)
#
# Each flavour is one emcmake build tree (build/wasm-FLAVOUR, Release, library only) whose
# js/ output is copied to bindings/js/dist/FLAVOUR/:
#   relayout.wasm            the module (the same bytes serve both glues)
#   node/relayout.js         CommonJS glue for Node (+ relayout.worker.js, package.json)
#   web/relayout.mjs         ES-module glue for browsers and bundlers (+ relayout.worker.js)
# Needs Debian's emscripten (emcc 3.1.6); `npm run build` calls this.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dist="$repo/bindings/js/dist"
jobs=$(nproc 2>/dev/null || echo 2)
# emcc's JS optimizer needs Debian's acorn (docs/web.md, Emscripten notes)
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

command -v emcmake >/dev/null 2>&1 ||
    { echo "build-wasm.sh: emcmake not found: apt-get install emscripten" >&2; exit 1; }

flavour_flags() {
    case "$1" in
    simd-threads) echo "-DRELAYOUT_WASM_SIMD=ON -DRELAYOUT_WASM_THREADS=ON" ;;
    simd) echo "-DRELAYOUT_WASM_SIMD=ON -DRELAYOUT_WASM_THREADS=OFF" ;;
    baseline) echo "-DRELAYOUT_WASM_SIMD=OFF -DRELAYOUT_WASM_THREADS=OFF" ;;
    *) echo "build-wasm.sh: unknown flavour '$1' (simd-threads, simd, baseline)" >&2; return 1 ;;
    esac
}

flavours=("$@")
[[ ${#flavours[@]} -gt 0 ]] || flavours=(simd-threads simd baseline)
for f in "${flavours[@]}"; do
    flags=$(flavour_flags "$f")
    b="$repo/build/wasm-$f"
    echo "build-wasm.sh: $f -> $b"
    # shellcheck disable=SC2086 # flags are words
    emcmake cmake -S "$repo" -B "$b" -DCMAKE_BUILD_TYPE=Release $flags \
        -DRELAYOUT_BUILD_TESTS=OFF -DRELAYOUT_BUILD_EXAMPLES=OFF -DRELAYOUT_BUILD_BENCH=OFF \
        -Wno-dev >/dev/null
    cmake --build "$b" -j"$jobs" --target relayout_wasm_node relayout_wasm_web
    cmp -s "$b/js/node/relayout.wasm" "$b/js/web/relayout.wasm" ||
        { echo "build-wasm.sh: the node and web .wasm of $f differ" >&2; exit 1; }
    out="$dist/$f"
    rm -rf "$out"
    mkdir -p "$out/node" "$out/web"
    cp "$b/js/node/relayout.wasm" "$out/"
    cp "$b/js/node/relayout.js" "$b/js/node/package.json" "$out/node/"
    cp "$b/js/web/relayout.mjs" "$out/web/"
    if [[ -f "$b/js/node/relayout.worker.js" ]]; then
        cp "$b/js/node/relayout.worker.js" "$out/node/"
        cp "$b/js/web/relayout.worker.js" "$out/web/"
    fi
done
echo "build-wasm.sh: done: $(cd "$dist" && du -sh . | cut -f1) in bindings/js/dist"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# relayout: first command on a fresh Debian bookworm machine.
#
#   scripts/setup.sh [--no-deps] [--no-run]
#
#  1. installs the Debian packages in scripts/debian-packages.txt that are missing
#     (apt-get update + apt-get install, as root or through sudo; apt is not touched at all
#     when everything is already installed; --no-deps skips this step), plus Debian's npm
#     when there is no npm command;
#  2. configures and builds the project in build/ (Release), then the npm package: npm ci and
#     npm run build (the simd-threads, simd and baseline WebAssembly builds in bindings/js/dist);
#     the npm package needs Node.js 20.19+ (scripts/lib/node.sh): with an older Node (Debian
#     bookworm's 18) it is skipped with a warning;
#  3. runs the main job: the quick-start example (--no-run skips it).
# Safe to run again: each step only does what is missing.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$repo/build"
jobs=$(nproc 2>/dev/null || echo 2)

say() { echo "setup.sh: $*"; }
die() {
    echo "setup.sh: ERROR: $*" >&2
    exit 1
}

do_deps=1
do_run=1
for arg in "$@"; do
    case "$arg" in
    --no-deps) do_deps=0 ;;
    --no-run) do_run=0 ;;
    -h | --help)
        sed -n '2,16s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
        exit 0
        ;;
    *) die "unknown argument '$arg' (try --help)" ;;
    esac
done

# ---- 1. packages ----------------------------------------------------------------------
# another apt or unattended-upgrades run may hold the dpkg lock: wait for it (10 min)
apt_wait=(-o DPkg::Lock::Timeout=600)
wanted_packages() { sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$repo/scripts/debian-packages.txt"; }
words() { tr '\n' ' ' | sed 's/ *$//'; } # lines -> one line of words

missing_packages() {
    local pkg
    for pkg in $(wanted_packages); do
        if [[ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)" != installed ]]; then
            echo "$pkg"
        fi
    done
}

install_deps() {
    if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
        say "not a Debian-like system (no dpkg/apt-get): checking the tools only"
        local tool
        for tool in cc cmake clang pkg-config readelf; do
            command -v "$tool" >/dev/null 2>&1 || die "'$tool' is missing; install it by hand"
        done
        return
    fi
    local missing
    missing=$(missing_packages | words)
    # Debian's npm only when there is none: NodeSource's nodejs brings its own and conflicts.
    command -v npm >/dev/null 2>&1 || missing="${missing:+$missing }npm"
    if [[ -z "$missing" ]]; then
        say "all Debian packages present ($(wanted_packages | words)): skipping apt"
        return
    fi
    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 ||
            die "packages missing ($missing) and not root and no sudo: install them as root"
        sudo=(sudo)
    fi
    say "installing missing packages: $missing"
    say "+ ${sudo[*]:+${sudo[*]} }apt-get update"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_wait[@]}" update -q
    say "+ ${sudo[*]:+${sudo[*]} }apt-get install -y --no-install-recommends $missing"
    # shellcheck disable=SC2086 # one word per package
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_wait[@]}" install -y -q \
        --no-install-recommends $missing
}

# ---- 2. build -------------------------------------------------------------------------
build() {
    say "+ cmake -S . -B build -DCMAKE_BUILD_TYPE=Release"
    cmake -S "$repo" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release
    say "+ cmake --build build -j$jobs"
    cmake --build "$build_dir" -j"$jobs"
}

# ---- 2b. the npm package: dev dependencies and the three WebAssembly builds -------------------
# shellcheck source=lib/node.sh
. "$repo/scripts/lib/node.sh"

build_js() {
    local problem
    problem=$(node_problem)
    if [[ -n "$problem" ]]; then
        say "WARNING: not building the npm package: $problem."
        say "WARNING: the C library is built; scripts/test.sh will skip the js and browser stages."
        return
    fi
    say "Node.js $(node -p 'process.versions.node'), npm $(npm --version)"
    if [[ ! -d "$repo/node_modules" || "$repo/package-lock.json" -nt "$repo/node_modules" ]]; then
        say "+ npm ci"
        (cd "$repo" && npm ci --no-audit --no-fund)
    fi
    say "+ npm run build (scripts/build-wasm.sh)"
    (cd "$repo" && npm run build --silent)
}

# ---- 3. main job ----------------------------------------------------------------------
main_job() {
    say "+ build/examples/rl_quickstart"
    "$build_dir/examples/rl_quickstart"
}

if [[ $do_deps -eq 1 ]]; then install_deps; else say "--no-deps: not checking packages"; fi
build
build_js
if [[ $do_run -eq 1 ]]; then main_job; else say "--no-run: not running the main job"; fi
say "done. Next: scripts/test.sh"

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks what `cmake --install` produces, the way a user of relayout meets it.
#
#   tests/install/check.sh BUILD_DIR
#
# Installs BUILD_DIR (an already built, non-sanitized tree) into a temporary prefix, then:
#   (a) builds examples/ standalone with find_package(relayout) -> relayout::relayout, runs it,
#       and checks the program does not need librelayout.so (relayout::relayout is static);
#   (b) compiles examples/quickstart.c with `pkg-config relayout-static`, runs it, and checks
#       with readelf/ldd that it does not need librelayout.so;
#   (c) compiles it with `pkg-config relayout` (the shared library), checks it does need
#       librelayout.so and runs it with LD_LIBRARY_PATH;
#   (d) builds it in a project that takes relayout with FetchContent (README's snippet).
# It also checks the licence is installed and every tracked source file has an SPDX line.
# The install tree is used from a different place than CMAKE_INSTALL_PREFIX, so the CMake
# package and the .pc files are also checked for relocatability.
# Exits non-zero with a message naming the failed step. Set KEEP_TMP=1 to keep the temp dir.
set -euo pipefail

die() {
    echo "check.sh: FAIL: $*" >&2
    exit 1
}
step() { echo "check.sh: --- $*"; }

[[ $# -eq 1 ]] || die "usage: $0 BUILD_DIR"
build_dir=$(cd "$1" 2>/dev/null && pwd) || die "no such build directory: $1"
[[ -f "$build_dir/CMakeCache.txt" ]] || die "$build_dir is not a CMake build directory"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cc=${CC:-cc}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/relayout-install.XXXXXX")
cleanup() {
    if [[ "${KEEP_TMP:-0}" == 1 ]]; then
        echo "check.sh: kept $tmp"
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT
prefix="$tmp/prefix"

if grep -q '^RELAYOUT_SANITIZE:BOOL=ON' "$build_dir/CMakeCache.txt"; then
    die "$build_dir is a sanitizer build: its library needs -fsanitize at link; give a normal build"
fi

# Prints the NEEDED entries of an ELF file, one per line.
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

expect_static() { # binary: must not need librelayout.so, neither directly nor via ldd
    local bin=$1
    if needed "$bin" | grep -q '^librelayout'; then
        die "$bin needs a shared librelayout: $(needed "$bin" | tr '\n' ' ')"
    fi
    if ldd "$bin" | grep -q 'librelayout'; then
        die "ldd shows librelayout for $bin: $(ldd "$bin" | grep librelayout)"
    fi
    echo "check.sh: $bin needs only: $(needed "$bin" | tr '\n' ' ')"
}

run_quickstart() { # binary [env...]: runs it and checks it printed its final "ok"
    local bin=$1 out
    shift
    out=$(env "$@" "$bin" 2>&1) || die "$bin failed:"$'\n'"$out"
    tail -n 1 <<<"$out" | grep -qx 'ok' || die "$bin did not print 'ok':"$'\n'"$out"
    echo "check.sh: $bin ran fine ($(grep -m1 'reorder implementation' <<<"$out"))"
}

# ---- install --------------------------------------------------------------------------
step "cmake --install $build_dir --prefix $prefix"
cmake --install "$build_dir" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
    die "cmake --install failed:"$'\n'"$(cat "$tmp/install.log")"
for f in LICENSE NOTICE; do
    [[ -s "$prefix/share/doc/relayout/$f" ]] || die "cmake --install did not install share/doc/relayout/$f"
done
echo "check.sh: the licence is installed (share/doc/relayout/LICENSE, NOTICE)"
grep -q 'SPDX-License-Identifier: Apache-2.0' "$prefix/include/relayout.h" ||
    die "the installed relayout.h carries no SPDX licence line"

# Every source file of the repository names its licence (SPDX), so licence scanners agree.
if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
    missing=$(git -C "$repo" ls-files -- '*.c' '*.h' '*.inc' '*.js' '*.ts' '*.sh' '*.py' \
        '*.cmake' '*CMakeLists.txt' '*.html' '*.css' '*.in' |
        while read -r f; do grep -q 'SPDX-License-Identifier' "$repo/$f" || echo "$f"; done)
    [[ -z "$missing" ]] || die "source files without an SPDX-License-Identifier line:"$'\n'"$missing"
    echo "check.sh: every source file carries SPDX-License-Identifier"
fi

[[ -f "$prefix/include/relayout.h" ]] || die "relayout.h not installed in $prefix/include"
config=$(find "$prefix" -name relayoutConfig.cmake -print -quit)
[[ -n "$config" ]] || die "relayoutConfig.cmake not installed"
static_lib=$(find "$prefix" -name librelayout.a -print -quit)
[[ -n "$static_lib" ]] || die "librelayout.a not installed"
libdir=$(dirname "$static_lib")
ls "$libdir"/librelayout.so* >/dev/null 2>&1 || die "librelayout.so not installed in $libdir"
pcdir="$libdir/pkgconfig"
for pc in relayout relayout-static; do
    [[ -f "$pcdir/$pc.pc" ]] ||
        die "$pc.pc not installed in $pcdir (CMakeLists.txt must configure and install cmake/$pc.pc.in)"
done
echo "check.sh: installed: $(cd "$prefix" && find . -type f -o -type l | sort | tr '\n' ' ')"

# ---- (a) CMake package ----------------------------------------------------------------
step "(a) examples/ standalone with find_package(relayout)"
cmake -S "$repo/examples" -B "$tmp/examples-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release >"$tmp/a.log" 2>&1 ||
    die "configuring examples/ standalone failed:"$'\n'"$(cat "$tmp/a.log")"
grep -qF "relayout_DIR:PATH=$prefix/" "$tmp/examples-build/CMakeCache.txt" ||
    die "find_package(relayout) did not find the package in $prefix: $(grep relayout_DIR "$tmp/examples-build/CMakeCache.txt")"
cmake --build "$tmp/examples-build" -j2 >>"$tmp/a.log" 2>&1 ||
    die "building examples/ standalone failed:"$'\n'"$(cat "$tmp/a.log")"
expect_static "$tmp/examples-build/rl_quickstart"
run_quickstart "$tmp/examples-build/rl_quickstart"

# ---- (b) pkg-config, static library ---------------------------------------------------
export PKG_CONFIG_PATH="$pcdir"
# Only this prefix: a relayout installed system-wide must not be found instead.
export PKG_CONFIG_LIBDIR="$pcdir"
step "(b) pkg-config relayout-static: $(pkg-config --cflags --libs relayout-static)"
pkg-config --exists --print-errors relayout-static || die "pkg-config cannot read relayout-static.pc"
pc_include=$(pkg-config --variable=includedir relayout-static)
[[ -f "$pc_include/relayout.h" ]] ||
    die "relayout-static.pc's includedir ($pc_include) has no relayout.h: the .pc file is not relocatable (is RL_PC_PREFIX set in CMakeLists.txt?)"
# shellcheck disable=SC2046 # pkg-config's output is meant to be split into words
"$cc" -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags relayout-static) \
    "$repo/examples/quickstart.c" $(pkg-config --libs relayout-static) \
    -o "$tmp/quickstart-static" 2>"$tmp/b.log" ||
    die "compiling with pkg-config relayout-static failed:"$'\n'"$(cat "$tmp/b.log")"
expect_static "$tmp/quickstart-static"
run_quickstart "$tmp/quickstart-static"

# ---- (c) pkg-config, shared library ---------------------------------------------------
step "(c) pkg-config relayout: $(pkg-config --cflags --libs relayout)"
pc_include=$(pkg-config --variable=includedir relayout)
[[ -f "$pc_include/relayout.h" ]] ||
    die "relayout.pc's includedir ($pc_include) has no relayout.h: the .pc file is not relocatable (is RL_PC_PREFIX set in CMakeLists.txt?)"
# shellcheck disable=SC2046
"$cc" -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags relayout) \
    "$repo/examples/quickstart.c" $(pkg-config --libs relayout) \
    -o "$tmp/quickstart-shared" 2>"$tmp/c.log" ||
    die "compiling with pkg-config relayout failed:"$'\n'"$(cat "$tmp/c.log")"
needed "$tmp/quickstart-shared" | grep -q '^librelayout\.so' ||
    die "$tmp/quickstart-shared does not need librelayout.so: $(needed "$tmp/quickstart-shared" | tr '\n' ' ')"
run_quickstart "$tmp/quickstart-shared" LD_LIBRARY_PATH="$libdir"

# ---- (d) FetchContent, as README's Install section shows it ------------------------------
# (SOURCE_DIR instead of GIT_REPOSITORY: the same subproject, without a network)
step "(d) FetchContent_MakeAvailable(relayout) -> relayout::relayout"
mkdir -p "$tmp/fetch"
cat >"$tmp/fetch/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(fetch_app C)
include(FetchContent)
FetchContent_Declare(relayout SOURCE_DIR "$repo")
set(RELAYOUT_BUILD_TESTS OFF CACHE BOOL "")
set(RELAYOUT_BUILD_EXAMPLES OFF CACHE BOOL "")
set(RELAYOUT_BUILD_BENCH OFF CACHE BOOL "")
FetchContent_MakeAvailable(relayout)
add_executable(quickstart "$repo/examples/quickstart.c")
target_link_libraries(quickstart PRIVATE relayout::relayout)
CMAKE
{ cmake -S "$tmp/fetch" -B "$tmp/fetch/build" -DCMAKE_BUILD_TYPE=Release &&
    cmake --build "$tmp/fetch/build" -j2; } >"$tmp/d.log" 2>&1 ||
    die "the FetchContent consumer failed to build:"$'\n'"$(tail -20 "$tmp/d.log")"
expect_static "$tmp/fetch/build/quickstart"
run_quickstart "$tmp/fetch/build/quickstart"

echo "check.sh: install checks passed"

# SPDX-License-Identifier: Apache-2.0
# Sourced by setup.sh and test.sh: is this machine's Node.js new enough for the npm package?
#
# The JavaScript package and its tools (require() of the ESM package, Vite 8, Vitest 4) need
# Node.js 20.19 or newer. Debian bookworm ships 18.20 (trixie's 20.19 needs trixie's libc), so a
# bare bookworm machine gets the C library, its tests and the WebAssembly test suite, and the
# JavaScript stages ask for a newer Node (NodeSource's deb, nvm, or a trixie machine).
NODE_MIN_MAJOR=20
NODE_MIN_MINOR=19

# node_problem: prints why the JavaScript stages cannot run here, or nothing when they can.
node_problem() {
    if ! command -v node >/dev/null 2>&1; then
        echo "no 'node' command: Node.js ${NODE_MIN_MAJOR}.${NODE_MIN_MINOR}+ is needed"
        return
    fi
    local v
    v=$(node -p 'process.versions.node' 2>/dev/null || echo unknown)
    if ! node -e "const [a, b] = process.versions.node.split('.').map(Number);
        process.exit(a > $NODE_MIN_MAJOR || (a === $NODE_MIN_MAJOR && b >= $NODE_MIN_MINOR) ? 0 : 1)" \
        2>/dev/null; then
        echo "Node.js $v is older than ${NODE_MIN_MAJOR}.${NODE_MIN_MINOR} (Debian bookworm ships 18.20: install NodeSource's nodejs deb or use nvm)"
        return
    fi
    command -v npm >/dev/null 2>&1 || echo "Node.js $v has no 'npm' command"
}

#!/usr/bin/env bash
# The model checks whose results depend on the CPU's integer kernels (ONNX Runtime's native q8 paths, and the
# 4-bit MatMulNBits path of the greedy agreement prompt's q4 margins), run on CPUs other than this machine's
# under Debian's qemu-user (issue 33: fixtures made on one CPU failed on another):
#   avx2         x86-64 without AVX-512 or VNNI (`qemu-x86_64 -cpu Haswell`: ONNX Runtime's CPU dispatch then
#                takes its AVX2 u8s8 kernels, the ones that failed on an AVX2-only machine before a060c40);
#   arm64        arm64 with dot-product and i8mm instructions (`qemu-aarch64`'s default CPU, "max");
#   arm64-neon   arm64 without them (`-cpu cortex-a57`, ARMv8.0: plain NEON kernels).
# arm64 runs Debian's arm64 Node.js 20 (from Debian 13's packages, unpacked into .scratch/cpus/, not installed)
# and needs the arm64 builds of the native npm packages the tests load (rolldown's binding, sharp): they are
# fetched from the npm registry at the versions of their x64 twins and unpacked into node_modules, where npm
# would have put them on an arm64 machine (`npm ci` removes them again).
#
# Usage: scripts/test-cpus.sh [avx2|arm64|arm64-neon|all]   (default: all). Needs qemu-user (apt-get install
# qemu-user) on an x86-64 Debian machine, apt-get and the npm registry for arm64.
set -euo pipefail
cd "$(dirname "$0")/.."

TESTS=(tests/models/local-decoder.test.ts tests/models/local-models.test.ts tests/models/reranker.test.ts
  tests/models/greedy-margin.test.ts)
SCRATCH="$PWD/.scratch/cpus"
ROOT="$SCRATCH/arm64-root"
VITEST=(node_modules/vitest/vitest.mjs run "${TESTS[@]}" --pool=threads)

need() { command -v "$1" >/dev/null || { echo "test-cpus: $1 is missing (Debian: apt-get install qemu-user)" >&2; exit 1; }; }

run_avx2() {
  need qemu-x86_64
  echo "== q8/q4 model checks on x86-64 with AVX2 only (qemu-x86_64 -cpu Haswell)"
  qemu-x86_64 -cpu Haswell "$(command -v node)" "${VITEST[@]}"
}

# Debian 13's arm64 Node.js 20 and the libraries it needs, unpacked (not installed) into $ROOT.
arm64_root() {
  [ -x "$ROOT/usr/bin/node" ] && return
  local apt="$SCRATCH/apt"
  rm -rf "$apt" "$ROOT"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$ROOT"
  echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
    >"$apt/sources.list"
  local options=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o APT::Architecture=arm64
    -o APT::Architectures::=arm64 -o APT::Sandbox::User=root)
  apt-get "${options[@]}" update -qq
  (cd "$apt/debs" && apt-get "${options[@]}" download -qq nodejs libnode115 libc6 libgcc-s1 libstdc++6 \
    gcc-14-base libbrotli1 libcares2 libicu76 libnghttp2-14 libssl3t64 libuv1t64 zlib1g libzstd1 node-acorn \
    node-cjs-module-lexer node-minimatch node-undici node-brace-expansion node-balanced-match)
  for deb in "$apt/debs"/*.deb; do dpkg -x "$deb" "$ROOT"; done
  ln -sfn usr/lib "$ROOT/lib" # Debian 13 is merged-/usr: the loader is looked for under /lib
}

# The arm64 twin of an installed x64 native package (same version), unpacked beside it in node_modules.
arm64_twin() {
  local x64="$1" arm64="$2"
  [ -d "node_modules/$arm64" ] && return
  local version
  version="$(node -p "require('./node_modules/$x64/package.json').version")"
  local tarball
  tarball="$(cd "$SCRATCH" && npm pack --silent "$arm64@$version" | tail -1)"
  mkdir -p "node_modules/$arm64"
  tar -xzf "$SCRATCH/$tarball" -C "node_modules/$arm64" --strip-components=1
}

run_arm64() {
  local cpu="$1"
  need qemu-aarch64
  mkdir -p "$SCRATCH"
  arm64_root
  arm64_twin @rolldown/binding-linux-x64-gnu @rolldown/binding-linux-arm64-gnu
  arm64_twin @img/sharp-linux-x64 @img/sharp-linux-arm64
  arm64_twin @img/sharp-libvips-linux-x64 @img/sharp-libvips-linux-arm64
  echo "== q8/q4 model checks on arm64 (qemu-aarch64 -cpu $cpu, Node.js $(qemu-aarch64 -L "$ROOT" "$ROOT/usr/bin/node" --version))"
  qemu-aarch64 -cpu "$cpu" -L "$ROOT" "$ROOT/usr/bin/node" "${VITEST[@]}"
}

if [ "$(uname -m)" != x86_64 ]; then
  # The emulated runs start from an x86-64 install (its node_modules); elsewhere `npm test` ran natively.
  echo "test-cpus: not an x86-64 machine ($(uname -m)): nothing emulated; npm test checked this CPU's kernels"
  exit 0
fi

case "${1:-all}" in
  avx2) run_avx2 ;;
  arm64) run_arm64 max ;;
  arm64-neon) run_arm64 cortex-a57 ;;
  all) run_avx2 && run_arm64 max && run_arm64 cortex-a57 ;;
  *) echo "usage: scripts/test-cpus.sh [avx2|arm64|arm64-neon|all]" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# The model checks whose results depend on the CPU's integer kernels (ONNX Runtime's native q8 paths, and the
# 4-bit MatMulNBits path of the greedy agreement prompt's q4 margins), run on CPUs other than this machine's
# under Debian's qemu-user (issue 33: fixtures made on one CPU failed on another):
#   avx2         x86-64 without AVX-512 or VNNI (`qemu-x86_64 -cpu Haswell`: ONNX Runtime's CPU dispatch then
#                takes its AVX2 u8s8 kernels, the ones that failed on an AVX2-only machine before a060c40);
#   arm64        arm64 with dot-product and i8mm instructions (`qemu-aarch64`'s default CPU, "max");
#   arm64-neon   arm64 without them (`-cpu cortex-a57`, ARMv8.0: plain NEON kernels).
# arm64 runs Debian's arm64 Node.js 20 (from Debian 13's packages, fetched from the Debian archive this
# machine's apt uses — scripts/debian-archive.sh — and unpacked into .scratch/cpus/, not installed) and needs
# the arm64 builds of the native npm packages the tests load (rolldown's binding, sharp): they are fetched from
# the npm registry at the versions of their x64 twins and unpacked into node_modules, where npm would have put
# them on an arm64 machine (`npm ci` removes them again).
#
# The emulated arm64 machine describes itself as one: qemu-user 7.2 lets a program read the host's x86
# /proc/cpuinfo, and ONNX Runtime's CPU detection (cpuinfo) then crashed on a host whose cores each form a
# cluster of their own (seen 2026-11-29). Each arm64 run has a root of its own (.scratch/cpus/arm64-<cpu>/,
# qemu's -L prefix, which serves its files in place of the host's) with a /proc/cpuinfo of the emulated CPU.
#
# `all` (the default, as CI runs it) runs two at a time, one per core (each emulation is one busy thread most of
# the time): the arm64 downloads and then the "max" run beside the AVX2 run, then the Cortex-A57 run. Each
# run's output is printed whole when it ends, and the script fails if any run failed. Emulated code runs many
# times slower than native, so the tests' time limit is raised.
#
# Usage: scripts/test-cpus.sh [avx2|arm64|arm64-neon|all|prepare]   (default: all; `prepare` only downloads what
# the arm64 runs need, as .ci/run does while `npm test` runs). Needs qemu-user (apt-get install qemu-user) on an
# x86-64 Debian machine, apt-get and the npm registry for arm64.
set -euo pipefail
cd "$(dirname "$0")/.."

TESTS=(tests/models/generate/local-decoder.test.ts tests/models/embed/local-models.test.ts tests/models/embed/reranker.test.ts
  tests/models/generate/greedy-margin.test.ts)
SCRATCH="$PWD/.scratch/cpus"
ROOT="$SCRATCH/arm64-root"
# Under emulation a test takes 10–50 times its native time (the reranker's longest: 46 s on a busy machine).
# One test file at a time in each emulation (vitest.config.ts runs a file per core: two here): `all` runs two
# emulations side by side, one per core, and more emulated workers than cores (three, once) slowed a worker's
# start past Vitest's fixed 60 s (run_all).
VITEST=(node_modules/vitest/vitest.mjs run "${TESTS[@]}" --pool=threads --maxWorkers=1 --testTimeout=900000
  --hookTimeout=900000)

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
  # From the Debian archive this machine's apt uses (its mirror), never a host name of ours.
  local archive
  archive="$(bash scripts/debian-archive.sh)"
  echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $archive trixie main" \
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

# Everything the arm64 runs fetch: Node.js and its libraries, and the native npm packages' arm64 builds.
arm64_prepare() {
  need qemu-aarch64
  mkdir -p "$SCRATCH"
  arm64_root
  arm64_twin @rolldown/binding-linux-x64-gnu @rolldown/binding-linux-arm64-gnu
  arm64_twin @img/sharp-linux-x64 @img/sharp-linux-arm64
  arm64_twin @img/sharp-libvips-linux-x64 @img/sharp-libvips-linux-arm64
}

# The root of one emulated arm64 CPU: $ROOT's files, and a /proc/cpuinfo as Linux on that CPU writes it (one
# entry per host core, as qemu runs the threads there; MIDR fields from qemu's model of the CPU: "max" is
# implementer 0, part 0x051 'Q'; the Cortex-A57 r1p0 is 0x41/0xd07). Features are not listed: programs on
# arm64 Linux read them from the auxiliary vector, which qemu fills for the CPU it emulates.
arm64_cpu_root() {
  local cpu="$1" implementer variant part
  case "$cpu" in
    max) implementer=0x00 variant=0x0 part=0x051 ;;
    cortex-a57) implementer=0x41 variant=0x1 part=0xd07 ;;
    *) echo "test-cpus: no /proc/cpuinfo known for $cpu" >&2; exit 2 ;;
  esac
  local dir="$SCRATCH/arm64-$cpu"
  mkdir -p "$dir/proc"
  ln -sfn ../arm64-root/usr "$dir/usr"
  ln -sfn usr/lib "$dir/lib"
  local i
  for ((i = 0; i < $(getconf _NPROCESSORS_CONF); i++)); do
    printf 'processor\t: %d\nBogoMIPS\t: 100.00\nCPU implementer\t: %s\nCPU architecture: 8\n' "$i" "$implementer"
    printf 'CPU variant\t: %s\nCPU part\t: %s\nCPU revision\t: 0\n\n' "$variant" "$part"
  done >"$dir/proc/cpuinfo"
  echo "$dir"
}

run_arm64() {
  local cpu="$1" root
  root="$(arm64_cpu_root "$cpu")"
  echo "== q8/q4 model checks on arm64 (qemu-aarch64 -cpu $cpu, Node.js $(qemu-aarch64 -L "$root" "$root/usr/bin/node" --version))"
  qemu-aarch64 -cpu "$cpu" -L "$root" "$root/usr/bin/node" "${VITEST[@]}"
}

# Runs "$@" in the background with its output in a log of its own; `finish` prints it and gives its status.
declare -A LOGS PIDS
start() {
  local name="$1"
  shift
  LOGS[$name]="$SCRATCH/$name.log"
  "$@" >"${LOGS[$name]}" 2>&1 &
  PIDS[$name]=$!
}
finish() {
  local name="$1" status=0
  wait "${PIDS[$name]}" || status=$?
  cat "${LOGS[$name]}"
  [ "$status" -eq 0 ] || echo "test-cpus: the $name run failed (exit $status)" >&2
  return "$status"
}

# Two lanes, one per core: the AVX2 run, then the Cortex-A57 one; the arm64 downloads, then the "max" run. Never
# three emulations at once: on two busy cores a third slowed a worker's start past Vitest's fixed 60 s.
run_all() {
  mkdir -p "$SCRATCH"
  local failed=0 prepared=0
  start prepare arm64_prepare
  start avx2 run_avx2
  if finish prepare; then
    prepared=1
    start arm64 run_arm64 max
  else
    failed=1
  fi
  finish avx2 || failed=1
  if [ "$prepared" -eq 1 ]; then
    start arm64-neon run_arm64 cortex-a57
    finish arm64 || failed=1
    finish arm64-neon || failed=1
  fi
  return "$failed"
}

if [ "$(uname -m)" != x86_64 ]; then
  # The emulated runs start from an x86-64 install (its node_modules); elsewhere `npm test` ran natively.
  echo "test-cpus: not an x86-64 machine ($(uname -m)): nothing emulated; npm test checked this CPU's kernels"
  exit 0
fi

case "${1:-all}" in
  avx2) run_avx2 ;;
  arm64)
    arm64_prepare
    run_arm64 max
    ;;
  arm64-neon)
    arm64_prepare
    run_arm64 cortex-a57
    ;;
  all) run_all ;;
  prepare) arm64_prepare ;;
  *) echo "usage: scripts/test-cpus.sh [avx2|arm64|arm64-neon|all|prepare]" >&2; exit 2 ;;
esac

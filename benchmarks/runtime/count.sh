#!/usr/bin/env bash
# Instructions per operation (callgrind), flatforge and the official crate, for each workload:
#   benchmarks/runtime/count.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-10000}
cargo build -q --release -p flatforge-bench-runtime --example count
bin=${CARGO_TARGET_DIR:-target}/release/examples/count
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
base=$(count verify ours 0)
printf '%-16s %10s %10s %6s\n' workload flatforge official ratio
for w in build_simple build_strings build_bytes build_shared build_nested verify; do
  ours=$(( ($(count "$w" ours "$n") - base) / n ))
  official=$(( ($(count "$w" official "$n") - base) / n ))
  printf '%-16s %10d %10d %6s\n' "$w" "$ours" "$official" "$(echo "scale=2; $official / $ours" | bc)"
done

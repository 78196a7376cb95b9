#!/bin/bash
# bench_vs_combo.sh — kp-dp against Pisinger's combo (Martello, Pisinger and
# Toth 1999), side by side on the same instances, solve time only (issue 18).
#
#   tools/scripts/bench_vs_combo.sh PATH/TO/combo.c [LIMIT_SECONDS]
#
# combo.c is NOT part of slotopt (its licence allows academic and
# non-commercial use only): supply your own copy. It is compiled, with our
# driver (tools/bench_vs_combo/driver.c.in and combo_shim.c.in), in a
# temporary folder that is removed afterwards; nothing of it is written into
# the repository. Run from the repository root after `make all` (the driver
# links build/libslotopt.a). Not run by CI.
#
# Instances (written by `slotopt gen` into the temporary folder):
#  - Pisinger's seven classes, n = 10,000, R = 1000, 5 each (seed 2026);
#  - strongly and inverse-strongly correlated at n = 100,000, 3 each;
#  - Pisinger's instances in $PISINGER_DIR (default instances/knapsack/pisinger;
#    point it at a folder of knapPI_* files for more, e.g. data you keep
#    outside the repository);
#  - generated hard instances (knapsack-jooken), n = 400, g in {2, 6, 10},
#    c in {1e6, 1e10}, 2 each (seed 2026).
# Output: a markdown table on standard output (one row per set), one line
# per instance on standard error. Columns: see driver.c.in.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1" ]; then
    echo "usage: $0 PATH/TO/combo.c [LIMIT_SECONDS]" >&2
    echo "error: a readable combo.c is required (not shipped with slotopt)" >&2
    exit 2
fi
combo_src=$(realpath "$1")
limit=${2:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -x bin/slotopt ] && [ -f build/libslotopt.a ] || {
    echo "error: run 'make all' first (bin/slotopt, build/libslotopt.a)" >&2
    exit 2
}
pisinger_dir=${PISINGER_DIR:-instances/knapsack/pisinger}

tmp=$(mktemp -d /tmp/bench-vs-combo.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

cp tools/bench_vs_combo/driver.c.in "$tmp/driver.c"
cp tools/bench_vs_combo/combo_shim.c.in "$tmp/combo_shim.c"
cp tools/bench_vs_combo/combo_shim.h "$tmp/"
# our driver with the project's flags; combo.c as it is (-w: not our code)
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Iinclude -I"$tmp" \
    $(pkg-config --cflags jansson) -c "$tmp/driver.c" -o "$tmp/driver.o"
cc -O2 -w -D_GNU_SOURCE -DCOMBO_SOURCE="\"$combo_src\"" -I"$tmp" \
    -c "$tmp/combo_shim.c" -o "$tmp/combo_shim.o"
cc -o "$tmp/driver" "$tmp/driver.o" "$tmp/combo_shim.o" build/libslotopt.a \
    $(pkg-config --libs jansson sqlite3 nlopt lapacke) -lglpk -lopenblas -lm

gen() { # folder family count set...
    local dir=$1 fam=$2 count=$3
    shift 3
    local sets=()
    for kv in "$@"; do sets+=(--set "$kv"); done
    bin/slotopt gen "$fam" --count "$count" --seed 2026 "${sets[@]}" \
        --out "$tmp/$dir" >/dev/null
}

echo "| instances | count | kp-dp proved | kp-dp median s | combo solved | combo median s | ratio of medians | median ratio | worst ratio | combo < 1 s, kp-dp >= 2 s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for class in uncorrelated weakly strongly inverse-strongly almost-strongly \
             subset-sum similar-weights; do
    gen "$class-10k" knapsack 5 n=10000 R=1000 class=$class
    "$tmp/driver" "$class, n = 10,000" "$limit" "$tmp/$class-10k"/*.json
done
for class in strongly inverse-strongly; do
    gen "$class-100k" knapsack 3 n=100000 R=1000 class=$class
    "$tmp/driver" "$class, n = 100,000" "$limit" "$tmp/$class-100k"/*.json
done
"$tmp/driver" "$pisinger_dir (all)" "$limit" "$pisinger_dir"/*.kp
for g in 2 6 10; do
    for c in 1000000 10000000000; do
        gen "jooken-$g-$c" knapsack-jooken 2 n=400 g=$g c=$c
        "$tmp/driver" "jooken n = 400, g = $g, c = $c" "$limit" \
            "$tmp/jooken-$g-$c"/*.json
    done
done

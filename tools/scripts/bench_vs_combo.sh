#!/bin/bash
# bench_vs_combo.sh — kp-dp against Pisinger's combo (Martello, Pisinger and
# Toth 1999), side by side on the same instances, one solve per fresh
# process, CPU time and peak memory of the solve call (issues 18 and 30).
#
#   tools/scripts/bench_vs_combo.sh [PATH/TO/combo.c] [LIMIT_SECONDS]
#
# combo.c is NOT part of slotopt (its licence allows academic and
# non-commercial use only): supply your own copy. It is compiled, with our
# driver (tools/scripts/bench_vs_combo/driver.c.in and combo_shim.c.in), in
# a temporary folder that is removed afterwards; nothing of it is written
# into the repository. Without it (no argument, or "-") kp-dp runs alone.
# Run from anywhere after `make all` (the driver links build/libslotopt.a);
# `make bench-knapsack [COMBO=PATH/TO/combo.c]` does both. Not run by CI.
#
# What runs (environment variables; defaults in brackets):
#   SETS     which sets, any of: grid jooken pisinger [grid jooken pisinger]
#   CLASSES  Pisinger's classes of the grid [uncorrelated weakly strongly
#            inverse-strongly almost-strongly subset-sum similar-weights]
#   RS       coefficient ranges R [1000 10000 100000 1000000 10000000]
#   NS       numbers of items n [1000 10000 100000]
#   COUNT    instances per grid cell [5]; SEED their seed [2030]
#   JOOKEN_COUNT instances per Jooken cell [1] (the cells: jooken_cells
#            below, 24 points of the published grid); JOOKEN_LIMIT their
#            time limit [LIMIT]
#   PISINGER_DIR folder of Pisinger's files [instances/knapsack/pisinger]
#   KP_DP_MAX_STATES kp-dp's max_states option [its default]
#   COMBO_MAXSTATES combo's state table (its MAXSTATES, 1,500,000 in the
#            published code) [as in the copy]: the copy compiled is then
#            the user's with that one #define replaced, in the temporary
#            folder (a measurement of combo given kp-dp's memory; the
#            tables of docs/BENCHMARKS.md say which they used)
# Instances: `slotopt gen knapsack --seed SEED --set n=N --set R=R --set
# class=C`, `slotopt gen knapsack-jooken --seed SEED --set n=.. c=.. g=..
# f=.. eps=.. s=..`, written into the temporary folder.
# Output: a markdown table on standard output (one row per set and cell),
# one line per instance on standard error. Columns: see driver.c.in.
set -euo pipefail

combo_src=
if [ $# -ge 1 ] && [ "$1" != "-" ] && [ -n "$1" ]; then
    if [ ! -f "$1" ]; then
        echo "error: $1: no such file (combo.c, not shipped with slotopt;" \
             "pass - to run kp-dp alone)" >&2
        exit 2
    fi
    combo_src=$(realpath "$1")
fi
limit=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
[ -x bin/slotopt ] && [ -f build/libslotopt.a ] || {
    echo "error: run 'make all' first (bin/slotopt, build/libslotopt.a)" >&2
    exit 2
}
sets=${SETS:-grid jooken pisinger}
classes=${CLASSES:-uncorrelated weakly strongly inverse-strongly almost-strongly subset-sum similar-weights}
rs=${RS:-1000 10000 100000 1000000 10000000}
ns=${NS:-1000 10000 100000}
count=${COUNT:-5}
seed=${SEED:-2030}
jooken_count=${JOOKEN_COUNT:-1}
jooken_limit=${JOOKEN_LIMIT:-$limit}
pisinger_dir=${PISINGER_DIR:-instances/knapsack/pisinger}

tmp=$(mktemp -d /tmp/bench-vs-combo.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

src=$here/bench_vs_combo
cp "$src/driver.c.in" "$tmp/driver.c"
cp "$src/combo_shim.h" "$tmp/"
# our driver with the project's flags; combo.c as it is (-w: not our code)
cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -Iinclude -I"$tmp" \
    $(pkg-config --cflags jansson) -c "$tmp/driver.c" -o "$tmp/driver.o"
if [ -n "$combo_src" ] && [ -n "${COMBO_MAXSTATES:-}" ]; then
    case $COMBO_MAXSTATES in
    *[!0-9]* | 0*)
        echo "error: COMBO_MAXSTATES: expected a positive integer, got" \
             "'$COMBO_MAXSTATES'" >&2
        exit 2
        ;;
    esac
    grep -q '^#define MAXSTATES ' "$combo_src" || {
        echo "error: $combo_src: no '#define MAXSTATES' line for" \
             "COMBO_MAXSTATES" >&2
        exit 2
    }
    sed "s/^#define MAXSTATES .*/#define MAXSTATES $COMBO_MAXSTATES/" \
        "$combo_src" >"$tmp/combo.c"
    combo_src=$tmp/combo.c
fi
if [ -n "$combo_src" ]; then
    cp "$src/combo_shim.c.in" "$tmp/combo_shim.c"
    cc -O2 -w -D_GNU_SOURCE -DCOMBO_SOURCE="\"$combo_src\"" -I"$tmp" \
        -c "$tmp/combo_shim.c" -o "$tmp/combo_shim.o"
else
    cp "$src/combo_none.c.in" "$tmp/combo_shim.c"
    cc -std=c11 -O2 -Wall -Wextra -Werror -I"$tmp" \
        -c "$tmp/combo_shim.c" -o "$tmp/combo_shim.o"
fi
cc -o "$tmp/driver" "$tmp/driver.o" "$tmp/combo_shim.o" build/libslotopt.a \
    $(pkg-config --libs jansson nlopt lapacke) -lglpk -lopenblas -lm

gen() { # folder family count set...
    local dir=$1 fam=$2 cnt=$3
    shift 3
    local args=()
    for kv in "$@"; do args+=(--set "$kv"); done
    bin/slotopt gen "$fam" --count "$cnt" --seed "$seed" "${args[@]}" \
        --out "$tmp/$dir" >/dev/null
}

# 24 points of Jooken, Leyman and De Causmaecker's grid (n 400-1200,
# c 1e6-1e10, g 2-14, f 0.1-0.3, eps 0-0.1, s 100-300): n c g f eps s
jooken_cells="
400 1000000 2 0.1 0 100
400 1000000 6 0.2 0.00001 300
400 100000000 10 0.3 0.001 100
400 10000000000 14 0.1 0.1 300
400 10000000000 10 0.1 0 100
400 100000000 6 0.3 0.1 300
600 1000000 10 0.2 0.1 100
600 100000000 14 0.3 0 300
600 10000000000 2 0.1 0.001 100
600 1000000 6 0.1 0.00001 300
800 100000000 2 0.2 0.00001 100
800 10000000000 6 0.3 0.001 300
800 1000000 14 0.1 0.001 100
800 10000000000 10 0.2 0 300
1000 10000000000 14 0.2 0.00001 100
1000 1000000 2 0.3 0.1 300
1000 100000000 6 0.1 0 100
1000 10000000000 10 0.3 0.00001 300
1200 100000000 10 0.1 0.1 300
1200 1000000 14 0.2 0 100
1200 10000000000 2 0.2 0.1 300
1200 1000000 6 0.3 0.001 100
1200 100000000 14 0.3 0.00001 300
1200 10000000000 6 0.2 0 100
"

echo "| instances | count | kp-dp proved | kp-dp median s | kp-dp worst s | combo solved | combo median s | median ratio | worst ratio | kp-dp median MB | combo median MB | worst memory ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
status=0
for set in $sets; do
    case $set in
    grid)
        for n in $ns; do
            for class in $classes; do
                for r in $rs; do
                    d="$class-$n-$r"
                    gen "$d" knapsack "$count" n="$n" R="$r" class="$class"
                    "$tmp/driver" "$class, n = $n, R = $r" "$limit" \
                        "$tmp/$d"/*.json || status=1
                    rm -rf "${tmp:?}/$d"
                done
            done
        done
        ;;
    jooken)
        k=0
        while read -r n c g f eps s; do
            [ -n "$n" ] || continue
            k=$((k + 1))
            d="jooken-$k"
            gen "$d" knapsack-jooken "$jooken_count" n="$n" c="$c" g="$g" \
                f="$f" eps="$eps" s="$s"
            "$tmp/driver" "jooken n = $n, c = $c, g = $g, f = $f, eps = $eps, s = $s" \
                "$jooken_limit" "$tmp/$d"/*.json || status=1
            rm -rf "${tmp:?}/$d"
        done <<<"$jooken_cells"
        ;;
    pisinger)
        "$tmp/driver" "$pisinger_dir (all)" "$limit" "$pisinger_dir"/*.kp ||
            status=1
        ;;
    *)
        echo "error: SETS: unknown set '$set' (grid, jooken, pisinger)" >&2
        exit 2
        ;;
    esac
done
exit $status

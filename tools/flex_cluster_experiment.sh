#!/bin/sh
# flex_cluster_experiment.sh — FLEX against fair on the cluster model, the
# FLEX paper's Sec. 4.2 / Fig. 6 sweeps (slack, inter-arrival time, job-size
# heterogeneity, job count) on the `flex-cluster` family, with FLEX
# estimating task times (the default) and with the oracle (true work).
# Prints a markdown table: mean response time (s) averaged over SEEDS seeds,
# and FLEX's improvement over fair.
#   usage: tools/flex_cluster_experiment.sh [SLOTOPT] [SEEDS]
set -eu
B=${1:-bin/slotopt}
SEEDS=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # $1 workload, rest: sim options -> mean response
    w=$1; shift
    "$B" sim "$w" "$@" | sed -n 's/.*"mean": *\([0-9.e+-]*\).*/\1/p' | head -1
}
echo "| setting | fair | flex (estimated) | flex (oracle) | estimated vs fair | oracle vs fair |"
echo "|---|---:|---:|---:|---:|---:|"
row() { # $1 label, rest: --set options
    label=$1; shift
    : > "$tmp/values"
    for s in $(seq 1 "$SEEDS"); do
        rm -f "$tmp"/*.json
        "$B" gen flex-cluster --seed "$s" --count 1 "$@" --out "$tmp" >/dev/null
        w=$(ls "$tmp"/*.json)
        echo "$(run "$w" --scheduler fair) $(run "$w" --scheduler flex)" \
             "$(run "$w" --scheduler flex --opt oracle=1)" >> "$tmp/values"
    done
    awk -v l="$label" '{ f += $1; e += $2; o += $3; n++ } END {
        printf "| %s | %.1f | %.1f | %.1f | %+.1f %% | %+.1f %% |\n", l,
            f / n, e / n, o / n, 100 * (e - f) / f, 100 * (o - f) / f }' \
        "$tmp/values"
}
for v in 0.15 0.35 0.55 0.75 0.95; do row "slack $v" --set slack=$v; done
for v in 0 0.5 1 1.5 2; do row "lambda $v min" --set lambda=$v; done
for v in 0 1 2 3 4; do row "sigma $v" --set sigma=$v; done
for v in 10 20 40; do row "$v jobs" --set jobs=$v; done

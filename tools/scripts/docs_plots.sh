#!/bin/sh
# docs_plots.sh — the gallery of docs/gallery.md: one plot of each type
# slotopt draws, as small PNGs in OUT (default docs/img/gallery). Usage:
#   tools/scripts/docs_plots.sh [SLOTOPT] [OUT]        (make docs-plots)
# Deterministic (fixed seeds); needs gnuplot. Takes a few seconds.
set -eu
SLOTOPT=${1:-bin/slotopt}
OUT=${2:-docs/img/gallery}
command -v gnuplot >/dev/null || { echo "docs_plots.sh: gnuplot is needed" >&2; exit 1; }
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/slotopt-gallery-XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM

# 1. frontiers of one instance, window shaded (slotopt frontier --plot)
"$SLOTOPT" frontier --backend pareto-slots --backend pareto-nsga2 \
    --plot "$OUT/frontier.png" instances/pareto/taobao-10.json >/dev/null
# 2. slot utilisation over time (slotopt sim --plot)
"$SLOTOPT" sim instances/cluster/two_pools.json --scheduler fair --summary \
    --plot "$OUT/sim-utilisation.png" >/dev/null
# 3-6. report --plot: gaps by group, gaps as a distribution, RAS differences,
# stored frontiers
for s in flex ras pareto; do
    "$SLOTOPT" bench --scenario "instances/scenarios/gallery-$s.json" \
        --db "$WORK/$s.db" >/dev/null 2>&1
done
"$SLOTOPT" report --db "$WORK/flex.db" --plot "$WORK/flex" --plot-type png >/dev/null 2>&1
cp "$WORK/flex/gaps-flex.png" "$OUT/report-gaps-by-group.png"
"$SLOTOPT" report --db "$WORK/flex.db" --group-by '' --plot "$WORK/flexcdf" \
    --plot-type png >/dev/null 2>&1
cp "$WORK/flexcdf/gaps-flex.png" "$OUT/report-gaps-cdf.png"
"$SLOTOPT" report --db "$WORK/ras.db" --plot "$WORK/ras" --plot-type png >/dev/null 2>&1
cp "$WORK/ras/gaps-ras.png" "$OUT/report-ras-difference.png"
"$SLOTOPT" report --db "$WORK/pareto.db" --plot "$WORK/pareto" --plot-type png >/dev/null 2>&1
cp "$WORK/pareto"/frontier-*.png "$OUT/report-frontier.png"
ls "$OUT"

#!/bin/sh
# docs_plots.sh — the gallery of docs/gallery.md: one plot of each type
# slotopt draws, as small PNGs in OUT (default docs/img/gallery), and the
# scenario figures the docs show (docs/cluster.md, harness.md, stealing.md,
# wpbs.md) in IMG (default docs/img). Usage:
#   tools/scripts/docs_plots.sh [SLOTOPT] [OUT] [IMG]     (make docs-plots)
# Deterministic (fixed seeds); needs gnuplot. Takes about half a minute.
# A PNG is replaced only when its pixels changed (cmp), so that a rerun
# leaves the tracked files as they are.
set -eu
SLOTOPT=${1:-bin/slotopt}
OUT=${2:-docs/img/gallery}
IMG=${3:-docs/img}
command -v gnuplot >/dev/null || { echo "docs_plots.sh: gnuplot is needed" >&2; exit 1; }
mkdir -p "$OUT" "$IMG"
WORK=$(mktemp -d /tmp/slotopt-gallery-XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM
# put FROM TO: copies FROM onto TO unless TO has the same bytes
put() { cmp -s "$1" "$2" || cp "$1" "$2"; }

# 1. frontiers of one instance, window shaded (slotopt frontier --plot)
"$SLOTOPT" frontier --backend pareto-slots --backend pareto-nsga2 \
    --plot "$WORK/frontier.png" instances/pareto/taobao-10.json >/dev/null
put "$WORK/frontier.png" "$OUT/frontier.png"
# 2. slot utilisation over time (slotopt sim --plot)
"$SLOTOPT" sim instances/cluster/two_pools.json --scheduler fair --summary \
    --plot "$WORK/sim-utilisation.png" >/dev/null
put "$WORK/sim-utilisation.png" "$OUT/sim-utilisation.png"
# 3-6. report --plot: gaps by group, gaps as a distribution, RAS differences,
# stored frontiers
for s in flex ras pareto; do
    "$SLOTOPT" bench --scenario "instances/scenarios/gallery-$s.json" \
        --db "$WORK/$s.db" >/dev/null 2>&1
done
"$SLOTOPT" report --db "$WORK/flex.db" --plot "$WORK/flex" --plot-type png >/dev/null 2>&1
put "$WORK/flex/gaps-flex.png" "$OUT/report-gaps-by-group.png"
"$SLOTOPT" report --db "$WORK/flex.db" --group-by '' --plot "$WORK/flexcdf" \
    --plot-type png >/dev/null 2>&1
put "$WORK/flexcdf/gaps-flex.png" "$OUT/report-gaps-cdf.png"
"$SLOTOPT" report --db "$WORK/ras.db" --plot "$WORK/ras" --plot-type png >/dev/null 2>&1
put "$WORK/ras/gaps-ras.png" "$OUT/report-ras-difference.png"
"$SLOTOPT" report --db "$WORK/pareto.db" --plot "$WORK/pareto" --plot-type png >/dev/null 2>&1
put "$WORK/pareto"/frontier-*.png "$OUT/report-frontier.png"

# 7. the scenario figures of the docs (report --scenario NAME --plot) and
# the simulation plots of flex-fig6b (report --plot: bars and CDFs)
for s in flex-cluster stealing-fig3 wpbs-load wpbs-sweeps wpbs-table2 ras-figs4-5 \
    ras-fig6 flex-fig6b; do
    "$SLOTOPT" bench --scenario "$s" --db "$WORK/$s.db" >/dev/null 2>&1
    "$SLOTOPT" report --scenario "$s" --db "$WORK/$s.db" --plot "$WORK/$s" \
        --plot-type png >/dev/null 2>&1 || true  # exit 3: a table with gaps
done
for f in scenario-flex-cluster-1 scenario-stealing-fig3-1 scenario-stealing-fig3-2 \
    scenario-stealing-fig3-3 scenario-wpbs-load scenario-wpbs-sweeps-1 \
    scenario-wpbs-sweeps-2 scenario-wpbs-sweeps-3 scenario-wpbs-table2-1 \
    scenario-ras-figs4-5-1 scenario-ras-figs4-5-2 scenario-ras-figs4-5-3 \
    scenario-ras-figs4-5-4 scenario-ras-fig6-1 scenario-ras-fig6-2; do
    s=${f#scenario-}
    s=${s%-[0-9]}
    put "$WORK/$s/$f.png" "$IMG/$f.png"
done
"$SLOTOPT" report --db "$WORK/flex-fig6b.db" --plot "$WORK/fig6b" --plot-type png \
    >/dev/null 2>&1
put "$WORK/fig6b/sim-metric.png" "$IMG/flex-fig6b-metric.png"
put "$WORK/fig6b/sim-cdf-lambda=0.png" "$IMG/flex-fig6b-cdf-lambda0.png"
ls "$OUT" "$IMG"

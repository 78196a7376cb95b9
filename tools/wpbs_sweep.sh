#!/bin/sh
# wpbs_sweep.sh — the WPBS parameter sweeps of docs/wpbs.md on `slotopt gen
# wpbs-paper` (seeds 1..SEEDS, default 10; mean over the seeds of each
# user's mean response): alpha, the load (arrival-rate scale; fifo, fair and
# wpbs), the history window and the update interval. Writes OUT/wpbs_<sweep>.tsv
# (x, then one column per user and "all") and, with gnuplot,
# OUT/wpbs_<sweep>.png. Needs jq (wpbs_runs.sh).
#   tools/wpbs_sweep.sh [OUT]        (OUT defaults to docs/img)
set -eu
here=$(dirname "$0")
out=${1:-docs/img}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
users="wordcount pi grep sort all"

# mean over seeds per (scheduler, user) of wpbs_runs.sh output on stdin:
# prints "sched user mean"
average() {
    awk -F '\t' '{ k = $2 "\t" $3; s[k] += $4; n[k]++ }
        END { for (k in s) printf "%s\t%.3f\n", k, s[k] / n[k] }'
}

# one row: x, then the scheduler's mean per user
row() { # x sched file
    printf '%s' "$1"
    for u in $users; do
        v=$(awk -F '\t' -v k="$2" -v u="$u" '$1 == k && $2 == u { print $3 }' "$3")
        printf '\t%s' "${v:-nan}"
    done
    printf '\n'
}

header() { printf 'x'; for u in $users; do printf '\t%s' "$u"; done; printf '\n'; }

sweep_wpbs() { # name option values...
    name=$1 opt=$2
    shift 2
    header > "$out/wpbs_$name.tsv"
    for x in "$@"; do
        SCHEDS=wpbs WPBS_OPT="--opt $opt=$x" "$here/wpbs_runs.sh" | average > "$tmp/avg"
        row "$x" wpbs "$tmp/avg" >> "$out/wpbs_$name.tsv"
    done
}

sweep_wpbs alpha alpha 0 0.25 0.5 0.75 1
sweep_wpbs window window 1 2 5 10 20 50 0
sweep_wpbs update update 0 5 15 30 60 120 300

# load: every scheduler and the bound, overall and per user
for k in fifo fair wpbs bound; do header > "$out/wpbs_load-$k.tsv"; done
for x in 0.5 0.75 1 1.25 1.5 1.75 2; do
    GEN_SET="--set load=$x" "$here/wpbs_runs.sh" | average > "$tmp/avg"
    for k in fifo fair wpbs bound; do row "$x" "$k" "$tmp/avg" >> "$out/wpbs_load-$k.tsv"; done
done

command -v gnuplot >/dev/null || { echo "wpbs_sweep.sh: no gnuplot, tables only" >&2; exit 0; }
per_user_plot() { # name xlabel [logscale-x-none]
    gnuplot <<GP
set terminal pngcairo size 640,400 font ",10" noenhanced
set output "$out/wpbs_$1.png"
set datafile separator "\t"
set key outside right
set logscale y
set xlabel "$2"
set ylabel "mean response (s), 10 seeds"
set title "WPBS on wpbs-paper: $2"
plot for [c=2:6] "$out/wpbs_$1.tsv" using 1:c with linespoints title columnheader(c)
GP
}
per_user_plot alpha "alpha (0 = Fair's shares, 1 = paper)"
# window 0 (unlimited) is drawn at x = 100
sed '2,$ s/^0\t/100\t/' "$out/wpbs_window.tsv" > "$tmp/window.tsv"
cp "$tmp/window.tsv" "$out/wpbs_window-plot.tsv"
per_user_plot window-plot "history window, jobs (100 = unlimited)"
mv "$out/wpbs_window-plot.png" "$out/wpbs_window.png"
rm -f "$out/wpbs_window-plot.tsv"
per_user_plot update "update interval, s"
gnuplot <<GP
set terminal pngcairo size 900,400 font ",10" noenhanced
set output "$out/wpbs_load.png"
set datafile separator "\t"
set multiplot layout 1,2
set logscale y
set xlabel "load (arrival-rate scale)"
set ylabel "mean response (s), 10 seeds"
set key top left
set title "all jobs"
plot "$out/wpbs_load-fifo.tsv" using 1:6 with linespoints title "fifo", \
     "$out/wpbs_load-fair.tsv" using 1:6 with linespoints title "fair", \
     "$out/wpbs_load-wpbs.tsv" using 1:6 with linespoints title "wpbs", \
     "$out/wpbs_load-bound.tsv" using 1:6 with lines dt 2 title "lower bound"
set title "per user under wpbs"
plot for [c=2:5] "$out/wpbs_load-wpbs.tsv" using 1:c with linespoints title columnheader(c)
unset multiplot
GP

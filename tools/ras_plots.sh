#!/bin/sh
# ras_plots.sh — the RAS paper's Figs. 4-6 from the cluster model's event
# logs (slotopt sim --events-out; sched_ras.c adds one "ras-cycle" line per
# job and control cycle): running map and reduce tasks per application
# (Sort, Combine, Select) over time under Fair with 4 map slots and under
# RAS (Fig. 4 a-b), the mean running tasks per TaskTracker over time, the
# job utilities of RAS over time (Fig. 5), and Experiment 2's running
# tasks and utilities per job (Fig. 6). PNGs by gnuplot into OUT (default
# docs/img). Seed 1; about 5 s.
#
#   tools/ras_plots.sh [OUT]
set -eu
BIN=${SLOTOPT:-bin/slotopt}
OUT=${1:-docs/img}
STEP=${STEP:-20}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
mkdir -p "$OUT"
# the plots of docs/ras-online.md were drawn under contention share
"$BIN" gen ras-gridmix-workload --set contention=share --out "$DIR/e1" >/dev/null
"$BIN" gen ras-gridmix-workload --set goals=tight --set contention=share \
    --out "$DIR/e2" >/dev/null
W1=$(ls "$DIR"/e1/*.json)
W2=$(ls "$DIR"/e2/*.json)
"$BIN" sim "$W1" --scheduler fair --opt map_slots=4 --events-out "$DIR/fair4.log" >/dev/null
"$BIN" sim "$W1" --scheduler ras --events-out "$DIR/ras1.log" >/dev/null
"$BIN" sim "$W2" --scheduler ras --events-out "$DIR/ras2.log" >/dev/null

# Jobs of a workload: "name user maps reduces submit goal" in job order
# (the generated jobs are in submit order, the engine's order).
jobs() {
    jq -r '.jobs[] | "\(.name) \(.user) \(.maps | if type == "array" then length else .count end) \(.reduces // [] | if type == "array" then length else .count end) \(.submit) \(.goal // 0)"' "$1"
}
jobs "$W1" >"$DIR/jobs1"
jobs "$W2" >"$DIR/jobs2"

# running LOG JOBS BY: running tasks every STEP s; BY=app: columns Sort
# maps, Sort reduces, Combine maps, Combine reduces, Select maps, Select
# reduces, all tasks / nodes; BY=job: one column per job (maps + reduces)
running() {
    awk -v step="$STEP" -v by="$3" '
        BEGIN { n = 0; total = 0 }
        FILENAME == ARGV[1] { name[n] = $1; app[n] = $2; nm[n] = $3
                              first[n] = total; total += $3 + $4; n++; next }
        function phase(t,   j) { for (j = n - 1; j > 0 && first[j] > t; j--) ;
                                 J = j; return t - first[j] < nm[j] ? 0 : 1 }
        function flush(upto) {
            while (next_t <= upto) {
                if (by == "app") {
                    printf "%g", next_t
                    split("Sort Combine Select", a, " ")
                    for (i = 1; i <= 3; i++) printf " %d %d", c[a[i], 0], c[a[i], 1]
                    printf " %.3f\n", all / 20
                } else {
                    printf "%g", next_t
                    for (j = 0; j < n; j++) printf " %d", r[j]
                    printf "\n"
                }
                next_t += step
            }
        }
        { t = $1 + 0; flush(t)
          d = 0
          if ($2 == "launch" || $2 == "launch-speculative") d = 1
          else if ($2 == "task-done" || $2 == "kill" || $2 == "kill-redundant") d = -1
          if (d) { split($4, kv, "="); p = phase(kv[2] + 0)
                   c[app[J], p] += d; r[J] += d; all += d }
          last = t }
        END { flush(last) }' "$2" "$1"
}
running "$DIR/fair4.log" "$DIR/jobs1" app >"$DIR/fair4.app"
running "$DIR/ras1.log" "$DIR/jobs1" app >"$DIR/ras1.app"
running "$DIR/ras2.log" "$DIR/jobs2" job >"$DIR/ras2.job"

# utility LOG: one column per job, the utility of each control cycle
# (-inf, a job with maps pending and none placed, drawn at -3; a job not
# active: missing, "?")
utility() {
    awk -v jobs="$(wc -l <"$2")" '
        $2 == "ras-cycle" { t = $1 + 0
            if (t != cur) { if (have) out(); cur = t; have = 1; delete u }
            split($3, a, "="); split($4, b, "=")
            u[a[2]] = b[2] == "-inf" ? -3 : b[2] }
        function out(  j) { printf "%g", cur
                            for (j = 0; j < jobs; j++) printf " %s", (j in u) ? u[j] : "?"
                            printf "\n" }
        END { if (have) out() }' "$1"
}
utility "$DIR/ras1.log" "$DIR/jobs1" >"$DIR/ras1.util"
utility "$DIR/ras2.log" "$DIR/jobs2" >"$DIR/ras2.util"

titles() { # gnuplot title list of the jobs file
    awk '{ printf "%s\"%s\"", (NR > 1 ? " " : ""), $1 }' "$1"
}
T1=$(titles "$DIR/jobs1")
T2=$(titles "$DIR/jobs2")
GOALS2=$(awk '$6 > 0 { printf "set arrow from %g, graph 0 to %g, graph 1 nohead dt 3 lc rgb \"gray\"\n", $5 + $6, $5 + $6 }' "$DIR/jobs2")

gnuplot <<G
set terminal pngcairo size 1000,700 font ",9" noenhanced
set datafile missing "?"
set linetype 9 lc rgb "#8b0000" lw 1.2 dt 2
set output "$OUT/ras-exp1-tasks.png"
set multiplot layout 3,2 title "Experiment 1: running tasks per application (solid: maps, dashed: reduces)"
apps = "Sort Combine Select"
do for [i = 1:3] {
  set title sprintf("Fair, 4 map slots per TaskTracker: %s", word(apps, i))
  set ylabel "tasks"
  set yrange [0:*]
  plot "$DIR/fair4.app" u 1:(column(2*i)) w l lw 1.5 lc i notitle, \
       "" u 1:(column(2*i+1)) w l dt 2 lw 1.5 lc i notitle
  set title sprintf("RAS: %s", word(apps, i))
  plot "$DIR/ras1.app" u 1:(column(2*i)) w l lw 1.5 lc i notitle, \
       "" u 1:(column(2*i+1)) w l dt 2 lw 1.5 lc i notitle
}
unset multiplot

set terminal pngcairo size 900,380 font ",9" noenhanced
set output "$OUT/ras-exp1-per-node.png"
set title "Experiment 1: running tasks per TaskTracker (maps + reduces, mean over 20)"
set xlabel "time (s)"
set ylabel "tasks per TaskTracker"
set yrange [0:*]
set key top right
plot "$DIR/fair4.app" u 1:8 w l lw 1.5 t "Fair, 4 map + 2 reduce slots", \
     "$DIR/ras1.app" u 1:8 w l lw 1.5 t "RAS"

set terminal pngcairo size 900,420 font ",9" noenhanced
set output "$OUT/ras-exp1-utility.png"
set title "Experiment 1: job utility per control cycle under RAS (-3: pending maps, none placed)"
set ylabel "utility"
set yrange [*:1.05]
set key outside right
titles = '$T1'
plot for [j = 1:9] "$DIR/ras1.util" u 1:(column(j+1)) w l lw 1.2 lt j t word(titles, j)

set output "$OUT/ras-exp2-tasks.png"
set title "Experiment 2 (tight goals): running tasks per job under RAS (dotted: goals)"
set ylabel "tasks"
set yrange [0:*]
$GOALS2
titles = '$T2'
plot for [j = 1:9] "$DIR/ras2.job" u 1:(column(j+1)) w l lw 1.2 lt j t word(titles, j)
unset arrow

set output "$OUT/ras-exp2-utility.png"
set title "Experiment 2 (tight goals): job utility per control cycle under RAS"
set ylabel "utility"
set yrange [*:1.05]
plot for [j = 1:9] "$DIR/ras2.util" u 1:(column(j+1)) w l lw 1.2 lt j t word(titles, j)
G
ls -l "$OUT"/ras-exp*.png

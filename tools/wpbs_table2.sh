#!/bin/sh
# wpbs_table2.sh — the WPBS paper's Table II experiment (docs/wpbs.md):
# `slotopt gen wpbs-paper` over seeds 1..SEEDS (10) under fifo, fair (one
# pool per user, the JSON default) and wpbs, and the lower bound; prints the
# markdown tables of docs/wpbs.md: mean response per user and overall (mean
# and sd over the seeds), the ratios FIFO/WPBS and Fair/WPBS, and on how
# many seeds WPBS < Fair < FIFO holds. Same environment as wpbs_runs.sh.
#   tools/wpbs_table2.sh > table.md
set -eu
here=$(dirname "$0")
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
SCHEDS="fifo fair wpbs" "$here/wpbs_runs.sh" > "$raw"
awk -F '\t' '
{
    key = $2 SUBSEP $3
    n[key]++; sum[key] += $4; sq[key] += $4 * $4
    if (!($3 in seen_u)) { seen_u[$3] = 1; users[++nu] = $3 }
    if ($3 == "all") v[$1, $2] = $4
    if (!($1 in seen_s)) { seen_s[$1] = 1; seeds[++ns] = $1 }
}
function mean(k) { return sum[k] / n[k] }
function sd(k,   m) { m = mean(k); return n[k] > 1 ? sqrt((sq[k] - n[k] * m * m) / (n[k] - 1)) : 0 }
END {
    split("fifo fair wpbs bound", sch, " ")
    printf "| scheduler |"
    for (i = 1; i <= nu; i++) printf " %s |", users[i]
    printf "\n|---|"
    for (i = 1; i <= nu; i++) printf "---:|"
    printf "\n"
    for (s = 1; s <= 4; s++) {
        printf "| %s |", sch[s]
        for (i = 1; i <= nu; i++) {
            k = sch[s] SUBSEP users[i]
            printf " %.1f ± %.1f |", mean(k), sd(k)
        }
        printf "\n"
    }
    ok = 0; r1 = r2 = r3 = q1 = q2 = q3 = 0
    for (i = 1; i <= ns; i++) {
        sd_ = seeds[i]
        a = v[sd_, "fifo"]; b = v[sd_, "fair"]; c = v[sd_, "wpbs"]
        if (c < b && b < a) ok++; else bad = bad " " sd_
        r1 += a / c; q1 += (a / c)^2
        r2 += b / c; q2 += (b / c)^2
        r3 += a / b; q3 += (a / b)^2
    }
    printf "\nSeeds: %d. Ratios of the overall mean response, per seed (mean ± sd):" \
           " FIFO/WPBS %.2f ± %.2f, Fair/WPBS %.2f ± %.2f, FIFO/Fair %.2f ± %.2f.\n", ns,
           r1 / ns, sqrt((q1 - r1 * r1 / ns) / (ns > 1 ? ns - 1 : 1)),
           r2 / ns, sqrt((q2 - r2 * r2 / ns) / (ns > 1 ? ns - 1 : 1)),
           r3 / ns, sqrt((q3 - r3 * r3 / ns) / (ns > 1 ? ns - 1 : 1))
    printf "WPBS < Fair < FIFO (overall mean) on %d of %d seeds%s.\n", ok, ns,
           ok < ns ? " (fails on seeds" bad ")" : ""
}' "$raw"

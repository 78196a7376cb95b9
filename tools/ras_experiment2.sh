#!/bin/sh
# ras_experiment2.sh — the RAS paper's Experiment 2 (Polo et al., Middleware
# 2011, sec. 4.3, Table 1): the Gridmix workload with Table 1's tight
# completion-time goals (`slotopt gen ras-gridmix-workload --set
# goals=tight`), under Fair with static map slots (FAIR_SLOTS, default 4
# and 5) and under RAS, one run per seed. Prints a markdown table per job:
# its goal (absolute), the paper's Experiment 2 completion time (RAS), and
# per scheduler the mean completion time over the seeds and in how many
# seeds the goal was met; then the makespans.
#
#   tools/ras_experiment2.sh                 # seeds 1-5, about 10 s
#   FAIR_SLOTS="4 5 6" EXTRA="--opt cycle=3" tools/ras_experiment2.sh
#   CONTENTION=share tools/ras_experiment2.sh   # the model before issue 32
set -eu
BIN=${SLOTOPT:-bin/slotopt}
SEEDS=${SEEDS:-"1 2 3 4 5"}
FAIR_SLOTS=${FAIR_SLOTS:-"4 5"}
EXTRA=${EXTRA:-}
CONTENTION=${CONTENTION:-physical}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
"$BIN" gen ras-gridmix-workload --set goals=tight \
    --set contention="$CONTENTION" --out "$DIR/w" >/dev/null
W=$(ls "$DIR"/w/*.json)

# run NAME ARGS...: lines "NAME job finish goal" per seed and job, and
# "NAME makespan value"
run() {
    name=$1
    shift
    for s in $SEEDS; do
        "$BIN" sim "$W" --seed "$s" "$@" >"$DIR/out.json"
        jq -r --arg n "$name" --slurpfile w "$W" \
            '[$w[0].jobs[] | .submit + .goal] as $g |
             (.jobs | to_entries[] |
              "\($n) \(.value.name) \(.value.finish) \($g[.key])"),
             "\($n) makespan \(.makespan) 0"' "$DIR/out.json"
    done
}

{
    for k in $FAIR_SLOTS; do
        run "Fair-$k" --scheduler fair --opt map_slots="$k"
    done
    # shellcheck disable=SC2086
    run RAS --scheduler ras $EXTRA
} >"$DIR/runs"

# the paper's Experiment 2 completion times (Table 1)
cat >"$DIR/paper" <<'P'
J1-Sort 3018
J2-Combine 896
J3-Select 802
J4-Select 550
J5-Select 560
J6-Combine 2589
J7-Combine 4614
J8-Sort 3365
J9-Sort 4141
makespan 4614
P

awk -v nseeds="$(echo $SEEDS | wc -w)" '
    FILENAME ~ /paper$/ { paper[$1] = $2; next }
    { key = $1 SUBSEP $2; sum[key] += $3; goal[$2] = $4
      if ($2 != "makespan" && $3 <= $4 + 1e-6) met[key]++
      if (!($1 in ss)) { sched[++ns] = $1; ss[$1] = 1 }
      if (!($2 in js)) { job[++nj] = $2; js[$2] = 1 } }
    END {
        printf "| job | goal (s) | paper RAS (s) |"
        for (i = 1; i <= ns; i++) printf " %s (s) | met |", sched[i]
        printf "\n|---|---:|---:|"
        for (i = 1; i <= ns; i++) printf "---:|---:|"
        printf "\n"
        for (j = 1; j <= nj; j++) {
            name = job[j]
            if (name == "makespan") printf "| makespan | | %s |", paper[name]
            else printf "| %s | %.0f | %s |", name, goal[name], paper[name]
            for (i = 1; i <= ns; i++) {
                key = sched[i] SUBSEP name
                printf " %.0f |", sum[key] / nseeds
                if (name == "makespan") printf " |"
                else printf " %d/%d |", met[key] + 0, nseeds
            }
            printf "\n"
        }
    }' "$DIR/paper" "$DIR/runs"

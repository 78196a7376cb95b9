#!/bin/sh
# ras_experiment1.sh — the RAS paper's Experiment 1 (Polo et al., Middleware
# 2011, sec. 4.2, Fig. 3) on the cluster model: the Gridmix workload of
# Tables 1-2 (`slotopt gen ras-gridmix-workload`, relaxed goals, contention
# CONTENTION: physical, the default, or share: cpu and io shared, memory
# hard) on 20 TaskTrackers, under Fair
# with 1..8 static map slots per TaskTracker (--opt map_slots=K) and under
# RAS (--scheduler ras), one run per seed (the seed moves the heartbeat
# phases; task times are Table 1's, fixed). Prints a markdown table:
# makespan per seed, mean, RAS's gain over the setting, and the mean number
# of running tasks per TaskTracker (busy slot-seconds / (20 x makespan)).
#
#   tools/ras_experiment1.sh                 # seeds 1-5, about 30 s
#   SEEDS="1 2 3" GOALS=tight tools/ras_experiment1.sh
#   EXTRA="--opt cycle=3" tools/ras_experiment1.sh   # RAS options
#   CONTENTION=share tools/ras_experiment1.sh # the model before issue 32
#   CONTENTION=none tools/ras_experiment1.sh  # every resource checked at launch
#   OPTS="--opt swap_penalty=3" tools/ras_experiment1.sh  # --opt to every run
set -eu
BIN=${SLOTOPT:-bin/slotopt}
SEEDS=${SEEDS:-"1 2 3 4 5"}
GOALS=${GOALS:-none}
CONTENTION=${CONTENTION:-physical}
EXTRA=${EXTRA:-}
OPTS=${OPTS:-}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
"$BIN" gen ras-gridmix-workload --set goals="$GOALS" \
    --set contention="$CONTENTION" --out "$DIR/w" >/dev/null
W=$(ls "$DIR"/w/*.json)
NODES=$(jq '[.cluster.nodes[].count] | add' "$W")

# run NAME ARGS...: one line "NAME makespan tasks_per_node" per seed
run() {
    name=$1
    shift
    for s in $SEEDS; do
        # shellcheck disable=SC2086
        "$BIN" sim "$W" --seed "$s" "$@" $OPTS |
            jq -r --arg n "$name" --argjson nodes "$NODES" \
                '"\($n) \(.makespan) \((.busy_slot_seconds.map + .busy_slot_seconds.reduce) / ($nodes * .makespan))"'
    done
}

{
    for k in 1 2 3 4 5 6 7 8; do
        run "Fair-$k" --scheduler fair --opt map_slots="$k"
    done
    # shellcheck disable=SC2086
    run RAS --scheduler ras $EXTRA
} >"$DIR/runs"

awk -v seeds="$SEEDS" '
    { ms[$1] = ms[$1] " " sprintf("%.0f", $2); sum[$1] += $2; n[$1]++;
      tpn[$1] += $3; if (!($1 in seen)) { order[++k] = $1; seen[$1] = 1 } }
    END {
        ns = split(seeds, s, " ")
        printf "| setting |"
        for (i = 1; i <= ns; i++) printf " seed %s |", s[i]
        printf " mean makespan (s) | over RAS | tasks per TaskTracker |\n|---|"
        for (i = 1; i <= ns; i++) printf "---:|"
        printf "---:|---:|---:|\n"
        ras = sum["RAS"] / n["RAS"]
        for (i = 1; i <= k; i++) {
            name = order[i]; m = sum[name] / n[name]
            split(substr(ms[name], 2), v, " ")
            printf "| %s |", name
            for (j = 1; j <= ns; j++) printf " %s |", v[j]
            gain = name == "RAS" ? "—" : sprintf("%+.1f %%", 100 * (m - ras) / ras)
            printf " %.0f | %s | %.2f |\n", m, gain, tpn[name] / n[name]
        }
    }' "$DIR/runs"

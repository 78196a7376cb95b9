#!/bin/sh
# wpbs_runs.sh — replays `slotopt gen wpbs-paper` workloads under several
# schedulers and prints one line per seed, scheduler and user (plus "all"):
#   seed <TAB> scheduler <TAB> user <TAB> mean response (s) <TAB> jobs
# and, as scheduler "bound", the lower bound of docs/wpbs.md ("Lower
# bound"): every job alone on the whole cluster.
# Environment (all optional):
#   SLOTOPT   the binary (bin/slotopt)
#   SEEDS     seeds 1..SEEDS (10)
#   SCHEDS    schedulers ("fifo fair wpbs")
#   GEN_SET   extra `slotopt gen` arguments, e.g. "--set load=1.5"
#   WPBS_OPT  extra `slotopt sim` arguments for wpbs only, e.g. "--opt alpha=0.5"
# The workload user is the job name without its "-N" suffix. Needs jq.
set -eu
SLOTOPT=${SLOTOPT:-bin/slotopt}
SEEDS=${SEEDS:-10}
SCHEDS=${SCHEDS:-fifo fair wpbs}
GEN_SET=${GEN_SET:-}
WPBS_OPT=${WPBS_OPT:-}
command -v jq >/dev/null || { echo "wpbs_runs.sh: jq not found" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
per_user='(group_by(.u) | map({u: .[0].u, m: (map(.r) | add / length), n: length}))
          + [{u: "all", m: (map(.r) | add / length), n: length}]'
s=1
while [ "$s" -le "$SEEDS" ]; do
    # shellcheck disable=SC2086
    "$SLOTOPT" gen wpbs-paper --seed "$s" $GEN_SET --out "$dir/$s" >/dev/null
    wl=$(ls "$dir/$s"/*.json)
    for sched in $SCHEDS; do
        opt=""
        [ "$sched" = wpbs ] && opt=$WPBS_OPT
        # shellcheck disable=SC2086
        "$SLOTOPT" sim "$wl" --scheduler "$sched" $opt --format json |
            jq -r --arg s "$s" --arg k "$sched" "
                [.jobs[] | {u: (.name | sub(\"-[0-9]+\$\"; \"\")), r: .response}]
                | $per_user | .[]
                | [\$s, \$k, .u, (.m | tostring), (.n | tostring)] | @tsv"
    done
    # the bound: map phase >= max(longest map, map work / map slots); then
    # every reduce still sorts and reduces: >= max(longest sort + reduce,
    # their work / reduce slots) (all nodes of wpbs-paper have speed 1)
    jq -r --arg s "$s" "
        ([.cluster.nodes[] | .count * .map_slots] | add) as \$M
        | ([.cluster.nodes[] | .count * .reduce_slots] | add) as \$R
        | [.jobs[] | {u: (.name | sub(\"-[0-9]+\$\"; \"\")),
            r: (([(.maps | max), ((.maps | add) / \$M)] | max)
                + (if (.reduces | length) == 0 then 0 else
                   ([(.reduces | map(.sort + .reduce) | max),
                     ((.reduces | map(.sort + .reduce) | add) / \$R)] | max) end))}]
        | $per_user | .[]
        | [\$s, \"bound\", .u, (.m | tostring), (.n | tostring)] | @tsv" "$wl"
    s=$((s + 1))
done

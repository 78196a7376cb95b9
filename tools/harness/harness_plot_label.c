/* harness_plot_label.c — the axis and legend label of every key a plot can
 * show: the simulation metrics, the frontier axes, the table keys of the
 * scenarios and every --set parameter of every instance family, each as a
 * quantity with its unit ("slack" -> "slack (share of the slots above the
 * minima)", "mean_response" -> "mean response time (s)"). A key whose
 * meaning depends on the family ("tasks") has a row for that family before
 * the general one. Units as the families' --set documentation states them
 * (solvers/common/registry.c and the family files). */
#include <string.h>
#include "tools/harness/harness.h"

typedef struct label_row {
    const char *family; /* NULL: any family */
    const char *key, *label;
} label_row;

static const label_row rows[] = {
    /* simulation metrics and frontier axes */
    {NULL, "mean_response", "mean response time (s)"},
    {NULL, "p95_response", "95th-percentile response time (s)"},
    {NULL, "max_response", "maximum response time (s)"},
    {NULL, "makespan", "makespan (s)"},
    {NULL, "budget", "budget ($)"},
    {NULL, "objective", "objective"},
    /* table keys */
    {NULL, "policy", "policy"},
    {NULL, "user", "user"},
    {NULL, "job_name", "job"},
    {NULL, "instance", "instance"},
    {NULL, "family", "instance family"},
    {NULL, "seed", "generator seed"},
    {NULL, "workload", "workload"},
    /* knapsack, knapsack-jooken */
    {"knapsack-jooken", "n", "number of items"},
    {"knapsack-jooken", "c", "capacity"},
    {"knapsack-jooken", "g", "number of item groups"},
    {"knapsack-jooken", "f", "fraction of items in the last group"},
    {"knapsack-jooken", "eps", "group offset (fraction of the capacity)"},
    {"knapsack-jooken", "s", "perturbation range"},
    {NULL, "n", "number of items"},
    {NULL, "R", "coefficient range R"},
    {NULL, "class", "instance class"},
    {NULL, "capacity", "capacity (fraction of the total weight)"},
    /* flex-paper, flex-cluster */
    {NULL, "jobs", "number of jobs"},
    {NULL, "slots", "number of slots"},
    {NULL, "small", "fraction of small jobs"},
    {NULL, "slack", "slack (share of the slots above the minima)"},
    {NULL, "metric", "metric"},
    {NULL, "aggregate", "aggregate (sum or max)"},
    {"flex-paper", "tasks", "slot demand of a small job (slot-time units)"},
    {NULL, "sla_steps", "SLA steps per job"},
    {NULL, "problem", "problem kind"},
    {NULL, "lambda", "mean inter-arrival time (min)"},
    {NULL, "sigma", "job-size standard deviation (units of work)"},
    {NULL, "task_cv", "task-time coefficient of variation"},
    /* pareto-yahoo, pareto-taobao, pareto-puma */
    {NULL, "budget_min", "minimum budget ($)"},
    {NULL, "budget_max", "maximum budget ($)"},
    {NULL, "slots_per_vm", "map and reduce slots per VM"},
    {NULL, "overhead", "fixed share of a task's time"},
    {NULL, "straggler", "straggler slowdown (max / mean task time - 1)"},
    {NULL, "shuffle", "shuffle time (fraction of the reduce time)"},
    {NULL, "draw", "task-time distribution"},
    {NULL, "fit_deadline", "jobs redrawn to fit the deadline (0/1)"},
    {NULL, "billing_seconds", "VM billing period (s)"},
    {NULL, "deadline", "deadline (s)"},
    {NULL, "history", "history runs per profile"},
    {NULL, "jitter", "task-time noise (relative)"},
    {NULL, "max_vms", "VM cap"},
    /* ras-gridmix, ras-random, ras-gridmix-workload */
    {NULL, "time", "time (s)"}, /* a ras family's snapshot; a timeline's step */
    {NULL, "goals", "completion-time goals"},
    {NULL, "split_mb", "input split size (MB)"},
    {NULL, "sort_reducers", "reducers per Sort job"},
    {NULL, "map_fraction", "map phase share of a job's time"},
    {NULL, "tasktrackers", "number of TaskTrackers"},
    {NULL, "resources", "number of resources"},
    {NULL, "tightness", "tightness (pending demand / capacity)"},
    {NULL, "heterogeneity", "capacity heterogeneity (+- fraction)"},
    {NULL, "max_maps", "maximum pending maps per job"},
    {NULL, "max_reduces", "maximum pending reducers per job"},
    {NULL, "parallel_copies", "parallel copies per job"},
    {NULL, "reduce_share", "probability of a job in reduce phase"},
    {NULL, "map_slots", "map slots per TaskTracker"},
    {NULL, "reduce_slots", "reduce slots per TaskTracker"},
    {NULL, "contention", "contention model"},
    {NULL, "shuffle_memory", "shuffling reducer's memory (%)"},
    {NULL, "repeat", "repetitions of the nine jobs"},
    {NULL, "period", "period between repetitions (s)"},
    /* wpbs-paper */
    {NULL, "load", "load (x the paper's arrival rates)"},
    {NULL, "scale", "job-count scale (x the paper's)"},
    {NULL, "slowstart", "reduce slow-start (fraction of maps done)"},
    /* stealing-paper */
    {NULL, "job", "job"},
    {NULL, "tasks", "tasks of the job's main phase"},
    {NULL, "stragglers", "number of slow nodes"},
    {NULL, "straggler_speed", "speed of a slow node (fraction)"},
    {NULL, "parallel", "parallel fraction of the main phase (Amdahl)"},
    /* swim-synth */
    {NULL, "rate", "arrival rate (jobs/s)"},
    {NULL, "nodes", "number of nodes"},
    {NULL, "size_scale", "job-size scale (x FB-2009)"},
    {NULL, "replicas", "HDFS replicas per block"},
    {NULL, "remote_slowdown", "remote-map slowdown (work factor)"},
    {NULL, "map_output_mib", "most output per map of a map-only job (MiB)"},
    {NULL, "outofband", "out-of-band heartbeats (1 on)"},
};

const char *so_hplot_label_known(const char *family, const char *key)
{
    if (!key)
        return NULL;
    const char *general = NULL;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (strcmp(rows[i].key, key))
            continue;
        if (!rows[i].family && !general)
            general = rows[i].label;
        else if (rows[i].family && family && !strcmp(rows[i].family, family))
            return rows[i].label;
    }
    return general;
}

const char *so_hplot_label(const char *family, const char *key)
{
    const char *l = so_hplot_label_known(family, key);
    return l ? l : key ? key : "";
}

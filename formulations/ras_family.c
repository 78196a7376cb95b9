/* ras_family.c — RAS instance families.
 *
 * ras-gridmix: the workload of Polo et al. (Middleware 2011), section 4.1
 * (the tables are in ras_gridmix.c, shared with ras-gridmix-workload):
 * Table 1 (9 Gridmix jobs: input size, submission time, length in
 * isolation, completion times and goals of Experiment 2) and Table 2 (the
 * map / shuffle / reduce profiles in % of a TaskTracker), 20 TaskTrackers
 * of capacity 100 % on cpu, io and memory. The snapshot at time `time`
 * holds the jobs submitted and not yet completed (Experiment 2's completion
 * times). Choices the paper leaves open (docs/ras.md):
 *   - maps = ceil(input / split_mb); Combine and Select run one reducer
 *     (section 4.2), Sort runs `sort_reducers`;
 *   - the map phase is the first `map_fraction` of a job's run time and
 *     its maps complete at a steady rate, so s_pend = maps not yet done at
 *     `time`; a job past its map phase is in reduce phase (s_pend = 0);
 *   - the average map time t_avg: in isolation a job runs
 *     20 * floor(100 / its largest map demand) maps at once, in
 *     ceil(maps / that) waves within map_fraction * length;
 *   - goals "tight": the Experiment 2 goals of Table 1 (s_req derived from
 *     them); "none": s_req = s_pend.
 * ras-random: TaskTrackers of capacity around a base scaled so that the
 * pending tasks' total demand is `tightness` times the total capacity,
 * with +-`heterogeneity` per TaskTracker and resource; jobs with random
 * pending counts and integer % demands; a `reduce_share` of them in reduce
 * phase (maps done). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "formulations/ras.h"
#include "formulations/ras_gridmix.h"

/* ---- ras-gridmix ---------------------------------------------------------- */

const so_option_doc so_ras_gridmix_params[] = {
    {"time", "700", "snapshot time in seconds, in [0, 4614) (the last job ends at 4614)"},
    {"goals", "tight", "tight (Table 1's Experiment 2 goals) | none"},
    {"split_mb", "128", "input split size in MB (one map per split)"},
    {"sort_reducers", "20", "reducers of each Sort job"},
    {"map_fraction", "0.8", "share of a job's run time spent in its map phase"},
    {NULL, NULL, NULL},
};

static void gridmix_job_fill(so_ras_job *job, const so_gridmix_job *g,
                             double time, int tight, double split_mb,
                             int sort_reducers, double map_fraction)
{
    int maps = so_gridmix_maps(g, split_mb);
    double map_end = g->submit + map_fraction * (g->completion - g->submit);
    double done = (time - g->submit) / (map_end - g->submit);
    if (done > 1)
        done = 1;
    job->s_pend = maps - (int)floor(done * maps);
    job->r_pend = g->app == 0 ? sort_reducers : 1;
    job->reduce_phase = job->s_pend == 0;
    job->parallel_copies = SO_GRIDMIX_PARALLEL_COPIES;
    job->t_avg = so_gridmix_map_time(g, split_mb, map_fraction);
    job->t_goal = g->goal;
    job->now = time;
    job->has_goal = tight;
    job->s_req = tight ? so_ras_s_req_from_goal(job->s_pend, g->goal,
                                                job->t_avg, time)
                       : job->s_pend;
    for (size_t r = 0; r < 3; r++) {
        job->map[r] = so_gridmix_apps[g->app].map[r];
        job->reduce[r] = so_gridmix_apps[g->app].reduce[r];
    }
    job->shuffle[1] = so_gridmix_apps[g->app].shuffle_io;
    job->shuffle_base[2] = job->reduce[2];
}

/* Wraps the instance body with its header. */
static int finish(so_ras *ras, json_t **out)
{
    json_t *body = so_ras_to_json(ras);
    so_ras_free(ras);
    if (!body)
        return SO_ENOMEM;
    json_t *inst = json_object();
    json_object_set_new(inst, "problem", json_string("ras"));
    json_object_set_new(inst, "version", json_integer(1));
    json_object_update(inst, body);
    json_decref(body);
    *out = inst;
    return SO_OK;
}

static int set_names(so_ras *ras)
{
    static const char *const base[] = {"cpu", "io", "memory"};
    for (size_t r = 0; r < ras->R; r++) {
        char name[32];
        snprintf(name, sizeof name, "r%zu", r);
        ras->resources[r] = strdup(r < 3 ? base[r] : name);
        if (!ras->resources[r])
            return SO_ENOMEM;
    }
    return SO_OK;
}

int so_ras_gridmix_generate(const so_params *set, so_rng *rng, json_t **out,
                            so_error *err)
{
    (void)rng; /* the workload is the paper's, not random */
    const so_option_doc *d = so_ras_gridmix_params;
    double time, split_mb, map_fraction;
    long long sort_reducers;
    int rc = so_params_double(set, d, "time", 700, &time, err);
    if (!rc)
        rc = so_params_double(set, d, "split_mb", 128, &split_mb, err);
    if (!rc)
        rc = so_params_double(set, d, "map_fraction", 0.8, &map_fraction, err);
    if (!rc)
        rc = so_params_int(set, d, "sort_reducers", 20, &sort_reducers, err);
    if (rc)
        return rc;
    const char *goals = so_params_str(set, d, "goals", "tight");
    if (!(time >= 0 && time < 4614))
        return so_error_setf(err, NULL, 0, 0, "time", "expected seconds in"
                             " [0, 4614) (the workload's span), found %g", time);
    if (!(split_mb >= 1 && split_mb <= 1e6))
        return so_error_setf(err, NULL, 0, 0, "split_mb",
                             "expected MB in [1, 1e6], found %g", split_mb);
    if (!(map_fraction > 0 && map_fraction <= 1))
        return so_error_setf(err, NULL, 0, 0, "map_fraction",
                             "expected a fraction in (0, 1], found %g",
                             map_fraction);
    if (sort_reducers < 0 || sort_reducers > 10000)
        return so_error_setf(err, NULL, 0, 0, "sort_reducers",
                             "expected 0..10000, found %lld", sort_reducers);
    if (strcmp(goals, "tight") && strcmp(goals, "none"))
        return so_error_setf(err, NULL, 0, 0, "goals",
                             "expected tight or none, found '%s'", goals);
    size_t n = so_gridmix_job_count, J = 0;
    for (size_t k = 0; k < n; k++)
        J += so_gridmix_jobs[k].submit <= time && time < so_gridmix_jobs[k].completion;
    so_ras *ras = so_ras_new(3, SO_GRIDMIX_TTS, J);
    if (!ras)
        return SO_ENOMEM;
    rc = set_names(ras);
    for (size_t k = 0; k < ras->TT * ras->R; k++)
        ras->capacity[k] = 100;
    J = 0;
    for (size_t k = 0; k < n && !rc; k++) {
        const so_gridmix_job *g = &so_gridmix_jobs[k];
        if (!(g->submit <= time && time < g->completion))
            continue;
        so_ras_job *job = &ras->jobs[J++];
        char name[48];
        snprintf(name, sizeof name, "%s-%s", g->label,
                 so_gridmix_apps[g->app].name);
        job->name = strdup(name);
        if (!job->name)
            rc = SO_ENOMEM;
        else
            gridmix_job_fill(job, g, time, !strcmp(goals, "tight"), split_mb,
                             (int)sort_reducers, map_fraction);
    }
    if (rc) {
        so_ras_free(ras);
        return rc;
    }
    return finish(ras, out);
}

/* ---- ras-random ------------------------------------------------------------ */

const so_option_doc so_ras_random_params[] = {
    {"tasktrackers", "8", "number of TaskTrackers"},
    {"jobs", "4", "number of jobs"},
    {"resources", "3", "number of resources (cpu, io, memory, r3, ...)"},
    {"tightness", "1.5", "total demand of all pending tasks / total capacity"},
    {"heterogeneity", "0.3", "capacities vary by +- this fraction, in [0, 0.9]"},
    {"max_maps", "12", "pending maps per job in [1, max_maps]"},
    {"max_reduces", "3", "pending reducers per job in [0, max_reduces]"},
    {"parallel_copies", "3", "parallel_copies of every job"},
    {"reduce_share", "0.2", "probability that a job is in reduce phase"},
    {NULL, NULL, NULL},
};

typedef struct {
    long long tts, jobs, resources, max_maps, max_reduces, pc;
    double tightness, heterogeneity, reduce_share;
} random_settings;

static int random_settings_read(const so_params *set, random_settings *s,
                                so_error *err)
{
    const so_option_doc *d = so_ras_random_params;
    int rc = so_params_int(set, d, "tasktrackers", 8, &s->tts, err);
    if (!rc)
        rc = so_params_int(set, d, "jobs", 4, &s->jobs, err);
    if (!rc)
        rc = so_params_int(set, d, "resources", 3, &s->resources, err);
    if (!rc)
        rc = so_params_int(set, d, "max_maps", 12, &s->max_maps, err);
    if (!rc)
        rc = so_params_int(set, d, "max_reduces", 3, &s->max_reduces, err);
    if (!rc)
        rc = so_params_int(set, d, "parallel_copies", 3, &s->pc, err);
    if (!rc)
        rc = so_params_double(set, d, "tightness", 1.5, &s->tightness, err);
    if (!rc)
        rc = so_params_double(set, d, "heterogeneity", 0.3, &s->heterogeneity, err);
    if (!rc)
        rc = so_params_double(set, d, "reduce_share", 0.2, &s->reduce_share, err);
    if (rc)
        return rc;
    if (s->tts < 1 || s->tts > 100000)
        return so_error_setf(err, NULL, 0, 0, "tasktrackers",
                             "expected 1..100000, found %lld", s->tts);
    if (s->jobs < 1 || s->jobs > 10000 || s->jobs * s->tts > SO_RAS_MAX_CELLS)
        return so_error_setf(err, NULL, 0, 0, "jobs", "expected 1..10000 with"
                             " jobs * tasktrackers <= %d, found %lld",
                             SO_RAS_MAX_CELLS, s->jobs);
    if (s->resources < 1 || s->resources > 64)
        return so_error_setf(err, NULL, 0, 0, "resources",
                             "expected 1..64, found %lld", s->resources);
    if (s->max_maps < 1 || s->max_maps > 100000)
        return so_error_setf(err, NULL, 0, 0, "max_maps",
                             "expected 1..100000, found %lld", s->max_maps);
    if (s->max_reduces < 0 || s->max_reduces > 100000)
        return so_error_setf(err, NULL, 0, 0, "max_reduces",
                             "expected 0..100000, found %lld", s->max_reduces);
    if (s->pc < 1 || s->pc > 10000)
        return so_error_setf(err, NULL, 0, 0, "parallel_copies",
                             "expected 1..10000, found %lld", s->pc);
    if (!(s->tightness >= 0.01 && s->tightness <= 100))
        return so_error_setf(err, NULL, 0, 0, "tightness",
                             "expected 0.01..100, found %g", s->tightness);
    if (!(s->heterogeneity >= 0 && s->heterogeneity <= 0.9))
        return so_error_setf(err, NULL, 0, 0, "heterogeneity",
                             "expected 0..0.9, found %g", s->heterogeneity);
    if (!(s->reduce_share >= 0 && s->reduce_share <= 1))
        return so_error_setf(err, NULL, 0, 0, "reduce_share",
                             "expected 0..1, found %g", s->reduce_share);
    return SO_OK;
}

static void random_job(so_ras *ras, so_ras_job *job, const random_settings *s,
                       so_rng *rng)
{
    size_t R = ras->R, io = R > 1 ? 1 : 0, mem = R - 1;
    job->reduce_phase = so_rng_uniform(rng) < s->reduce_share;
    job->s_pend = job->reduce_phase ? 0 : (int)so_rng_int(rng, 1, s->max_maps);
    job->s_req = job->s_pend ? (int)so_rng_int(rng, 1, job->s_pend) : 0;
    job->r_pend = (int)so_rng_int(rng, job->reduce_phase ? 1 : 0,
                                  s->max_reduces > 0 ? s->max_reduces : 0);
    job->parallel_copies = (int)s->pc;
    for (size_t r = 0; r < R; r++) {
        job->map[r] = (double)so_rng_int(rng, 5, 40);
        job->reduce[r] = (double)so_rng_int(rng, 5, 50);
    }
    job->shuffle[io] = (double)so_rng_int(rng, 1, 30) / 10.0;
    job->shuffle_base[mem] = job->reduce[mem];
}

int so_ras_random_generate(const so_params *set, so_rng *rng, json_t **out,
                           so_error *err)
{
    random_settings s;
    int rc = random_settings_read(set, &s, err);
    if (rc)
        return rc;
    size_t R = (size_t)s.resources, TT = (size_t)s.tts, J = (size_t)s.jobs;
    so_ras *ras = so_ras_new(R, TT, J);
    if (!ras)
        return SO_ENOMEM;
    rc = set_names(ras);
    for (size_t j = 0; j < J && !rc; j++) {
        char name[32];
        snprintf(name, sizeof name, "job%zu", j);
        ras->jobs[j].name = strdup(name);
        if (!ras->jobs[j].name)
            rc = SO_ENOMEM;
        else
            random_job(ras, &ras->jobs[j], &s, rng);
    }
    /* capacity per resource: the total demand (maps, and reducers with
     * their larger profile) over tightness, spread over the TaskTrackers */
    for (size_t r = 0; r < R && !rc; r++) {
        double demand = 0;
        for (size_t j = 0; j < J; j++) {
            const so_ras_job *job = &ras->jobs[j];
            double red = fmax(job->reduce[r], job->shuffle_base[r] +
                              job->shuffle[r] * job->parallel_copies);
            demand += job->s_pend * job->map[r] + job->r_pend * red;
        }
        double base = demand / (s.tightness * (double)TT);
        for (size_t tt = 0; tt < TT; tt++) {
            double f = 1 + s.heterogeneity * (2 * so_rng_uniform(rng) - 1);
            ras->capacity[tt * R + r] = ceil(base * f);
        }
    }
    if (rc) {
        so_ras_free(ras);
        return rc;
    }
    return finish(ras, out);
}

/*
 * harness.h — the benchmark harness (internal to the slotopt program and its
 * tests): instances x backends x repetitions -> cells, run in forked worker
 * processes under an outside time limit, stored one row per cell in SQLite,
 * compared with a reference backend, summarised, printed and plotted.
 * docs/harness.md describes the conventions (gap orientation, frontier
 * extras, statuses, scenario files).
 */
#ifndef SO_HARNESS_H
#define SO_HARNESS_H
#include <stdio.h>
#include <sys/types.h>
#include "slotopt.h"
#include "cluster/cluster.h"
#include "tools/output/output_format.h"
#include "tools/output/progress.h"

/* ---- instances ------------------------------------------------------------ */
typedef struct so_hinst {
    so_problem *problem;
    char *name;    /* file base name, or FAMILY[-KEY=VALUE...]-sSEED-iINDEX */
    char hash[17]; /* FNV-1a 64 of the canonical JSON without "meta", hex */
    char *family;  /* from "meta", or NULL */
    char *params;  /* "meta".params as compact JSON, or NULL */
    int has_seed;
    int64_t seed, index; /* "meta".seed and "meta".index */
    /* A simulation input instead of a problem (problem NULL): the workload
     * text (native JSON or SWIM), parsed by each cell with its seed. */
    char *workload;
    size_t workload_len;
    /* A scenario's setting (harness_settings.c): simulator options put over
     * every policy's (NULL: none) and the seed of repetition 0 (0: 1). */
    so_params *options;
    uint64_t first_seed;
} so_hinst;

/* The simulator's seed of repetition rep of a simulation input: first_seed
 * + rep; with per-attempt noise or slow spells among the options
 * (noise_cv, slowdown_gap > 0) and a generated instance, plus 1000 x
 * (generator seed - 1 + index), so that generated instances draw their own
 * noise (policies of one instance share it; the first instance of seed 1
 * keeps first_seed + rep). The workload is still parsed with first_seed +
 * rep. */
uint64_t so_harness_run_seed(const so_hinst *in, const so_params *prm, int rep);

typedef struct so_hinsts {
    so_hinst *v;
    size_t n, cap;
    uint64_t *seen; /* open-addressing set of the hashes listed (0 = empty) */
    size_t seen_cap;
    /* a FIFO or device among the inputs may wait at most
     * so_harness_kill_after(read_limit) s (at least 1) for input, or the
     * program exits 2 naming it (so_hread_input); 0: no bound, < 0: a
     * scenario's time_limit sets it. read_limit_from: where it came from
     * ("--time-limit", "the scenario's time_limit"), for that message. */
    double read_limit;
    const char *read_limit_from;
} so_hinsts;

/* Reads input path ("-": stdin) as so_read_input does. A path that is
 * neither a regular file, a folder nor stdin (so_hread_guarded: a FIFO, a
 * device) is read with a bound on the time without input: no byte for
 * so_harness_kill_after(time_limit) s, at least SO_HREAD_MIN_SECONDS
 * (none when time_limit <= 0), and "slotopt: PATH: no input for ...
 * (the time limit of a cell, FROM LIMIT)" goes to stderr and the program
 * exits 2. */
#define SO_HREAD_MIN_SECONDS 1.0
int so_hread_input(const char *path, double time_limit, const char *from, char **text,
                   size_t *len, so_error *err);
int so_hread_guarded(const char *path);

void so_hinsts_free(so_hinsts *s);
/* Adds a problem (takes ownership; frees it when it duplicates the content
 * of one already listed, so identical instances run once). */
int so_hinsts_add_problem(so_hinsts *s, so_problem *p, so_error *err);
/* A file, or a folder: its regular files in name order, except dotfiles and
 * *.md / *.csv (notes and tables kept beside instances). */
int so_hinsts_add_path(so_hinsts *s, const char *path, so_error *err);
/* A workload (text copied; name = file base name or family instance name;
 * params: JSON object text or NULL). Identical texts run once. */
int so_hinsts_add_workload(so_hinsts *s, const char *text, size_t len,
                           const char *name, const char *family,
                           const char *params, so_error *err);
/* A workload file, or a folder of them (same rules as so_hinsts_add_path). */
int so_hinsts_add_workload_path(so_hinsts *s, const char *path, so_error *err);
/* Instances 0..count-1 of a family with settings, seed (cluster families
 * give workloads). */
int so_hinsts_add_family(so_hinsts *s, const so_family *f,
                         const so_params *settings, uint64_t seed,
                         uint64_t count, so_error *err);
/* Content hash of a problem (16 hex digits + NUL into out). */
int so_harness_hash(const so_problem *p, char out[17]);

/* ---- configuration -------------------------------------------------------- */
#define SO_HARNESS_MAX_BACKENDS 64

/* A policy configuration of simulation cells: the scheduler with its
 * options and the speculation policy; or, with no scheduler, the harness's
 * lower bound (tools/harness/harness_sim.c). */
typedef struct so_hpolicy {
    char name[64]; /* the row's backend: SCHED[+SPEC] or the given name */
    const so_cl_scheduler *scheduler; /* NULL: a bound (field bound) */
    int bound; /* SO_HBOUND_* of tools/harness/harness_bound.h when scheduler is NULL */
    const so_cl_speculation *speculation; /* NULL: none */
    int stealing; /* resource stealing policy (cluster/stealing.h); 0: none */
    so_params options;
} so_hpolicy;

#define SO_HARNESS_LOWER_BOUND "lower-bound"
#define SO_HARNESS_MAX_SETTINGS 16
#define SO_HARNESS_MAX_POLICIES 32

/* A backend under a name of its own with its own options (a scenario's
 * {"name", "backend", "options"}): the registry's entry, copied and
 * renamed, so that cells, rows and references know it by that name. */
#define SO_HARNESS_MAX_VARIANTS 8
typedef struct so_hvariant {
    so_backend backend; /* .name points to name */
    char name[64];
    so_params options;
} so_hvariant;

typedef struct so_hconfig {
    const so_backend *backends[SO_HARNESS_MAX_BACKENDS]; /* references too */
    size_t n_backends;
    const so_backend *refs[SO_HARNESS_MAX_BACKENDS]; /* one per problem kind */
    size_t n_refs;
    double time_limit; /* seconds per cell given to the backend; 0 = none */
    int jobs;          /* worker processes */
    int reps;          /* repetitions per instance and backend */
    int resume;        /* skip cells already stored */
    int progress;      /* draw the progress bar (caller checks isatty) */
    char group_by[64]; /* summary per value of "meta".params[group_by] */
    so_hpolicy policies[SO_HARNESS_MAX_POLICIES]; /* simulation cells */
    size_t n_policies;
    char sim_reference[64]; /* a policy's name or "lower-bound"; "" = first */
    char metric[32];        /* mean_response (default), p95_response,
                               max_response or makespan */
    so_hvariant variants[SO_HARNESS_MAX_VARIANTS]; /* named backends with options */
    size_t n_variants;
    char settings[SO_HARNESS_MAX_SETTINGS][64]; /* a scenario's settings, in order */
    size_t n_settings;
    double timeline_step;   /* > 0: simulation cells store their timeline
                               every this many simulated seconds
                               (tools/harness/harness_timeline.h); 0: none */
} so_hconfig;

/* Adds a policy: "SCHED[+SPEC[+STEAL]]" (STEAL a resource-stealing policy:
 * even, fcm, stlm, ltlm, stm, ltm) or "lower-bound", with options (may be
 * NULL) and a name ("" or NULL: the spec itself). */
int so_hconfig_add_policy(so_hconfig *c, const char *spec, const char *name,
                          const so_params *options, so_error *err);
/* Whether option key is one of the simulator's, the SWIM reader's or the
 * policy's scheduler's (a bound takes none). */
int so_hpolicy_takes(const so_hpolicy *p, const char *key);

/* A scenario's setting: every simulation input runs once per setting, as
 * its own instance (name INPUT@NAME, params + "setting": NAME, its own
 * hash), with these options over every policy's and repetition r on seed
 * seed + r. */
typedef struct so_hsetting {
    char name[64];
    uint64_t seed; /* >= 1 */
    so_params options;
} so_hsetting;
/* Replaces each simulation input at index >= from by one copy per setting. */
int so_hinsts_apply_settings(so_hinsts *s, size_t from, const so_hsetting *set, size_t n,
                             so_error *err);
/* A comma-separated list of "SCHED[+SPEC]". */
int so_hconfig_add_policy_list(so_hconfig *c, const char *list, so_error *err);
/* Checks the metric name and the simulation reference; fills defaults. */
int so_hconfig_check_sim(so_hconfig *c, so_error *err);

void so_hconfig_init(so_hconfig *c);
/* Adds a backend (once); references are added to the backends as well. */
int so_hconfig_add_backend(so_hconfig *c, const char *name, so_error *err);
int so_hconfig_add_reference(so_hconfig *c, const char *name, so_error *err);
/* Adds backend under name with options (each one of the backend's); the
 * name then works as a backend or reference name of c. */
int so_hconfig_add_variant(so_hconfig *c, const char *name, const char *backend,
                           const so_params *options, so_error *err);
/* The options of a variant's backend b, or NULL (a registry backend). */
const so_params *so_hconfig_options(const so_hconfig *c, const so_backend *b);
/* Comma-separated list of names. */
int so_hconfig_add_backend_list(so_hconfig *c, const char *list, int reference,
                                so_error *err);
/* Hard limit after which the parent kills a worker: S + min(S, 1) seconds
 * (0 = none). */
double so_harness_kill_after(double time_limit);

/* ---- scenarios ------------------------------------------------------------ */
/* Reads a scenario file: settings into c (fields not set by the file are
 * left as they are), inputs appended to s. Relative instance paths are
 * relative to the scenario file's folder. */
int so_scenario_read(const char *path, so_hconfig *c, so_hinsts *s,
                     so_error *err);
/* NAME -> path: NAME itself when it names a file; else NAME.json in
 * $SLOTOPT_SCENARIOS, ./instances/scenarios, <program>/../instances/scenarios.
 * Returns 0 and fills out, or -1. */
int so_scenario_find(const char *name, char *out, size_t size);
/* The scenario names of dir (NAME.json), sorted, malloc'd; *n of them
 * (NULL when dir cannot be read). */
char **so_scenario_names(const char *dir, size_t *n);

/* ---- the store ------------------------------------------------------------ */
typedef struct so_hstore so_hstore;

/* One stored cell. NAN for missing numbers, NULL for missing text. */
typedef struct so_hrow {
    char *instance, *hash, *problem;
    int sense;
    char *family, *params;
    int has_seed;
    int64_t seed, index;
    char *backend;
    int exact, rep;
    char *version;
    char *status; /* so_status_str of the solve, or killed / crashed / error */
    double objective, bound, seconds, time_limit;
    char *frontier; /* JSON array of points, or NULL */
    char *extras;   /* JSON object of the other result extras, or NULL */
    char *message;
} so_hrow;

typedef struct so_hrows {
    so_hrow *v;
    size_t n, cap;
} so_hrows;

void so_hrows_free(so_hrows *rows);
void so_hrow_free(so_hrow *r);

/* Opens (write: creates if needed, WAL mode) the database at path: an
 * existing regular file (through links) or, to write, a new path (created
 * with O_EXCL); a device, FIFO or folder is refused (SO_EIO naming it)
 * before SQLite touches it, '' too; a relative path is given to SQLite as
 * "./PATH" (never ":memory:" or a URI). A new database that could not be
 * set up is removed as so_hstore_discard says. */
int so_hstore_open(const char *path, int write, so_hstore **out, so_error *err);
void so_hstore_close(so_hstore *st);
/* Closes after a failed run: a database this run created is removed with
 * its -journal, -wal and -shm files when it holds nothing (no row, no
 * table another program wrote) and no other process has it open; with
 * rows it is kept ("N cells kept; --resume continues" on stderr); an
 * existing one is only closed (each of its rows is its own commit). */
void so_hstore_discard(so_hstore *st);
/* Inserts or replaces the row with the same (hash, backend, rep); one
 * transaction per row. */
int so_hstore_put(so_hstore *st, const so_hrow *row, so_error *err);
/* 1 when the cell is stored, 0 when not, < 0 on error. */
int so_hstore_has(so_hstore *st, const char *hash, const char *backend,
                  int rep, so_error *err);
/* Appends the row of the cell to rows when it is stored. */
int so_hstore_get(so_hstore *st, const char *hash, const char *backend,
                  int rep, so_hrows *rows, so_error *err);
/* What the latest bench recorded for a problem kind: its reference backend
 * and the family parameter its summary is grouped by ("" = none). */
typedef struct so_hkind {
    char problem[32], reference[64], group_by[64];
} so_hkind;

typedef struct so_hkinds {
    so_hkind *v;
    size_t n;
} so_hkinds;

int so_hstore_set_kind(so_hstore *st, const so_hkind *k, so_error *err);
int so_hstore_kinds(so_hstore *st, so_hkinds *out, so_error *err);
void so_hkinds_free(so_hkinds *k);
/* Every row, ordered by problem, instance, backend, rep. */
int so_hstore_load(so_hstore *st, so_hrows *rows, so_error *err);

/* ---- running -------------------------------------------------------------- */
typedef struct so_hcell {
    size_t inst; /* index in the instance list */
    const so_backend *backend; /* NULL for a simulation cell */
    const so_hpolicy *policy;  /* NULL for a solve cell */
    int rep; /* 0-based; the backend's seed is rep + 1 */
} so_hcell;

/* Every cell of s x c->backends (same problem kind) x c->reps, instance by
 * instance; checks that each instance kind has a reference and that each
 * backend has an instance. */
int so_harness_cells(const so_hconfig *c, const so_hinsts *s, so_hcell **cells,
                     size_t *n, so_error *err);
/* The backend name stored for a cell (backend or policy name). */
const char *so_hcell_name(const so_hcell *cell);
/* Runs one simulation cell (or computes the lower bound) in this process:
 * an answer as so_harness_solve_cell's, with "status_text" ("simulated" or
 * "bound"), the metric as "objective" and the run's summary as "extras". */
char *so_harness_sim_cell(const so_hconfig *c, const so_hinst *in,
                          const so_hcell *cell);
/* Runs one cell in this process and returns its answer, one JSON object
 * {"status", "objective", "bound", "seconds", "message", "extras"} (status
 * < 0: an error, with its message) as text; NULL when out of memory. */
char *so_harness_solve_cell(const so_hconfig *c, const so_hinst *in,
                            const so_hcell *cell);
/* A worker process's loop: reads cell indexes (size_t) from fd `in`, writes
 * each answer to `out` as a 4-byte length and the text; leaves with _exit
 * at the end of its input. */
void so_harness_serve(const so_hconfig *c, const so_hinsts *s,
                      const so_hcell *cells, int in, int out)
    __attribute__((noreturn));
/* Runs the cells in c->jobs forked workers and stores each row as it ends. */
int so_harness_pool(const so_hconfig *c, const so_hinsts *s,
                    const so_hcell *cells, size_t n, so_hstore *st,
                    so_error *err);
/* Runs every cell of s x c->backends (matching problem kinds) x c->reps not
 * already stored (when c->resume), in c->jobs forked workers, storing each
 * row as it finishes. *ran gets the number of cells run. */
int so_harness_run(const so_hconfig *c, const so_hinsts *s, so_hstore *st,
                   size_t *ran, so_error *err);
/* The cells of a run and the ones still to run: records each kind's
 * reference (and group) in the store, lists every cell of s x c in *cells
 * (*n) and the indexes of those not stored yet (all of them unless
 * c->resume) in *todo (*n_todo). The caller frees both. */
int so_harness_todo(const so_hconfig *c, const so_hinsts *s, so_hstore *st,
                    so_hcell **cells, size_t *n, size_t **todo, size_t *n_todo,
                    so_error *err);

/* The message of a cell lost with its MPI rank (tools/harness/harness_mpi.c):
 * "MPI rank R lost: ..."; such a row is stored as killed and --resume runs
 * the cell again. */
#define SO_HLOST_PREFIX "MPI rank "
#define SO_HLOST_WORD " lost: "
/* 1 when the row is a cell lost with its MPI rank (not run to its end). */
int so_harness_row_lost(const so_hrow *row);

/* How a cell ended: its worker's answer text, or none (killed at the time
 * limit; crashed with a wait status; or lost with a message, e.g. its MPI
 * rank died), and the seconds it took. */
typedef struct so_hend {
    const char *text;
    int killed;
    int wait_status;
    const char *lost;
    double seconds;
} so_hend;

/* Stores the row of a cell that ended (the one row-storing step of local
 * and MPI runs): status and numbers from the answer; killed, crashed or
 * killed with the `lost` message without one. */
int so_harness_store_cell(const so_hconfig *c, const so_hinsts *s,
                          const so_hcell *cell, const so_hend *end, so_hstore *st,
                          so_error *err);

/* One cell at a time in a forked worker process, under the same outside
 * time limit as the pool's (killed after so_harness_kill_after; replaced
 * by a fresh fork after a kill or a crash). */
typedef struct so_hrunner so_hrunner;
so_hrunner *so_hrunner_new(const so_hconfig *c, const so_hinsts *s,
                           const so_hcell *cells);
/* Runs cells[k]; calls tick(arg) every `beat` seconds while it waits (beat
 * <= 0: never). end->text is malloc'd (the caller frees it) or NULL. */
int so_hrunner_run(so_hrunner *r, size_t k, double beat, void (*tick)(void *),
                   void *arg, so_hend *end, so_error *err);
void so_hrunner_free(so_hrunner *r);

/* ---- MPI (tools/harness/harness_mpi.c; tools/harness/harness_mpi_none.c without MPI) ------ */
typedef struct so_hmpi {
    int rank, size;
    double timeout; /* seconds without word from a busy rank: it is lost */
} so_hmpi;

/* Starts MPI (MPI_Init); 0, or an error (built without MPI: SO_EUNSUPPORTED
 * with a message saying so). */
int so_harness_mpi_init(so_hmpi *m, so_error *err);
void so_harness_mpi_finalize(void);
/* Rank 0: runs the cells of s x c not stored yet (as so_harness_run) on the
 * other ranks, storing each row as its answer arrives; *ran gets the
 * number of cells run. */
int so_harness_mpi_run(const so_hmpi *m, const so_hconfig *c, const so_hinsts *s,
                       so_hstore *st, size_t *ran, so_error *err);
/* The other ranks: run the cells rank 0 hands out until it says stop. */
int so_harness_mpi_serve(const so_hmpi *m, const so_hconfig *c,
                         const so_hinsts *s, so_error *err);

/* ---- the MPI job seen from outside (tools/harness/harness_launch.c) --------------- */
/* Rank 0's status file (--mpi-status): "running PID HOST", then "done CODE". */
enum { SO_HSTATUS_NONE, SO_HSTATUS_RUNNING, SO_HSTATUS_DONE };
typedef struct so_hstatus {
    int state, code;
    pid_t pid;
    char host[256];
} so_hstatus;
/* Replaces the file with one line (written beside it, renamed); 0 or -1. */
int so_hstatus_write(const char *path, const char *line);
int so_hstatus_read(const char *path, so_hstatus *out);

/* How the launched job ended: its wait status; rank 0's exit code from its
 * status file (-1 when it never said "done"); whether the watchdog ended
 * it (after "done" and `grace` s, or at once when rank 0 died here). */
typedef struct so_hlaunch {
    int wait_status, rank0_code, rank0_done, rank0_died, ended_by_watchdog;
} so_hlaunch;
/* Runs argv (the launcher and the program) in its own process group until
 * it ends, as above. */
int so_harness_launch(char *const *argv, const char *status_path, double grace,
                      so_hlaunch *out, so_error *err);

/* The rows of the cells of s x c (after a run), for the tables. */
int so_harness_select(const so_hconfig *c, const so_hinsts *s, so_hstore *st,
                      so_hrows *rows, so_error *err);

/* ---- gaps and summaries --------------------------------------------------- */
/* The gap of one cell to its reference row (see docs/harness.md). */
/* What the reference row of a cell proves: only a proven optimum (status
 * `optimal`) gives a ratio; an infeasible reference, or one stopped at its
 * time limit, killed, failed, merely feasible or missing, is counted apart. */
enum so_href_state { SO_HREF_PROVEN, SO_HREF_INFEASIBLE, SO_HREF_UNPROVEN };

typedef struct so_hgap {
    double ratio; /* >= 1 is worse; NAN unless the reference is proven */
    double diff;  /* how much worse, in objective units; NAN as ratio */
    int optimal;  /* matches a proven reference (relative tolerance 1e-9) */
    int ref_state; /* enum so_href_state */
} so_hgap;

/* The state of a reference row (NULL: SO_HREF_UNPROVEN). */
int so_harness_ref_state(const so_hrow *ref);

so_hgap so_harness_gap(const so_hrow *row, const so_hrow *ref);

typedef struct so_hcellgap {
    const so_hrow *row;
    const so_hrow *ref; /* NULL when the reference has no row */
    so_hgap gap;
    char group[96];     /* its summary's group ("" = none) */
} so_hcellgap;

typedef struct so_hsummary {
    char problem[32], group[96], backend[64];
    size_t cells, instances, solved, optimal, with_ratio;
    size_t ref_proven, ref_infeasible, ref_unproven; /* cells by reference
                                                       state; optimal counts
                                                       only proven ones */
    double mean_ratio, median_ratio, worst_ratio; /* NAN if no ratio */
    double mean_diff, worst_diff; /* objective units; NAN if no difference
                                     (the measure for objectives near or
                                     below zero, e.g. RAS utilities) */
    double mean_seconds, max_seconds;
    double mean_objective; /* over the cells with one; NAN if none (the
                              metric of simulation cells) */
} so_hsummary;

/* What each kind's reference proved on its own cells. */
#define SO_HREF_STATUSES 8
typedef struct so_hrefsum {
    char problem[32], backend[64];
    size_t cells, proven, infeasible, unproven;
    /* the statuses of the unproven cells, with their counts */
    char status[SO_HREF_STATUSES][24];
    size_t status_count[SO_HREF_STATUSES];
    size_t n_status;
} so_hrefsum;

typedef struct so_htables {
    so_hcellgap *cells;
    size_t n_cells;
    so_hsummary *sums;
    size_t n_sums;
    so_hrefsum *refs;
    size_t n_refs;
} so_htables;

/* Gaps against each kind's reference; summary groups by group_by, or by
 * each kind's group_by when group_by is NULL. */
int so_harness_tables(const so_hrows *rows, const so_hkinds *kinds,
                      const char *group_by, so_htables *t);
void so_htables_free(so_htables *t);
/* Simulated cells whose objective is below a bound on their own instance
 * and repetition (harness_below_bound.c): how many among rows; the first
 * pair in *policy and *bound, the bound's value in *value. A bound that
 * does not hold, never a policy better than optimal. The warning prints
 * that count and pair on fp (nothing when there is none). */
size_t so_harness_below_bound(const so_hrow *const *rows, size_t n,
                              const so_hrow **policy, const so_hrow **bound,
                              double *value);
void so_harness_warn_below_bound(FILE *fp, const char *cmd,
                                 const so_hrow *const *rows, size_t n);
/* SO_OK when key ("" or NULL: no grouping) can group rows: "family", or a
 * family parameter in some row's "meta".params; else SO_EINVAL. accepted
 * gets the accepted keys, sorted, comma-separated (harness_group_key.c). */
int so_hgroup_key_check(const so_hrows *rows, const char *key, char *accepted,
                        size_t size);

/* ---- output --------------------------------------------------------------- */
/* The formats of the one output vocabulary (tools/output/output_format.h). */
enum so_hformat {
    SO_HF_TABLE = SO_OF_TABLE,
    SO_HF_CSV = SO_OF_CSV,
    SO_HF_JSON = SO_OF_JSON,
    SO_HF_MARKDOWN = SO_OF_MARKDOWN
};
/* OR'd into so_harness_print's format: JSON on one line. */
enum { SO_HF_COMPACT = 0x100 };
/* Summary, preceded by the per-cell table when cells is set; csv prints
 * only the cells then (one table per text); json always has both. */
void so_harness_print(FILE *fp, const so_htables *t, int format, int cells);

/* One line per problem kind: on how many of its cells the reference proved
 * optimality, was infeasible, or proved nothing (with the statuses). Printed
 * after the summary in the table, markdown formats. */
void so_harness_print_references(FILE *fp, const so_htables *t);

/* Warns on fp about cells of a reference without a ratio (no objective). */
void so_harness_warn(FILE *fp, const char *cmd, const so_htables *t,
                     const so_hkinds *kinds);

/* ---- progress bar --------------------------------------------------------- */
typedef struct so_hprogress {
    so_progress line; /* tools/output/progress.h */
    size_t total, done;
} so_hprogress;

void so_hprogress_start(so_hprogress *pb, FILE *fp, size_t total, int enabled);
void so_hprogress_step(so_hprogress *pb);
/* Redraws when the last drawing is 0.5 s old (the clock moves on). */
void so_hprogress_tick(so_hprogress *pb);
void so_hprogress_end(so_hprogress *pb);
/* "[####....] 12/40 cells  elapsed 0:03  ETA 0:07" into buf (no \r). */
void so_hprogress_format(char *buf, size_t size, size_t done, size_t total,
                         double elapsed);

/* ---- plots ---------------------------------------------------------------- */
/* Writes DIR/gaps-PROBLEM.{dat,gp} (ratio distribution per backend) and
 * DIR/frontier-INSTANCE-HASH8.{dat,gp} for rows with frontiers, then runs
 * gnuplot on each script (svg). *plotted gets the number of svg files drawn;
 * gnuplot missing is not an error (*plotted = 0, *skipped = 1). */
int so_harness_plot(const so_htables *t, const char *dir, int *plotted,
                    int *skipped, so_error *err);
/* Simulation plots (tools/harness/harness_plot_sim.c), drawn as ext (svg, png or
 * pdf): sim-metric.{dat,gp} (mean
 * metric per policy per group, clustered bars) and sim-cdf-GROUP.{dat,gp}
 * (response-time CDF per policy over the group's cells). Appends each base
 * name written to bases (300 characters each); returns the count, or < 0. */
int so_harness_plot_sim(const so_htables *t, const char *dir, const char *ext,
                        char (*bases)[300], size_t max, so_error *err);
/* The label with its unit of a key a plot shows (a metric, a frontier
 * axis, a table key or a family's --set parameter; family may be NULL):
 * "mean_response" -> "mean response time (s)". _known returns NULL for a
 * key without a label; so_hplot_label returns the key itself then
 * (tools/harness/harness_plot_label.c). */
const char *so_hplot_label_known(const char *family, const char *key);
const char *so_hplot_label(const char *family, const char *key);
/* A curve of a report plot (tools/harness/harness_plot_series.c): its
 * name as written and its points. */
typedef struct so_hseries {
    char name[128];
    double *x, *y;
    size_t n, cap;
} so_hseries;
int so_hseries_add(so_hseries *s, double x, double y);
/* Frees the points of the n curves and the array. */
void so_hseries_free(so_hseries *s, size_t n);
/* Writes the data block of s: "# NAME", a line "X Y" per point, two empty
 * lines (the end of a gnuplot index). */
void so_hseries_block(FILE *d, const so_hseries *s);
/* The legend entry of curve k: its name, with " (= NAME)" when it has the
 * points of an earlier curve NAME, else " (= reference)" with at_ref. */
void so_hseries_title(char *out, size_t size, const so_hseries *s, size_t k, int at_ref);
/* 1 when every point's y (on_y) or x equals v (so_gp_same's tolerance). */
int so_hseries_at(const so_hseries *s, int on_y, double v);
/* Widens [*lo, *hi] to the finite y (on_y) or x of the n curves. */
void so_hseries_range(const so_hseries *s, size_t n, int on_y, double *lo, double *hi);
/* Writes "plot " (k = 0) or ", \\" and a new line, then 'BASE.dat' index k with WITH,
 * the style of series k (so_gp_style) and the title, quoted. */
void so_hseries_entry(FILE *c, size_t k, const char *base, const char *with,
                      const char *title);
/* Helpers shared by the plot files (tools/harness/harness_plot.c). */
void so_hplot_safe_name(char *out, size_t size, const char *in);
int so_hplot_write_pair(const char *dir, const char *base, char *dat, size_t dlen,
                        char *gp, size_t glen, so_error *err);
/* Runs gnuplot on DIR/BASE.gp, drawing DIR/BASE.EXT; without gnuplot sets
 * *skipped and does nothing. */
int so_hplot_draw(const char *dir, const char *base, const char *ext, int *skipped,
                  so_error *err);
/* qsort's order of doubles, ascending. */
int so_hplot_cmp_double(const void *x, const void *y);
/* The script's opening (formulations/common/gnuplot.h): terminal by ext,
 * noenhanced, output BASE.EXT.tmp, the title. */
void so_hplot_header(FILE *g, const char *ext, const char *base, int width,
                     int height, const char *title);
/* Opens two memory streams (*a into *abuf, *b into *bbuf); when either
 * fails closes and frees both and returns SO_ENOMEM. */
int so_hplot_open_pair(FILE **a, char **abuf, size_t *alen, FILE **b,
                       char **bbuf, size_t *blen);
/* Closes script stream g (into *gp, *glen); with block (a curve was
 * written) writes BASE.dat and BASE.gp and returns 1 (or < 0), else frees
 * dat and the script and returns 0. */
int so_hplot_finish(const char *dir, const char *base, FILE *g, char **gp,
                    size_t *glen, char *dat, size_t dlen, int block, so_error *err);
/* The same drawn as ext: "svg", "png" or "pdf" (gnuplot.h's terminals);
 * with --group-by the gap plot is one line per backend over the groups,
 * and RAS gaps are differences (harness_plot.c). */
int so_harness_plot_ext(const so_htables *t, const char *dir, const char *ext,
                        int *plotted, int *skipped, so_error *err);

#endif

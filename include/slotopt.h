/*
 * slotopt.h — the one public header of libslotopt.
 *
 * slotopt states MapReduce slot-scheduling problems as optimisation models and
 * solves them with exact and heuristic backends.
 *
 * Conventions (docs/DEVELOPING.md; docs/formats.md for the files):
 *   - exported names are so_<module>_<verb>, constants SO_*;
 *   - status codes: negative = program error, 0 = ok, positive = how a solve
 *     ended; infeasible is a result, not an error;
 *   - indices are 0-based everywhere (items, jobs, slots, nodes);
 *   - time in seconds, money in dollars, capacities in the instance's units;
 *   - the library never prints and never exits.
 */
#ifndef SLOTOPT_H
#define SLOTOPT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <jansson.h>

#define SO_VERSION "0.1.0"

/* ---- status codes ------------------------------------------------------ */
enum so_status {
    SO_OK = 0,
    SO_EINVAL = -1,       /* bad input file or argument */
    SO_ENOMEM = -2,       /* out of memory or over a backend's size limit */
    SO_EIO = -3,          /* file could not be read or written */
    SO_EBACKEND = -4,     /* the backend failed (library error, numerics) */
    SO_EUNSUPPORTED = -5, /* the backend cannot take this instance */
    SO_OPTIMAL = 1,       /* proven optimal */
    SO_FEASIBLE = 2,      /* feasible solution, optimality not proven */
    SO_INFEASIBLE = 3,    /* proven infeasible (a result, not an error) */
    SO_TIMELIMIT = 4,     /* stopped by the time limit; solution may exist */
    SO_UNBOUNDED = 5
};
const char *so_status_str(int status);

enum so_sense { SO_MINIMIZE = -1, SO_MAXIMIZE = 1 };

/* ---- errors ------------------------------------------------------------ */
/* Input errors carry file, 1-based line and column (0 = unknown) and the
 * key path of the offending value ("jobs[2].weight", 0-based indices). */
typedef struct so_error {
    char file[512];
    int line;
    int column;
    char key[256];
    char message[512];
} so_error;

/* Empties every field (err may be NULL). */
void so_error_clear(so_error *err);
/* Fills err (may be NULL) and returns SO_EINVAL. */
int so_error_setf(so_error *err, const char *file, int line, int column,
                  const char *key, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* "file:line:column: key 'k': message" into buf; returns buf. */
const char *so_error_format(const so_error *err, char *buf, size_t size);

/* ---- random numbers ---------------------------------------------------- */
/* xoshiro256** seeded through splitmix64: identical integer and uniform
 * streams on every machine. Normal variates use the polar method (sqrt, log). */
typedef struct so_rng {
    uint64_t s[4];
    int has_spare;
    double spare;
} so_rng;

/* Seeds the generator: the same seed gives the same stream everywhere. */
void so_rng_seed(so_rng *rng, uint64_t seed);
/* Independent stream `stream` of generator `seed` (e.g. instance index). */
void so_rng_seed_stream(so_rng *rng, uint64_t seed, uint64_t stream);
uint64_t so_rng_u64(so_rng *rng);                       /* 64 random bits */
double so_rng_uniform(so_rng *rng);                    /* [0, 1) */
int64_t so_rng_int(so_rng *rng, int64_t lo, int64_t hi); /* [lo, hi] */
double so_rng_normal(so_rng *rng, double mean, double sd);  /* Gaussian */
double so_rng_exponential(so_rng *rng, double mean);   /* mean > 0 */
/* exp(N(mu, sigma^2)): mu and sigma of the underlying normal */
double so_rng_lognormal(so_rng *rng, double mu, double sigma);

/* ---- time -------------------------------------------------------------- */
double so_now(void); /* monotonic clock, seconds */

/* ---- parameters -------------------------------------------------------- */
#define SO_MAX_OPTIONS 32
typedef struct so_option {
    char key[48];
    char value[208];
} so_option;

typedef struct so_params {
    double time_limit; /* seconds; <= 0 means none */
    uint64_t seed;     /* for randomised backends */
    int n_options;     /* backend-specific key=value options */
    so_option options[SO_MAX_OPTIONS];
} so_params;

/* Documentation of one option of a backend or parameter of a family. */
typedef struct so_option_doc {
    const char *key;
    const char *def; /* default, as text */
    const char *help;
} so_option_doc;

/* Defaults: no time limit, seed 0, no options. */
void so_params_init(so_params *p);
/* Sets (or replaces) an option; SO_EINVAL when the key or value is too
 * long or SO_MAX_OPTIONS are set already. */
int so_params_set(so_params *p, const char *key, const char *value);
/* The same from "key=value" (as --opt and --set take it). */
int so_params_set_kv(so_params *p, const char *kv, so_error *err);
/* The option's text, or NULL when it is not set. */
const char *so_params_get(const so_params *p, const char *key);
/* Typed getters: the option, else the documented default in docs (may be
 * NULL), else def. Return SO_EINVAL (with err) when the text is not a number. */
int so_params_double(const so_params *p, const so_option_doc *docs,
                     const char *key, double def, double *out, so_error *err);
int so_params_int(const so_params *p, const so_option_doc *docs,
                  const char *key, long long def, long long *out, so_error *err);
const char *so_params_str(const so_params *p, const so_option_doc *docs,
                          const char *key, const char *def);
/* Rejects keys not documented in docs (NULL-terminated by key == NULL). */
int so_params_check(const so_params *p, const so_option_doc *docs,
                    const char *what, so_error *err);

/* ---- problems ---------------------------------------------------------- */
typedef struct so_problem so_problem;

/* Reads a native JSON instance ("problem" selects the formulation) or one of
 * the text formats detected automatically (Pisinger's 0-1 knapsack files). */
int so_problem_read(const char *path, so_problem **out, so_error *err);
/* The same from text in memory; name labels errors and results. */
int so_problem_parse(const char *text, const char *name, so_problem **out,
                     so_error *err);
/* Builds a problem from an instance JSON object (as a family generates it). */
int so_problem_from_json(json_t *root, const char *name, so_problem **out,
                         so_error *err);
/* Reads every instance of path ("-": stdin): one instance as
 * so_problem_read does, or several JSON documents one after another (JSON
 * lines, as `slotopt gen --out -` writes them), the k-th named
 * "FILE:LINE" by the line it starts on. *out: n problems, each to free with
 * so_problem_free and the array with free(). An error names the file and
 * the line in the whole stream; nothing is returned then. */
int so_problem_read_all(const char *path, so_problem ***out, size_t *n,
                        so_error *err);
/* The same from the text buf[0..len) (NUL-terminated) read from the file
 * shown in names and errors. */
int so_problem_parse_all(const char *buf, size_t len, const char *shown,
                         so_problem ***out, size_t *n, so_error *err);
void so_problem_free(so_problem *p); /* NULL is allowed */
const char *so_problem_kind(const so_problem *p); /* "knapsack", "flex", ... */
const char *so_problem_name(const so_problem *p); /* instance name */
int so_problem_sense(const so_problem *p); /* SO_MINIMIZE or SO_MAXIMIZE */
/* "meta" object of the instance (family, seed, parameters) or NULL. */
json_t *so_problem_meta(const so_problem *p);
/* Native JSON of the instance (new reference). */
json_t *so_problem_to_json(const so_problem *p);

enum so_model_format { SO_FORMAT_LP = 1, SO_FORMAT_MPS = 2 };
/* Writes the instance's GLPK model (written by GLPK), atomically. */
int so_problem_export(const so_problem *p, const char *path, int format,
                      so_error *err);
/* The same with model options (prm may be NULL): a pareto instance's model
 * is one epsilon-constraint MILP, least budget at makespan <= "deadline"
 * (default: the instance's deadline); docs/formats.md, "Model export".
 * Other models take no options (SO_EINVAL when some are given). */
int so_problem_export_params(const so_problem *p, const char *path, int format,
                             const so_params *prm, so_error *err);

/* ---- results ----------------------------------------------------------- */
typedef struct so_result so_result;

/* A result is made by so_solve (or by a backend filling the one it is
 * given); the setters are for backends. */
so_result *so_result_new(void);          /* NULL when out of memory */
void so_result_free(so_result *r);       /* NULL is allowed */
void so_result_set_status(so_result *r, int status);
int so_result_status(const so_result *r); /* SO_OPTIMAL, SO_FEASIBLE, ... */
void so_result_set_objective(so_result *r, double value);
int so_result_has_objective(const so_result *r); /* 1 once set */
double so_result_objective(const so_result *r);  /* NAN when not set */
/* A proven bound on the optimum (upper when maximising, lower when
 * minimising). A value that is not finite or is +-DBL_MAX (a solver's
 * "no bound") leaves the result without one. */
void so_result_set_bound(so_result *r, double value);
int so_result_has_bound(const so_result *r);
double so_result_bound(const so_result *r);      /* NAN when not set */
/* Integer problems: the objective / bound as exact integers (JSON and text
 * print them digit for digit, also beyond 2^53); the double getters give
 * the nearest double. The _int getters return 1 and set *value when the
 * value was set exactly, else 0. */
void so_result_set_objective_int(so_result *r, int64_t value);
int so_result_objective_int(const so_result *r, int64_t *value);
void so_result_set_bound_int(so_result *r, int64_t value);
int so_result_bound_int(const so_result *r, int64_t *value);
/* Relative gap |objective - bound| / max(1, |objective|); NAN if unknown. */
double so_result_gap(const so_result *r);
double so_result_seconds(const so_result *r); /* wall time of the solve */
/* Takes ownership of the reference. */
void so_result_set_solution(so_result *r, json_t *solution);
json_t *so_result_solution(const so_result *r); /* borrowed */
/* Extra keys for the JSON output (e.g. "hypervolume_ratio"); steals. */
void so_result_set_extra(so_result *r, const char *key, json_t *value);
json_t *so_result_extra(const so_result *r, const char *key); /* borrowed */
/* A note on how the solve ended (why a backend failed or stopped). */
void so_result_set_message(so_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *so_result_message(const so_result *r); /* "" when none */
/* {"problem","instance","backend","exact","status","objective","bound",
 *  "gap","seconds","solution", extras...} — new reference. */
json_t *so_result_to_json(const so_result *r);

/* ---- backends ---------------------------------------------------------- */
typedef int (*so_solve_fn)(const so_problem *p, const so_params *prm,
                           so_result *r);

typedef struct so_backend {
    const char *name;
    const char *problem; /* formulation name */
    int exact;           /* 1 exact, 0 heuristic */
    const char *description;
    so_solve_fn solve;
    const so_option_doc *options; /* NULL or {NULL}-terminated */
} so_backend;

/* The registry: backends by position (0 to count - 1) or by name (NULL when
 * there is none of that name). */
size_t so_backend_count(void);
const so_backend *so_backend_at(size_t i);
const so_backend *so_backend_find(const char *name);
/* Every backend's name, NULL-terminated (static storage). */
const char *const *so_backend_names(void);
/* The default backend of a problem kind (its first exact row). */
const so_backend *so_backend_default(const char *problem);

/* Runs the backend: checks the kind and options, times the call, fills the
 * result's names. Returns the solve status (> 0) or an error (< 0). */
int so_solve(const so_backend *b, const so_problem *p, const so_params *prm,
             so_result **out, so_error *err);

/* ---- instance families ------------------------------------------------- */
/* settings: the --set key=value pairs (in params->options). Returns a new
 * instance JSON object (with "problem", "version"). */
typedef int (*so_generate_fn)(const so_params *settings, so_rng *rng,
                              json_t **instance, so_error *err);

typedef struct so_family {
    const char *name;
    const char *problem;
    const char *description;
    const so_option_doc *params; /* {NULL}-terminated */
    so_generate_fn generate;
} so_family;

/* The families by position or by name (NULL when there is none). */
size_t so_family_count(void);
const so_family *so_family_at(size_t i);
const so_family *so_family_find(const char *name);
/* Every family's name, NULL-terminated (static storage). */
const char *const *so_family_names(void);
/* Generates instance `index` of the family for `seed`, adding "meta". */
int so_family_generate(const so_family *f, const so_params *settings,
                       uint64_t seed, uint64_t index, json_t **instance,
                       so_error *err);

/* ---- files ------------------------------------------------------------- */
/* Writes text to path atomically (temporary file + rename). */
int so_write_file_atomic(const char *path, const char *text, size_t len,
                         so_error *err);
/* value as indented JSON with a final newline, atomically. */
int so_write_json_atomic(const char *path, const json_t *value, so_error *err);
/* Creates "<path>.tmpXXXXXX" beside path for an atomic write (mode 0666
 * less the umask); its name goes to tmp. Returns the descriptor or -1. */
int so_temp_open(const char *path, char *tmp, size_t size);
/* One output, opened by path: "-" is standard output; a regular file (or
 * the file a symbolic link names, resolved first; or a new file) is written
 * through a temporary file renamed onto it at close; a character or block
 * device, FIFO or socket is opened and written directly, never replaced; a
 * folder is an error (SO_EIO). */
typedef struct so_output so_output;
int so_output_open(const char *path, so_output **out, so_error *err);
FILE *so_output_file(const so_output *o);
/* The temporary file (for a signal handler to remove), NULL if direct. */
const char *so_output_temp_path(const so_output *o);
/* Flushes and closes (standard output is flushed, not closed). keep: put
 * the file in place when every write succeeded; else drop the temporary.
 * SO_EIO with "cannot write: reason" when keep and a write failed. */
int so_output_close(so_output *o, int keep, so_error *err);
/* Copies the file `from` to the output path (as so_output_open). */
int so_copy_to_output(const char *from, const char *path, so_error *err);
/* Reads a whole input file into a NUL-terminated buffer (free it): "-" is
 * standard input; a folder is refused; so is anything over so_input_limit()
 * bytes (256 MiB unless SLOTOPT_MAX_INPUT_MB says otherwise) — SO_EINVAL
 * naming the file and the limit. */
int so_read_input(const char *path, char **text, size_t *len, so_error *err);
size_t so_input_limit(void);

#endif

/*
 * harness_table.h — a scenario's table (internal to the slotopt program and
 * its tests): which stored cells it groups by which keys, the statistic over
 * the seeds, ratio columns between two policies per seed, the paper's
 * numbers beside ours, and the figure drawn from it (docs/harness.md,
 * "Scenario tables").
 */
#ifndef SO_HARNESS_TABLE_H
#define SO_HARNESS_TABLE_H
#include <jansson.h>
#include "tools/harness/harness.h"

#define SO_HTABLE_MAX_KEYS 4
#define SO_HTABLE_MAX_RATIOS 8

typedef struct so_hratio_def {
    char name[64];
    char of[64]; /* a policy; "" = the row's own policy ("policy" a row key) */
    char to[64]; /* a policy; "" = the scenario's reference */
    int difference; /* "kind": "difference": of - to per seed, not of / to */
} so_hratio_def;

/* A claim of the paper checked against a column of the table (issue 32,
 * item 4; docs/harness.md, "Claims"): per row, the value's 95 % interval
 * wholly on the claimed side of the threshold holds, wholly on the other
 * side fails, else unclear; one verdict per value of the row key `by`. */
#define SO_HTABLE_MAX_CLAIMS 8
typedef struct so_hclaim_def {
    char text[160];   /* the claim in words */
    char column[64];  /* a ratio's name or a value column */
    int kind;         /* SO_HCLAIM_ABOVE, _BELOW or _PAPER */
    double threshold; /* above / below; with _PAPER the band's half-width */
    int all;          /* 1: a conjunction (every row must hold; one failing
                         row fails it); 0: holds in part where some rows do */
    char by[32];      /* "" or a row key: one verdict per value */
    json_t *rows;     /* NULL or {ROW KEY: [values]}: only these rows; owned */
} so_hclaim_def;
enum { SO_HCLAIM_ABOVE, SO_HCLAIM_BELOW, SO_HCLAIM_PAPER };

typedef struct so_htable_def {
    char title[200];
    /* keys: "policy", "user" (per-user values of simulation cells),
     * "job_name" (per-job values of the jobs with completion-time goals),
     * "instance", "family", "seed", or a family parameter */
    char rows[SO_HTABLE_MAX_KEYS][32];
    int n_rows;
    char columns[32]; /* "" or a key whose values become columns */
    char policies[SO_HARNESS_MAX_POLICIES][64]; /* only these (none: all) */
    int n_policies;
    json_t *where;    /* {KEY: [values]}: only the cells whose key (not
                         "user" or "job_name") has one of the values; owned */
    char label[64];   /* the value column's header; "" = from value */
    char value[64];   /* "metric", "ratio" or "difference" (the gap to the
                         reference, docs/harness.md) or a dotted path into
                         the cell's extras */
    int ci95;         /* mean with 95 % t-interval, else mean ± sd */
    int max;          /* "mean_max": mean and largest sample (not with ci95) */
    int decimals;     /* digits after the point; -1: by the mean's size */
    so_hratio_def ratios[SO_HTABLE_MAX_RATIOS];
    int n_ratios;
    json_t *paper;    /* row label -> number, text or {column: number}; owned */
    /* the figure: x = a row key; one curve per column value (or per
     * policy); "lines" or "bars" */
    int has_figure;
    char fig_x[32], fig_style[16], fig_ylabel[80], fig_title[200];
    so_hclaim_def claims[SO_HTABLE_MAX_CLAIMS];
    int n_claims;
} so_htable_def;

/* Frees what a definition owns (where, paper, the claims' rows). */
void so_htable_def_free(so_htable_def *def);

#define SO_HSCENARIO_MAX_TABLES 4

/* What `slotopt scenarios` and `report --scenario` need of a scenario. */
typedef struct so_hscenario {
    char reproduces[1024]; /* the paper's figure or table */
    char figure[64];       /* a short name of it, e.g. "RAS Fig. 3" */
    double runtime_full, runtime_quick; /* seconds measured; 0 unknown */
    char reference[64];    /* the simulation reference or first reference */
    size_t n_tables; /* "table": one object, or an array of up to 4 */
    so_htable_def tables[SO_HSCENARIO_MAX_TABLES];
} so_hscenario;

void so_hscenario_free(so_hscenario *sc);

/* Reads a scenario file as so_scenario_read does; with quick, the fields
 * of its "quick" object replace the top-level ones first. sc (may be NULL)
 * gets the table and the listing fields. */
int so_scenario_load(const char *path, int quick, so_hconfig *c, so_hinsts *s,
                     so_hscenario *sc, so_error *err);

/* The folder of the shipped scenarios: $SLOTOPT_SCENARIOS when set, else
 * ./instances/scenarios, else beside the program (as so_scenario_find looks);
 * 0, or -1 when none exists. */
int so_scenario_dir(char *out, size_t size);

/* Parses a "table" object (at path in the file read by in) into def. */
struct so_jin;
int so_htable_def_read(struct so_jin *in, json_t *obj, const char *path,
                       so_htable_def *def);

/* ---- the computed table --------------------------------------------------- */
typedef struct so_htable_cell {
    size_t n;           /* samples (seeds x instances) */
    double mean, sd, lo, hi; /* NAN when n = 0; lo/hi the 95 % interval */
    double max;              /* the largest sample; NAN when n = 0 */
} so_htable_cell;

typedef struct so_htable_row {
    char label[160];                          /* row keys joined by "/" */
    char keys[SO_HTABLE_MAX_KEYS][64];        /* each row key's value */
    so_htable_cell *cells;                    /* n_cols value columns */
    so_htable_cell ratios[SO_HTABLE_MAX_RATIOS];
    json_t *paper;                            /* borrowed, or NULL */
} so_htable_row;

typedef struct so_htable {
    const so_htable_def *def;
    char value_label[64]; /* the header of the one value column */
    char (*cols)[64]; /* the column values ("" = one value column) */
    size_t n_cols;
    so_htable_row *rows;
    size_t n_rows;
    char (*paper_cols)[64]; /* "" = one "paper" column */
    size_t n_paper_cols;
    size_t failed;  /* cells whose status is an error, killed or crashed */
    size_t missing; /* (row, column) pairs without a sample */
    struct so_hverdict *verdicts; /* the claims' verdicts (harness_table_claim.c) */
    size_t n_verdicts;
} so_htable;

/* One claim's verdict over the rows of one value of its `by` key. */
enum { SO_HV_HOLDS, SO_HV_PART, SO_HV_FAILS, SO_HV_UNCLEAR, SO_HV_NODATA };
typedef struct so_hverdict {
    int claim;        /* index into def->claims */
    char group[64];   /* the `by` key's value, "" without one */
    int verdict;      /* SO_HV_* */
    size_t n_holds, n_fails, n_unclear; /* rows with a value */
    char where[512];  /* the rows that do not hold: "fails: LABEL (MEAN), ..." */
} so_hverdict;

/* Reads a table's "claims" (called by so_htable_def_read once its rows,
 * columns and ratios are read). */
int so_hclaims_read(struct so_jin *in, json_t *obj, const char *path,
                    so_htable_def *def);
/* Checks the claims of def (read at path) against the scenario: with
 * "columns": "policy", each claim's column is a ratio or one of the
 * scenario's policies. */
int so_hclaims_check(struct so_jin *in, const so_htable_def *def, const char *path,
                     const so_hconfig *c);
/* The verdicts without data (a claim no row of the data matches), each
 * named on fp (when not NULL) after prefix. */
size_t so_htable_nodata(const so_htable *t, FILE *fp, const char *prefix);
/* Computes t->verdicts from the built table; SO_OK or SO_ENOMEM. */
int so_htable_verdicts(so_htable *t);
/* The verdict's word: "holds", "holds in part", "fails", "unclear", "no data". */
const char *so_hverdict_word(int verdict);
/* The verdicts as a table (text or markdown) after the table, and as JSON. */
void so_htable_print_verdicts(FILE *fp, const so_htable *t, int markdown);
json_t *so_htable_verdicts_json(const so_htable *t);

/* Builds the table of def from the rows of the scenario's policies or
 * backends (others ignored); ref = the reference's name. */
int so_htable_build(const so_htable_def *def, const so_hrows *rows,
                    const so_hconfig *c, const char *ref, so_htable *t,
                    so_error *err);
void so_htable_free(so_htable *t);
/* Prints as table, csv, json or markdown (enum so_hformat, maybe with
 * SO_HF_COMPACT). */
void so_htable_print(FILE *fp, const so_htable *t, int format);
/* The table as a JSON object {"title", "statistic", "value", "rows": [{"label",
 * "keys", "values": {COLUMN: {"n", "mean", "sd", "lo95", "hi95", "max"}}, "ratios",
 * "paper"}], "failed_cells", "missing_values"}. */
json_t *so_htable_json(const so_htable *t);
/* Draws the figure into dir as BASE.{dat,gp,ext}; 1 drawn data and script,
 * 0 no figure defined, < 0 error. */
int so_htable_plot(const so_htable *t, const char *dir, const char *base,
                   const char *ext, so_error *err);
/* Appends "/" (unless out is empty) and s to out (size bytes), cut to fit. */
void so_htable_join(char *out, size_t size, const char *s);
/* Student t quantile t(0.975, df) (df >= 1). */
double so_t975(size_t df);

#endif

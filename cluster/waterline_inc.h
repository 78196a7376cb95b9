/* waterline_inc.h — the fair-share waterline (fair_share.h, so_cl_waterline)
 * kept sorted between calls: entities carry stable ids, and the two sorted
 * breakpoint lists of the previous call are repaired (members that left are
 * dropped, new ones appended, changed keys moved by insertion) instead of
 * sorted again. Same inputs, same shares, bit for bit, as so_cl_waterline. */
#ifndef SO_CL_WATERLINE_INC_H
#define SO_CL_WATERLINE_INC_H

/* Per id space (e.g. the jobs of a workload): scratch shared by every
 * waterline over ids of that space; each id in at most one waterline of a
 * space at a time (a job's pool of one phase: one space per phase). */
typedef struct so_cl_wl_space {
    int n_ids;
    unsigned *stamp; /* per id: generation of the last call that saw it */
    int *pos;        /* per id: its position in that call's input */
    unsigned gen;
} so_cl_wl_space;

/* One waterline's breakpoints, sorted, from its previous call. */
typedef struct so_cl_wl {
    int *enter, *leave; /* ids by (min share / weight, id), (demand / weight, id) */
    double *key;        /* scratch: the keys of one list while it is sorted */
    int *ids;           /* the ids of the last sorted call, in input order */
    int n, cap;
    long long shifts;   /* insertion moves so far (statistics) */
    long long resorts;  /* full sorts after too many moves */
} so_cl_wl;

int so_cl_wl_space_init(so_cl_wl_space *sp, int n_ids);
void so_cl_wl_space_free(so_cl_wl_space *sp);
void so_cl_wl_init(so_cl_wl *wl);
void so_cl_wl_free(so_cl_wl *wl);

/* so_cl_waterline over the n entities ids[0..n-1] (strictly increasing,
 * each < sp->n_ids), with weight, min_share and demand given by position as
 * there; share[k] is the share of ids[k]. The result equals
 * so_cl_waterline(n, weight, min_share, demand, slots, share) exactly.
 * Returns 0, or -1 when out of memory (then share holds the minima, as
 * so_cl_waterline leaves them when it cannot allocate). */
int so_cl_wl_solve(so_cl_wl *wl, so_cl_wl_space *sp, int n, const int *ids,
                   const double *weight, const double *min_share,
                   const double *demand, double slots, double *share);

#endif

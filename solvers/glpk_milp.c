/* glpk_milp.c — the one place slotopt calls glp_intopt.
 *
 * Silences GLPK's terminal output, turns on the cheap cut families, honours
 * the time limit, records the best
 * bound of the open nodes through the branch-and-cut callback, and turns
 * GLPK's fatal errors (which abort by default) into SO_EBACKEND.
 *
 * The time limit is a deadline on the monotonic clock, for the whole call:
 * GLPK counts tm_lim from the start of each of its stages (the root LP,
 * then the tree), so the driver gives each stage what is left and the
 * callback, which GLPK calls between nodes and around cut rounds, stops
 * the search (glp_ios_terminate) once the deadline has passed, or earlier
 * when the stretch GLPK would run before the next callback is predicted
 * to end past it: the callback measures the longest stretch after each
 * reason (ras-glpk's stage 2 on 40 tasktrackers spends 60-110 ms in a
 * node's LP, after the preprocessing callback, and stopped 0.03-0.10 s
 * late at a 0.5 s limit). So it can stop as early as that longest
 * stretch (a node's LP, a cut round) before the deadline. GLPK marks a
 * node without a bound by +-DBL_MAX: that is no bound.
 * What GLPK does between two callbacks cannot be stopped, and on a large
 * model five of its steps take seconds (measured on ras-exact's 158,000
 * pattern columns): the MIP presolver (1.7 s), a round of cuts (1.6 s),
 * pseudocost initialisation (a copy of the whole problem and an LP per
 * fractional column: 12.8 s), Driebeck-Tomlin branching (a simplex
 * tableau row per fractional column: 0.85 s a node) and node
 * preprocessing (0.85 s at the root). A model over LARGE_COLS columns or
 * LARGE_NNZ non-zeros therefore gets none of them: its LP relaxation is
 * solved first by glp_simplex (which reads the clock every iteration, and
 * presolves as an LP), then branch-and-bound starts from that basis,
 * branching on the most fractional column. Smaller models are solved as
 * asked. The presolvers themselves are the last steps that cannot be
 * stopped (GLPK's LP presolver: 0.45-0.75 s on that model's 965,000
 * non-zeros, 1.3 s on rap-glpk's 320,000 for 40 jobs and 10,000 slots;
 * the MIP presolver 1.7 s on the former): each runs only when at least
 * twice its estimate (PRESOLVE_LP_S / PRESOLVE_MIP_S seconds per non-zero,
 * the slowest rates measured) is left; otherwise the LP is solved without
 * presolving, which reads the clock every simplex iteration (or from the
 * caller's basis, so_milp_options.warm: the knapsack's LP has a known
 * optimal basis, and without it GLPK takes 0.5 s with its presolver and
 * over 1 s without on 10,000 items). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <string.h>
#include "solvers/common/deadline.h"
#include "solvers/glpk_milp.h"

typedef struct {
    int has_bound;
    double bound;
    double deadline; /* 0: none */
    int stopped;     /* terminated by the callback at the deadline */
    int pcost;       /* pseudocost branching is on */
    int cuts;        /* GLPK's cut generators are on */
    double last_at;   /* when the previous callback came, or 0 */
    int last_reason;  /* its glp_ios_reason */
    double stretch[GLP_IPREPRO + 1]; /* the longest time from a callback of
                                       each reason to the next (seconds) */
} bound_tracker;

/* Seconds per element (rows + columns + non-zeros) and per candidate of
 * GLPK's pseudocost initialisation (a copy of the problem and up to 30
 * dual simplex iterations, twice: 17.7 ms per candidate on ras-glpk's
 * 3467 x 1997 model with 33,237 non-zeros, i.e. 0.23 us; twice that),
 * and per element of a first cut round (1 us: 0.03 s on ras-glpk's 28,000
 * elements of the Gridmix snapshot at 700 s, 0.1-0.25 s on 40,000 of a
 * harder instance; later rounds are predicted by the longest one
 * measured). */
#define PCOST_S 0.5e-6
#define CUT_S 1e-6
#define LARGE_COLS 20000
#define LARGE_NNZ 200000
/* GLPK's simplex stops at tm_lim only after its current iteration and a
 * pass over the solution (0.09 s on 965,000 non-zeros), and cannot stop
 * before its first factorisation (0.07 s on 320,000): its tm_lim is
 * shortened by STOP_S seconds per non-zero, and with less than that left
 * no LP is started. */
#define STOP_S 2e-7
#define PRESOLVE_LP_S 4e-6
#define PRESOLVE_MIP_S 2e-6

static double model_size(glp_tree *tree)
{
    glp_prob *m = glp_ios_get_prob(tree);
    return (double)glp_get_num_rows(m) + glp_get_num_cols(m) + glp_get_num_nz(m);
}

/* At a branching with pseudocosts on: when GLPK's initialisation of the
 * candidates' pseudocosts (which it cannot interrupt) could outlast the
 * deadline, branch on the most fractional candidate instead. */
static void branch_in_time(glp_tree *tree, const bound_tracker *bt)
{
    glp_prob *m = glp_ios_get_prob(tree);
    int n = glp_get_num_cols(m), best = 0, cands = 0;
    double best_frac = 1;
    for (int j = 1; j <= n; j++)
        if (glp_ios_can_branch(tree, j)) {
            double x = glp_get_col_prim(m, j), f = fabs(x - floor(x) - 0.5);
            cands++;
            if (f < best_frac) {
                best_frac = f;
                best = j;
            }
        }
    if (best && so_deadline_left(bt->deadline) < 2.0 * cands * PCOST_S * model_size(tree))
        glp_ios_branch_upon(tree, best, GLP_NO_BRNCH);
}

static void track_bound(glp_tree *tree, void *info)
{
    bound_tracker *bt = info;
    int r = glp_ios_reason(tree);
    double now = so_now();
    int node = glp_ios_best_node(tree); /* the current node's LP counts */
    if (node) {
        double b = glp_ios_node_bound(tree, node);
        if (isfinite(b) && fabs(b) < DBL_MAX) {
            bt->bound = b;
            bt->has_bound = 1;
        }
    }
    int known = r >= 1 && r <= GLP_IPREPRO; /* glpk.h's reasons */
    if (known) {
        if (bt->last_at > 0)
            bt->stretch[bt->last_reason] =
                fmax(bt->stretch[bt->last_reason], now - bt->last_at);
        bt->last_at = now;
        bt->last_reason = r;
    }
    if (bt->deadline > 0 && !bt->stopped) {
        double left = bt->deadline - now;
        /* none of GLPK's stretches that would end too late: the next one
         * is predicted by the longest measured after the same reason (a
         * first cut round by its size); not at a branching with
         * pseudocosts, whose longest stretch is the one-off initialisation
         * of the pseudocosts, which branch_in_time avoids when it would
         * not fit */
        int pcost_branch = r == GLP_IBRANCH && bt->pcost;
        double next = known && !pcost_branch ? bt->stretch[r] : 0;
        if (r == GLP_ICUTGEN && bt->cuts && next == 0)
            next = CUT_S * model_size(tree);
        if (left <= 0 || left < next) {
            bt->stopped = 1;
            glp_ios_terminate(tree);
            return;
        }
        if (r == GLP_IBRANCH && bt->pcost)
            branch_in_time(tree, bt);
    }
}

/* Milliseconds left before the deadline for GLPK's tm_lim (at least 1). */
static int ms_left(double deadline)
{
    double ms = ceil(so_deadline_left(deadline) * 1000);
    return ms >= INT_MAX ? INT_MAX : ms < 1 ? 1 : (int)ms;
}

static jmp_buf *volatile active_jump;

static void on_glpk_error(void *info)
{
    (void)info;
    if (active_jump)
        longjmp(*active_jump, 1);
}

int so_milp_parse_cuts(const char *text, int *cuts)
{
    static const struct {
        const char *name;
        int bit;
    } names[] = {{"none", SO_CUTS_NONE}, {"all", SO_CUTS_ALL},
                 {"cover", SO_CUTS_COVER}, {"mir", SO_CUTS_MIR},
                 {"clique", SO_CUTS_CLIQUE}, {"gomory", SO_CUTS_GOMORY}};
    *cuts = 0;
    const char *s = text;
    while (*s) {
        size_t n = strcspn(s, ",");
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] &&
               !(strlen(names[k].name) == n && !strncmp(names[k].name, s, n)))
            k++;
        if (k == sizeof names / sizeof names[0])
            return SO_EINVAL;
        *cuts |= names[k].bit;
        s += n + (s[n] == ',');
    }
    return SO_OK;
}

int so_milp_solve(glp_prob *lp, const so_params *prm, so_milp_outcome *out)
{
    return so_milp_solve_until(lp, so_deadline_of(prm), NULL, out);
}

int so_milp_solve_opt(glp_prob *lp, const so_params *prm,
                      const so_milp_options *opt, so_milp_outcome *out)
{
    return so_milp_solve_until(lp, so_deadline_of(prm), opt, out);
}

int so_milp_solve_until(glp_prob *lp, double deadline,
                        const so_milp_options *opt, so_milp_outcome *out)
{
    int cuts = opt ? opt->cuts : SO_CUTS_NONE;
    out->status = SO_EBACKEND;
    out->has_solution = out->has_bound = out->lp_lost = 0;
    out->objective = out->bound = NAN;
    if (so_deadline_passed(deadline) ||
        (deadline > 0 && so_deadline_left(deadline) < STOP_S * glp_get_num_nz(lp))) {
        out->status = SO_TIMELIMIT;
        return out->status;
    }
    glp_term_out(GLP_OFF);
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.mip_gap = 0.0;
    double nnz = glp_get_num_nz(lp), left = so_deadline_left(deadline);
    int large = glp_get_num_cols(lp) > LARGE_COLS || nnz > LARGE_NNZ;
    if (large)
        cuts = SO_CUTS_NONE;
    if (opt && opt->branching && !large) {
        parm.br_tech = GLP_BR_PCH;
        parm.bt_tech = GLP_BT_BPH;
    }
    if (large) {
        parm.br_tech = GLP_BR_MFV;
        parm.pp_tech = GLP_PP_NONE;
    }
    int warm = opt && opt->warm;
    int lp_first = large || warm || (cuts & SO_CUTS_COVER) ||
                   left < 2 * PRESOLVE_MIP_S * nnz;
    if (lp_first)
        parm.presolve = GLP_OFF;
    if (cuts) {
        parm.cov_cuts = cuts & SO_CUTS_COVER ? GLP_ON : GLP_OFF;
        parm.mir_cuts = cuts & SO_CUTS_MIR ? GLP_ON : GLP_OFF;
        parm.clq_cuts = cuts & SO_CUTS_CLIQUE ? GLP_ON : GLP_OFF;
        parm.gmi_cuts = cuts & SO_CUTS_GOMORY ? GLP_ON : GLP_OFF;
    }
    bound_tracker bt = {0, 0, deadline, 0, parm.br_tech == GLP_BR_PCH, cuts != 0,
                        0, -1, {0}};
    parm.cb_func = track_bound;
    parm.cb_info = &bt;

    jmp_buf jump;
    if (setjmp(jump)) {
        active_jump = NULL;
        glp_error_hook(NULL, NULL);
        glp_free_env(); /* the only safe way back after a GLPK error */
        out->lp_lost = 1;
        return SO_EBACKEND;
    }
    active_jump = &jump;
    glp_error_hook(on_glpk_error, NULL);
    int rc = 0;
    if (lp_first) { /* the LP relaxation first: intopt needs its basis */
        glp_smcp sm;
        glp_init_smcp(&sm);
        sm.msg_lev = GLP_MSG_OFF;
        sm.presolve = !warm && left >= 2 * PRESOLVE_LP_S * nnz ? GLP_ON : GLP_OFF;
        if (deadline > 0)
            sm.tm_lim = ms_left(deadline - STOP_S * nnz);
        rc = glp_simplex(lp, &sm);
        if (rc == 0 && glp_get_status(lp) == GLP_NOFEAS)
            rc = GLP_ENOPFS;
        else if (rc == 0 && glp_get_status(lp) == GLP_UNBND)
            rc = GLP_ENODFS;
        else if (rc == 0 && glp_get_status(lp) != GLP_OPT)
            rc = GLP_EFAIL;
    }
    if (rc == 0 && so_deadline_passed(deadline))
        rc = GLP_ETMLIM;
    int ran = rc == 0;
    if (ran) {
        if (deadline > 0)
            parm.tm_lim = ms_left(deadline - STOP_S * nnz);
        rc = glp_intopt(lp, &parm);
    }
    glp_error_hook(NULL, NULL);
    active_jump = NULL;

    /* without glp_intopt, lp may hold an earlier call's solution */
    int st = ran ? glp_mip_status(lp) : GLP_UNDEF;
    out->has_solution = st == GLP_OPT || st == GLP_FEAS;
    if (out->has_solution)
        out->objective = glp_mip_obj_val(lp);
    if (st == GLP_OPT) {
        out->status = SO_OPTIMAL;
        out->has_bound = 1;
        out->bound = out->objective;
    } else if (rc == GLP_ENOPFS || st == GLP_NOFEAS) {
        out->status = SO_INFEASIBLE;
    } else if (rc == GLP_ENODFS) {
        out->status = SO_UNBOUNDED;
    } else if (rc == GLP_ETMLIM || (rc == GLP_ESTOP && bt.stopped)) {
        out->status = SO_TIMELIMIT;
        out->has_bound = bt.has_bound;
        out->bound = bt.bound;
        if (out->has_solution && bt.has_bound) {
            /* the incumbent is itself a bound on one side */
            int max = glp_get_obj_dir(lp) == GLP_MAX;
            if ((max && bt.bound < out->objective) ||
                (!max && bt.bound > out->objective))
                out->bound = out->objective;
        }
    } else {
        out->status = SO_EBACKEND;
    }
    return out->status;
}

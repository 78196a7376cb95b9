/* glpk_milp.c — the one place slotopt calls glp_intopt.
 *
 * Silences GLPK's terminal output, turns on the cheap cut families, honours
 * the time limit, records the best
 * bound of the open nodes through the branch-and-cut callback, and turns
 * GLPK's fatal errors (which abort by default) into SO_EBACKEND. */
#include <math.h>
#include <setjmp.h>
#include <string.h>
#include "solvers/glpk_milp.h"

typedef struct {
    int has_bound;
    double bound;
} bound_tracker;

static void track_bound(glp_tree *tree, void *info)
{
    bound_tracker *bt = info;
    int r = glp_ios_reason(tree);
    if (r != GLP_ISELECT && r != GLP_IBINGO && r != GLP_IPREPRO)
        return;
    int node = glp_ios_best_node(tree);
    if (node) {
        double b = glp_ios_node_bound(tree, node);
        if (isfinite(b)) {
            bt->bound = b;
            bt->has_bound = 1;
        }
    }
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
    return so_milp_solve_opt(lp, prm, NULL, out);
}

int so_milp_solve_opt(glp_prob *lp, const so_params *prm,
                      const so_milp_options *opt, so_milp_outcome *out)
{
    int cuts = opt ? opt->cuts : SO_CUTS_NONE;
    out->status = SO_EBACKEND;
    out->has_solution = out->has_bound = out->lp_lost = 0;
    out->objective = out->bound = NAN;
    glp_term_out(GLP_OFF);
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.mip_gap = 0.0;
    if (prm && prm->time_limit > 0)
        parm.tm_lim = prm->time_limit * 1000 >= 2e9
                          ? 2000000000
                          : (int)ceil(prm->time_limit * 1000);
    if (opt && opt->branching) {
        parm.br_tech = GLP_BR_PCH;
        parm.bt_tech = GLP_BT_BPH;
    }
    int lp_first = cuts & SO_CUTS_COVER;
    if (cuts) {
        if (lp_first)
            parm.presolve = GLP_OFF;
        parm.cov_cuts = cuts & SO_CUTS_COVER ? GLP_ON : GLP_OFF;
        parm.mir_cuts = cuts & SO_CUTS_MIR ? GLP_ON : GLP_OFF;
        parm.clq_cuts = cuts & SO_CUTS_CLIQUE ? GLP_ON : GLP_OFF;
        parm.gmi_cuts = cuts & SO_CUTS_GOMORY ? GLP_ON : GLP_OFF;
    }
    bound_tracker bt = {0, 0};
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
        sm.presolve = GLP_ON;
        rc = glp_simplex(lp, &sm);
        if (rc == 0 && glp_get_status(lp) == GLP_NOFEAS)
            rc = GLP_ENOPFS;
        else if (rc == 0 && glp_get_status(lp) == GLP_UNBND)
            rc = GLP_ENODFS;
        else if (rc == 0 && glp_get_status(lp) != GLP_OPT)
            rc = GLP_EFAIL;
    }
    if (rc == 0)
        rc = glp_intopt(lp, &parm);
    glp_error_hook(NULL, NULL);
    active_jump = NULL;

    int st = glp_mip_status(lp);
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
    } else if (rc == GLP_ETMLIM) {
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

/* glpk_reread.h — shared helper of the export test suites: GLPK reads an
 * exported model back and solves it. */
#ifndef SO_TEST_GLPK_REREAD_H
#define SO_TEST_GLPK_REREAD_H
#include <glpk.h>
#include <math.h>
#include "slotopt.h"

/* Optimum of the model GLPK reads back from path (format as written; NAN
 * when it cannot be read or has no proven optimum); *dir gets its
 * objective direction (GLP_MIN or GLP_MAX) when it was read. */
static inline double glpk_reread_optimum(const char *path, int format, int *dir)
{
    glp_prob *lp = glp_create_prob();
    glp_term_out(GLP_OFF);
    int rc = format == SO_FORMAT_MPS ? glp_read_mps(lp, GLP_MPS_FILE, NULL, path)
                                     : glp_read_lp(lp, NULL, path);
    double z = NAN;
    if (rc == 0) {
        glp_iocp ip;
        glp_init_iocp(&ip);
        ip.presolve = GLP_ON;
        ip.msg_lev = GLP_MSG_OFF;
        if (glp_intopt(lp, &ip) == 0 && glp_mip_status(lp) == GLP_OPT)
            z = glp_mip_obj_val(lp);
        *dir = glp_get_obj_dir(lp);
    }
    glp_delete_prob(lp);
    glp_term_out(GLP_ON);
    return z;
}

#endif

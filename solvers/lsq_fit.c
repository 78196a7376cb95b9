/* lsq_fit.c — task-time profiles t(n) = a + b/n fitted from history.
 *
 * Zacheilas and Kalogeraki 2017, section 4.2.1: tavg and tmax depend on the
 * task count n and are extrapolated from previous runs; the project (SPEC
 * section 2) fits t(n) = a + b/n, which is linear in (a, b): the design
 * matrix has rows (1, 1/n_i) and LAPACK's dgels solves min ||X (a b)' - t||
 * by QR. */
#include <lapacke.h>
#include <stdlib.h>
#include "slotopt.h"
#include "solvers/lsq_fit.h"

int so_lsq_fit_inverse(const double *n, const double *t, size_t count,
                       double *a, double *b)
{
    if (count < 2)
        return SO_EINVAL;
    int distinct = 0;
    for (size_t i = 0; i < count; i++) {
        if (!(n[i] > 0))
            return SO_EINVAL;
        distinct |= n[i] != n[0];
    }
    if (!distinct)
        return SO_EINVAL;
    double *x = malloc(2 * count * sizeof *x);
    double *y = malloc(count * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return SO_ENOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        x[2 * i] = 1.0;
        x[2 * i + 1] = 1.0 / n[i];
        y[i] = t[i];
    }
    lapack_int info = LAPACKE_dgels(LAPACK_ROW_MAJOR, 'N', (lapack_int)count, 2,
                                    1, x, 2, y, 1);
    if (info == 0) {
        *a = y[0];
        *b = y[1];
    }
    free(x);
    free(y);
    return info == 0 ? SO_OK : SO_EBACKEND;
}

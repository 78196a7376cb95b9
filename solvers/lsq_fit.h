/* lsq_fit.h — least-squares fit of task-time profiles (internal). */
#ifndef SO_LSQ_FIT_H
#define SO_LSQ_FIT_H
#include <stddef.h>

/* Fits t(n) = a + b / n to the samples (n[i], t[i]), i < count, by linear
 * least squares (LAPACKE_dgels, QR). Needs at least two samples with two
 * distinct n > 0. Returns SO_OK, SO_EINVAL (too few or degenerate samples)
 * or SO_EBACKEND (LAPACK failed). */
int so_lsq_fit_inverse(const double *n, const double *t, size_t count,
                       double *a, double *b);

#endif

/* harness_mpi_none.c — `slotopt bench --mpi` in a build without MPI (the
 * Makefile compiles it instead of tools/harness/harness_mpi.c when pkg-config does
 * not know ompi-c): every entry point fails with a message saying so. */
#include "tools/harness/harness.h"

static int without_mpi(so_error *err)
{
    so_error_setf(err, NULL, 0, 0, NULL,
                  "--mpi: this slotopt was built without MPI (install libopenmpi-dev"
                  " and openmpi-bin, e.g. with 'make deps' as root, then rebuild)");
    return SO_EUNSUPPORTED;
}

int so_harness_mpi_init(so_hmpi *m, so_error *err)
{
    m->rank = 0;
    m->size = 1;
    return without_mpi(err);
}

void so_harness_mpi_finalize(void)
{
}

int so_harness_mpi_run(const so_hmpi *m, const so_hconfig *c, const so_hinsts *s,
                       so_hstore *st, size_t *ran, so_error *err)
{
    (void)m, (void)c, (void)s, (void)st;
    *ran = 0;
    return without_mpi(err);
}

int so_harness_mpi_serve(const so_hmpi *m, const so_hconfig *c,
                         const so_hinsts *s, so_error *err)
{
    (void)m, (void)c, (void)s;
    return without_mpi(err);
}

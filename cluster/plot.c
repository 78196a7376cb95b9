/* plot.c — utilisation over time (busy map and reduce slots as a fraction
 * of the slots, averaged per step) drawn by gnuplot: PNG, SVG or PDF by the
 * file's extension (formulations/common/gnuplot.h; SVG for "-", standard
 * output), map and reduce each its own colour and dash type. The data and the script go to a private folder in $TMPDIR
 * (formulations/common/scratch.h), where
 * gnuplot draws the plot; it is then copied to the target by
 * so_copy_to_output (atomically for a regular file, directly for a device
 * or FIFO), so a failed plot leaves no partial file and a link or device is
 * never replaced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cluster/sim_internal.h"
#include "formulations/common/gnuplot.h"
#include "formulations/common/scratch.h"

int so_cl_plot_utilisation(const so_cl_sim *sim, const so_cl_workload *w,
                           double step, const char *path, so_error *err)
{
    /* standard output has no extension: SVG, as before */
    const char *kind = strcmp(path, "-") ? path : "stdout.svg";
    if (so_gp_check_path(kind, err))
        return SO_EINVAL;
    if (!so_gp_available()) {
        so_error_setf(err, path, 0, 0, NULL, "%s is not installed (or set SLOTOPT_GNUPLOT)",
                      so_gp_program());
        return SO_EIO;
    }
    char dir[4096];
    if (so_scratch_folder(dir, sizeof dir, "slotopt-plot", err))
        return SO_EIO;
    char data[4200], script[4200], tmp[4200];
    snprintf(data, sizeof data, "%s/util.dat", dir);
    snprintf(script, sizeof script, "%s/util.gp", dir);
    snprintf(tmp, sizeof tmp, "%s/util.out", dir);
    int rc = SO_OK;
    size_t n = 0;
    FILE *fp = fopen(data, "w");
    if (fp) {
        const double *busy[SO_CL_PHASES];
        n = so_cl_sim_series(sim, SO_CL_MAP, &busy[0]);
        so_cl_sim_series(sim, SO_CL_REDUCE, &busy[1]);
        for (size_t k = 0; k < n; k++)
            fprintf(fp, "%.3f %.6f %.6f\n", (double)k * step,
                    sim->total_slots[0] ? busy[0][k] / sim->total_slots[0] : 0,
                    sim->total_slots[1] ? busy[1][k] / sim->total_slots[1] : 0);
        if (n == 0) /* nothing ran (no jobs): a flat line, gnuplot needs a point */
            fprintf(fp, "0 0 0\n");
        rc = fclose(fp) ? SO_EIO : SO_OK;
    } else {
        rc = SO_EIO;
    }
    FILE *gp = rc ? NULL : fopen(script, "w");
    if (gp) {
        char title[400];
        snprintf(title, sizeof title, "Slot utilisation: %s, scheduler %s, speculation %s",
                 w->name, sim->cfg.scheduler ? sim->cfg.scheduler->name : "?",
                 sim->cfg.speculation ? sim->cfg.speculation->name : "none");
        so_gp_header(gp, kind, tmp, 900, 400, title);
        so_gp_label(gp, "x", "time (s)");
        so_gp_label(gp, "y", "busy slots / slots (fraction)");
        /* a fraction: 0 to 1 whatever the data; time from the data */
        fputs("set yrange [0:1.05]\nset key outside\nset grid\n", gp);
        so_gp_range(gp, "x", 0, n ? (double)(n - 1) * step : 1, 0);
        fprintf(gp, "plot '%s' using 1:2 with steps lw 1.5", data);
        so_gp_style(gp, 0);
        fprintf(gp, " title 'map', '%s' using 1:3 with steps lw 1.5", data);
        so_gp_style(gp, 1);
        fputs(" title 'reduce'\n", gp);
        rc = fclose(gp) ? SO_EIO : SO_OK;
    } else {
        rc = SO_EIO;
    }
    if (!rc) {
        rc = so_gp_run(NULL, script, path, err);
        if (!rc)
            rc = so_copy_to_output(tmp, path, err);
    } else {
        so_error_setf(err, path, 0, 0, NULL, "cannot write the plot's data");
    }
    unlink(tmp);
    unlink(data);
    unlink(script);
    rmdir(dir);
    return rc;
}

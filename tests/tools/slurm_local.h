/* slurm_local.h — a private Slurm on this host for the tests (Debian's
 * slurmctld and slurmd; tests/tools/slurm_local.c): one controller and
 * SO_SLURM_NODES slurmd (nodes n1, n2, ...) with their own configuration,
 * state, spool, logs and ports in a fresh folder, no cgroups, no
 * accounting, auth/none. Every daemon is started with SLURM_CONF set to
 * its configuration, so that it and everything it starts (step daemons,
 * job tasks) can be found again by pid and stopped, by this run or by the
 * next one when this one died. */
#ifndef SO_SLURM_LOCAL_H
#define SO_SLURM_LOCAL_H
#include <stddef.h>

#define SO_SLURM_NODES 2
#define SO_SLURM_CPUS 2 /* CPUs per node (the nodes share this host's cores) */

typedef struct so_slurm {
    char dir[512];   /* its folder: slurm.conf, state/, spool/, log/ */
    char conf[600];  /* dir/slurm.conf */
    char why[2048];  /* why it could not start (empty when it did) */
} so_slurm;

/* Stops the daemons a run that died left behind (found through the last
 * folder noted in $TMPDIR/slotopt-slurm-test.last), then starts a fresh
 * cluster and waits until every node is idle. 0, or -1 with the reason in
 * s->why. */
int so_slurm_start(so_slurm *s);
/* Stops every process started by the cluster (daemons by their pid files,
 * then anything still carrying its SLURM_CONF), by pid: SIGTERM, then
 * SIGKILL; removes the folder. Returns the number of its processes still
 * alive afterwards (0). Safe to call twice. */
int so_slurm_stop(so_slurm *s);
/* Processes alive whose environment has SLURM_CONF=conf. */
int so_slurm_count(const char *conf);
/* Waits (polling scontrol every 0.25 s) until job `id` has ended; its exit
 * code (128 + N when a signal N ended it), or -1 when it did not end
 * within `timeout` seconds (then it is cancelled). */
int so_slurm_wait(const so_slurm *s, long id, double timeout);
/* Runs `SLURM_CONF=conf CMD` through the shell; its exit code. */
int so_slurm_sh(const so_slurm *s, const char *cmd);

#endif

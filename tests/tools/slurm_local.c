/* slurm_local.c — a private single-host Slurm for the tests (see
 * slurm_local.h). Debian 12's Slurm 22.05 runs several slurmd on one host
 * (`slurmd -N NAME`, each node with its own Port= and spool folder), so the
 * cluster has SO_SLURM_NODES real node daemons; the plugins need no cgroups
 * (proctrack/linuxproc, task/none, jobacct_gather/none), no accounting
 * database, and auth/none + cred/none (shipped by slurm-wlm-basic-plugins)
 * instead of munge, which would need its own key, socket and daemon. */
#include <arpa/inet.h>
#include <errno.h>
#include <dirent.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tests/tools/slurm_local.h"

static void nap_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static const char *tmp_base(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

/* 1 when pid's environment holds SLURM_CONF=conf. */
static int carries(pid_t pid, const char *conf)
{
    char path[64], want[700];
    snprintf(path, sizeof path, "/proc/%ld/environ", (long)pid);
    int n = snprintf(want, sizeof want, "SLURM_CONF=%s", conf);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0;
    char buf[65536];
    size_t len = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
        if (strncmp(buf + i, want, (size_t)n + 1) == 0)
            return 1;
    return 0;
}

/* Calls fn(pid) on every process but this one and its parent carrying conf. */
static int each_carrier(const char *conf, int sig)
{
    DIR *d = opendir("/proc");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 1 || pid == getpid() || pid == getppid())
            continue;
        if (carries((pid_t)pid, conf)) {
            n++;
            if (sig)
                kill((pid_t)pid, sig);
        }
    }
    if (d)
        closedir(d);
    return n;
}

int so_slurm_count(const char *conf)
{
    return each_carrier(conf, 0);
}

static pid_t read_pid(const char *dir, const char *name)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "r");
    long pid = 0;
    if (fp) {
        if (fscanf(fp, "%ld", &pid) != 1)
            pid = 0;
        fclose(fp);
    }
    return (pid_t)pid;
}

/* Stops what the cluster in dir started; the number still alive. */
static int stop_dir(const char *dir)
{
    char conf[600];
    snprintf(conf, sizeof conf, "%s/slurm.conf", dir);
    /* the daemons by their pid files (only when the pid is still theirs) */
    char names[SO_SLURM_NODES + 1][32];
    snprintf(names[0], sizeof names[0], "slurmctld.pid");
    for (int i = 1; i <= SO_SLURM_NODES; i++)
        snprintf(names[i], sizeof names[i], "slurmd-n%d.pid", i);
    for (int i = 0; i <= SO_SLURM_NODES; i++) {
        pid_t pid = read_pid(dir, names[i]);
        if (pid > 1 && carries(pid, conf))
            kill(pid, SIGTERM);
    }
    for (int t = 0; t < 30 && so_slurm_count(conf); t++)
        nap_ms(100);
    /* then whatever is left: step daemons, job tasks, a daemon that did
     * not write its pid file */
    for (int t = 0; t < 30 && each_carrier(conf, SIGKILL); t++)
        nap_ms(100);
    return so_slurm_count(conf);
}

static void note_path(char *out, size_t size)
{
    snprintf(out, size, "%s/slotopt-slurm-test.last", tmp_base());
}

/* The folder an earlier run noted, if its test runner is gone: stopped. */
static void stop_stale(void)
{
    char note[600], dir[512] = "";
    long owner = 0;
    note_path(note, sizeof note);
    FILE *fp = fopen(note, "r");
    if (!fp)
        return;
    int got = fscanf(fp, "%511s %ld", dir, &owner);
    fclose(fp);
    if (got != 2 || (owner > 0 && kill((pid_t)owner, 0) == 0 && owner != getpid()))
        return; /* a run still going (another test runner): leave it */
    int left = stop_dir(dir);
    if (left)
        fprintf(stderr, "\n  [slurm: %d processes of an earlier run in %s survive] ", left, dir);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (strstr(dir, "/slotopt-slurm-") && system(cmd) != 0)
        fprintf(stderr, "\n  [slurm: cannot remove %s] ", dir);
    unlink(note);
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    socklen_t len = sizeof a;
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int port = -1;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

static int fail(so_slurm *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
    /* the logs' last lines say why */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "tail -n 4 %s/log/*.log 2>&1", s->dir);
    FILE *p = popen(cmd, "r");
    if (p && n >= 0 && (size_t)n < sizeof s->why - 2) {
        strcat(s->why, "\n");
        size_t len = strlen(s->why);
        len += fread(s->why + len, 1, sizeof s->why - len - 1, p);
        s->why[len] = '\0';
    }
    if (p)
        pclose(p);
    return -1;
}

int so_slurm_sh(const so_slurm *s, const char *cmd)
{
    char *full = NULL;
    if (asprintf(&full, "SLURM_CONF='%s' %s", s->conf, cmd) < 0)
        return -1;
    int st = system(full);
    free(full);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int so_slurm_wait(const so_slurm *s, long id, double timeout)
{
    char out[700], cmd[1000];
    snprintf(out, sizeof out, "%s/job-%ld.txt", s->dir, id);
    snprintf(cmd, sizeof cmd, "timeout 10 scontrol -o show job %ld >'%s' 2>&1", id, out);
    for (int t = 0; t < (int)(timeout * 4); t++) {
        so_slurm_sh(s, cmd);
        FILE *fp = fopen(out, "r");
        char text[8192] = "";
        size_t len = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
        if (fp)
            fclose(fp);
        text[len] = '\0';
        const char *state = strstr(text, "JobState="), *code = strstr(text, " ExitCode=");
        int a = 0, b = 0;
        if (state && code && sscanf(code, " ExitCode=%d:%d", &a, &b) == 2 &&
            strncmp(state + 9, "PENDING", 7) && strncmp(state + 9, "RUNNING", 7) &&
            strncmp(state + 9, "CONFIGURING", 11) && strncmp(state + 9, "COMPLETING", 10))
            return b ? 128 + b : a;
        nap_ms(250);
    }
    snprintf(cmd, sizeof cmd, "timeout 10 scancel %ld", id);
    so_slurm_sh(s, cmd);
    return -1;
}

static int write_conf(so_slurm *s)
{
    char host[256] = "";
    if (gethostname(host, sizeof host) != 0)
        return fail(s, "gethostname: %s", strerror(errno));
    host[strcspn(host, ".")] = '\0'; /* slurmctld compares the short name */
    int ctld = free_port(), port[SO_SLURM_NODES];
    for (int i = 0; i < SO_SLURM_NODES; i++)
        port[i] = free_port();
    if (ctld < 0 || port[0] < 0)
        return fail(s, "no free TCP port on 127.0.0.1");
    FILE *fp = fopen(s->conf, "w");
    if (!fp)
        return fail(s, "cannot write %s: %s", s->conf, strerror(errno));
    fprintf(fp,
            "# a private single-host cluster (tests/tools/slurm_local.c)\n"
            "ClusterName=slotopttest\n"
            "SlurmctldHost=%s(127.0.0.1)\n"
            "SlurmctldPort=%d\n"
            "SlurmdPort=%d\n"
            "AuthType=auth/none\nCredType=cred/none\n"
            "SlurmUser=root\nSlurmdUser=root\n"
            "StateSaveLocation=%s/state\n"
            "SlurmdSpoolDir=%s/spool/%%n\n"
            "SlurmctldPidFile=%s/slurmctld.pid\n"
            "SlurmdPidFile=%s/slurmd-%%n.pid\n"
            "SlurmctldLogFile=%s/log/slurmctld.log\n"
            "SlurmdLogFile=%s/log/slurmd-%%n.log\n"
            "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
            "JobAcctGatherType=jobacct_gather/none\n"
            "AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n"
            "SchedulerType=sched/builtin\n"
            "SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n"
            "MpiDefault=none\nReturnToService=2\nKillWait=5\nInactiveLimit=0\n"
            "MailProg=/bin/true\n",
            host, ctld, port[0], s->dir, s->dir, s->dir, s->dir, s->dir, s->dir);
    for (int i = 0; i < SO_SLURM_NODES; i++)
        fprintf(fp, "NodeName=n%d NodeHostname=%s NodeAddr=127.0.0.1 Port=%d CPUs=%d"
                " State=UNKNOWN\n", i + 1, host, port[i], SO_SLURM_CPUS);
    fprintf(fp, "PartitionName=test Nodes=n[1-%d] Default=YES MaxTime=INFINITE State=UP\n",
            SO_SLURM_NODES);
    return fclose(fp) == 0 ? 0 : fail(s, "cannot write %s", s->conf);
}

int so_slurm_start(so_slurm *s)
{
    memset(s, 0, sizeof *s);
    stop_stale();
    const char *need[] = {"slurmctld", "slurmd", "sbatch", "sinfo", "mpirun"};
    for (size_t i = 0; i < sizeof need / sizeof *need; i++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", need[i]);
        if (system(cmd) != 0)
            return fail(s, "%s not found: install slurm-wlm and openmpi-bin (make deps"
                        " as root)", need[i]);
    }
    if (geteuid() != 0)
        return fail(s, "a private Slurm needs root here (slurmd runs jobs as their user)");
    snprintf(s->dir, sizeof s->dir, "%s/slotopt-slurm-XXXXXX", tmp_base());
    if (!mkdtemp(s->dir))
        return fail(s, "mkdtemp %s: %s", s->dir, strerror(errno));
    snprintf(s->conf, sizeof s->conf, "%s/slurm.conf", s->dir);
    char note[600];
    note_path(note, sizeof note);
    FILE *fp = fopen(note, "w");
    if (fp) {
        fprintf(fp, "%s %ld\n", s->dir, (long)getpid());
        fclose(fp);
    }
    const char *sub[] = {"state", "spool", "log"};
    for (int i = 0; i < 3; i++) {
        char p[700];
        snprintf(p, sizeof p, "%s/%s", s->dir, sub[i]);
        if (mkdir(p, 0755) != 0)
            return fail(s, "mkdir %s: %s", p, strerror(errno));
    }
    if (write_conf(s))
        return -1;
    char cmd[800];
    snprintf(cmd, sizeof cmd, "slurmctld -f '%s' </dev/null >/dev/null 2>&1", s->conf);
    if (so_slurm_sh(s, cmd) != 0)
        return fail(s, "slurmctld did not start");
    for (int i = 1; i <= SO_SLURM_NODES; i++) {
        snprintf(cmd, sizeof cmd, "slurmd -f '%s' -N n%d </dev/null >/dev/null 2>&1", s->conf, i);
        if (so_slurm_sh(s, cmd) != 0)
            return fail(s, "slurmd -N n%d did not start", i);
    }
    /* every node idle within 30 s */
    char out[700];
    snprintf(out, sizeof out, "%s/sinfo.txt", s->dir);
    snprintf(cmd, sizeof cmd, "timeout 10 sinfo -h -N -o %%T >'%s' 2>&1", out);
    for (int t = 0; t < 300; t++) {
        so_slurm_sh(s, cmd);
        FILE *f = fopen(out, "r");
        int idle = 0;
        char line[128];
        while (f && fgets(line, sizeof line, f))
            idle += strncmp(line, "idle", 4) == 0;
        if (f)
            fclose(f);
        if (idle == SO_SLURM_NODES)
            return 0;
        nap_ms(100);
    }
    return fail(s, "the %d nodes were not idle within 30 s (sinfo in %s)", SO_SLURM_NODES, out);
}

int so_slurm_stop(so_slurm *s)
{
    if (!s->dir[0])
        return 0;
    int left = stop_dir(s->dir);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->dir);
    if (!left && system(cmd) != 0)
        fprintf(stderr, "\n  [slurm: cannot remove %s] ", s->dir);
    char note[600];
    note_path(note, sizeof note);
    if (!left)
        unlink(note);
    s->dir[0] = '\0';
    return left;
}

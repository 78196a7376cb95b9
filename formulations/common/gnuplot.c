/* gnuplot.c — the shared opening of slotopt's gnuplot scripts (gnuplot.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>
#include "formulations/common/gnuplot.h"

const char *so_gp_terminal(const char *path)
{
    const char *ext = path ? strrchr(path, '.') : NULL;
    if (!ext || strchr(ext, '/'))
        return NULL;
    if (!strcasecmp(ext, ".png"))
        return "pngcairo";
    if (!strcasecmp(ext, ".svg"))
        return "svg";
    if (!strcasecmp(ext, ".pdf"))
        return "pdfcairo";
    return NULL;
}

int so_gp_check_path(const char *path, so_error *err)
{
    if (!so_gp_terminal(path))
        return so_error_setf(err, path, 0, 0, NULL,
                             "a plot file name must end in .png, .svg or .pdf "
                             "(the extension picks the file type)");
    if (strchr(path, '\'') || strchr(path, '\n'))
        return so_error_setf(err, path, 0, 0, NULL,
                             "a plot path may not contain quotes or newlines");
    return SO_OK;
}

void so_gp_put_quoted(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("''", fp);
        else
            fputc((unsigned char)*s < ' ' ? ' ' : *s, fp);
    }
}

void so_gp_header(FILE *fp, const char *ext_path, const char *output, int width,
                  int height, const char *title)
{
    const char *term = so_gp_terminal(ext_path);
    if (!term)
        term = "svg";
    if (!strcmp(term, "pdfcairo"))
        fprintf(fp, "set terminal pdfcairo size %.2fin,%.2fin noenhanced font ',9'\n",
                width / 100.0, height / 100.0);
    else if (!strcmp(term, "pngcairo"))
        fprintf(fp, "set terminal pngcairo size %d,%d noenhanced font ',10'\n", width,
                height);
    else
        fprintf(fp, "set terminal svg size %d,%d dynamic noenhanced\n", width, height);
    fputs("set termoption noenhanced\nset output '", fp);
    so_gp_put_quoted(fp, output);
    fputs("'\nset title '", fp);
    so_gp_put_quoted(fp, title);
    fputs("'\n", fp);
}

/* Okabe and Ito's palette (black last: the grid is grey). */
static const char *const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#000000", "#999933"};
/* open circle, square, triangle, inverted triangle, diamond; +, x, star */
static const int points[] = {6, 4, 8, 10, 12, 1, 2, 3};

const char *so_gp_colour(int k)
{
    return colours[(k < 0 ? 0 : k) % 8];
}

void so_gp_style(FILE *fp, int k)
{
    if (k < 0)
        k = 0;
    fprintf(fp, " lc rgb '%s' dt %d pt %d", so_gp_colour(k), k % 5 + 1, points[k % 8]);
}

void so_gp_padded(double lo, double hi, int log, double *plo, double *phi)
{
    if (log && lo > 0) {
        *plo = lo / 1.15;
        *phi = hi * 1.15;
        return;
    }
    double pad = hi > lo ? 0.04 * (hi - lo) : lo != 0 ? 0.04 * fabs(lo) : 1;
    *plo = lo - pad;
    *phi = hi + pad;
}

void so_gp_range(FILE *fp, const char *axis, double lo, double hi, int log)
{
    if (!isfinite(lo) || !isfinite(hi))
        return;
    double a, b;
    so_gp_padded(lo, hi, log, &a, &b);
    fprintf(fp, "set %srange [%.9g:%.9g]\n", axis, a, b);
}

void so_gp_key(FILE *fp, size_t n, size_t longest)
{
    fputs(n <= 10 && longest <= 24 ? "set key outside right top\n"
                                   : "set key below maxrows 4\n",
          fp);
}

void so_gp_label(FILE *fp, const char *axis, const char *text)
{
    fprintf(fp, "set %slabel '", axis);
    so_gp_put_quoted(fp, text);
    fputs("'\n", fp);
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-12 || fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

int so_gp_same(const double *ax, const double *ay, size_t na, const double *bx,
               const double *by, size_t nb)
{
    if (na != nb || !na)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (!close_to(ax[i], bx[i]) || !close_to(ay[i], by[i]))
            return 0;
    return 1;
}

const char *so_gp_program(void)
{
    const char *g = getenv("SLOTOPT_GNUPLOT");
    return g && *g ? g : "gnuplot";
}

int so_gp_available(void)
{
    const char *prog = so_gp_program();
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog);
        if (n && access(buf, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* The child: into dir, stdout to /dev/null, stderr to the pipe, exec. */
static void run_child(const char *dir, const char *script, int errfd)
{
    int null = open("/dev/null", O_WRONLY);
    if ((dir && chdir(dir)) || null < 0 || dup2(null, STDOUT_FILENO) < 0 ||
        dup2(errfd, STDERR_FILENO) < 0)
        _exit(126);
    const char *prog = so_gp_program();
    execlp(prog, prog, script, (char *)NULL);
    dprintf(STDERR_FILENO, "cannot run %s: %s", prog, strerror(errno));
    _exit(127);
}

int so_gp_run(const char *dir, const char *script, const char *label, so_error *err)
{
    int fds[2];
    if (pipe(fds)) {
        so_error_setf(err, label, 0, 0, NULL, "pipe: %s", strerror(errno));
        return SO_EIO;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        so_error_setf(err, label, 0, 0, NULL, "fork: %s", strerror(errno));
        return SO_EIO;
    }
    if (pid == 0) {
        close(fds[0]);
        run_child(dir, script, fds[1]);
    }
    close(fds[1]);
    char msg[512] = "";
    size_t got = 0;
    for (;;) { /* read it all (a full pipe would block gnuplot), keep the start */
        char chunk[1024];
        ssize_t k = read(fds[0], chunk, sizeof chunk);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        size_t take = (size_t)k < sizeof msg - 1 - got ? (size_t)k : sizeof msg - 1 - got;
        memcpy(msg + got, chunk, take);
        got += take;
    }
    msg[got] = '\0';
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return SO_OK;
    /* the first non-empty line of what gnuplot said */
    char *line = msg + strspn(msg, " \t\r\n");
    line[strcspn(line, "\r\n")] = '\0';
    if (WIFSIGNALED(status))
        so_error_setf(err, label, 0, 0, NULL, "%s was killed by signal %d", so_gp_program(),
                      WTERMSIG(status));
    else
        so_error_setf(err, label, 0, 0, NULL, "%s failed on %s (exit %d)%s%s", so_gp_program(),
                      script, WEXITSTATUS(status), line[0] ? ": " : "", line);
    return SO_EIO;
}

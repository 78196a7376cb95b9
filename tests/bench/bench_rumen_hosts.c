/* bench_rumen_hosts.c — reading a Rumen trace that names many hosts
 * (issue 26: the host count was a linear search per attempt, quadratic in
 * the distinct names: 24.6 s for 80,000). Generated traces of 10,000 to
 * 80,000 hosts (tests/cluster/rumen_hosts_trace.h), best of 3 reads. */
#include <stdlib.h>
#include "tests/bench/bench.h"
#include "cluster/cluster.h"
#include "tests/cluster/rumen_hosts_trace.h"

typedef struct parse {
    const char *text;
    size_t len;
    int nodes;
} parse;

static void parse_once(void *arg)
{
    parse *p = arg;
    so_cl_workload *w = NULL;
    so_error err;
    p->nodes = so_cl_workload_parse(p->text, p->len, "hosts.rumen.json", NULL, 1, &w, &err)
                   ? -1
                   : w->n_nodes;
    so_cl_workload_free(w);
}

static void bench_rumen_hosts(FILE *out)
{
    fprintf(out, "## Rumen traces naming many hosts\n\n"
                 "    make bench BENCHES=rumen-hosts\n\n"
                 "One job per host, two attempts each (every host named twice);"
                 " seconds to read the trace (best of 3).\n\n"
                 "| hosts | trace MB | nodes | seconds | us per host |\n"
                 "|---:|---:|---:|---:|---:|\n");
    const int sizes[] = {10000, 20000, 40000, 80000};
    for (int i = 0; i < 4; i++) {
        parse p = {NULL, 0, 0};
        char *text = so_test_rumen_hosts_trace(sizes[i], &p.len);
        if (!text)
            return;
        p.text = text;
        double t = so_bench_time(parse_once, &p, 3);
        fprintf(out, "| %d | %.1f | %d | %.3f | %.2f |\n", sizes[i], (double)p.len / 1e6,
                p.nodes, t, 1e6 * t / sizes[i]);
        free(text);
    }
}
SO_BENCH("rumen-hosts", bench_rumen_hosts)

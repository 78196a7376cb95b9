/* rumen_hosts_trace.h — a generated Rumen trace naming many hosts, for the
 * host-counting test (suite cluster-rumen) and its benchmark (make bench
 * BENCHES=rumen-hosts): `hosts` jobs of one map each whose failed attempt
 * ran on host i and whose successful one on host (i + 1) mod hosts, so
 * every host is named twice and the trace names exactly `hosts` hosts
 * (about 260 bytes a job: 80,000 hosts make a 20.7 MB trace). Caller frees. */
#ifndef SO_TEST_RUMEN_HOSTS_TRACE_H
#define SO_TEST_RUMEN_HOSTS_TRACE_H
#include <stdio.h>
#include <stdlib.h>

static char *so_test_rumen_hosts_trace(int hosts, size_t *len)
{
    char *text = NULL;
    FILE *fp = open_memstream(&text, len);
    if (!fp)
        return NULL;
    for (int i = 0; i < hosts; i++)
        fprintf(fp,
                "{\"jobID\": \"job_%d\", \"submitTime\": %d, \"mapTasks\": [{\"attempts\": ["
                "{\"hostName\": \"/rack-%d/host-%06d\", \"result\": \"FAILED\","
                " \"startTime\": 0, \"finishTime\": 1},"
                " {\"hostName\": \"/rack-%d/host-%06d\", \"result\": \"SUCCESS\","
                " \"startTime\": 1, \"finishTime\": 1001}]}]}\n",
                i, i, i % 40, i, (i + 1) % hosts % 40, (i + 1) % hosts);
    if (fclose(fp)) {
        free(text);
        return NULL;
    }
    return text;
}

#endif

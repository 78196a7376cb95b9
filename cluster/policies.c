/* policies.c — the tables of schedulers and speculation plug-ins. Adding a
 * policy = one new file + one row here (a FLEX scheduler: cluster/
 * sched_flex.c, an allocation layer feeding the fair scheduler's
 * assignment layer, deficit_index.h). */
#include <string.h>
#include "cluster/cluster.h"

extern const so_cl_scheduler so_cl_sched_fifo, so_cl_sched_fair;
extern const so_cl_scheduler so_cl_sched_flex; /* flex */
extern const so_cl_scheduler so_cl_sched_ras; /* ras online */
extern const so_cl_scheduler so_cl_sched_wpbs; /* wpbs */
extern const so_cl_scheduler so_cl_sched_priority; /* offline-opt's orders */
extern const so_cl_speculation so_cl_spec_hadoop, so_cl_spec_late;
extern const so_cl_speculation so_cl_spec_base, so_cl_spec_base_hadoop;

static const so_cl_scheduler *const schedulers[] = {
    &so_cl_sched_fifo,
    &so_cl_sched_fair,
    /* flex */
    &so_cl_sched_flex,
    /* ras online */
    &so_cl_sched_ras,
    /* wpbs */
    &so_cl_sched_wpbs,
    /* offline-opt's orders */
    &so_cl_sched_priority,
};

static const so_cl_speculation *const speculations[] = {
    &so_cl_spec_hadoop,
    &so_cl_spec_late,
    &so_cl_spec_base,
    &so_cl_spec_base_hadoop,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

size_t so_cl_scheduler_count(void) { return COUNT(schedulers); }

const so_cl_scheduler *so_cl_scheduler_at(size_t i)
{
    return i < COUNT(schedulers) ? schedulers[i] : NULL;
}

const char *const *so_cl_scheduler_names(void)
{
    static const char *names[COUNT(schedulers) + 1];
    if (!names[0])
        for (size_t i = 0; i < COUNT(schedulers); i++)
            names[i] = schedulers[i]->name;
    return names;
}

const so_cl_scheduler *so_cl_scheduler_find(const char *name)
{
    for (size_t i = 0; i < COUNT(schedulers); i++)
        if (!strcmp(schedulers[i]->name, name))
            return schedulers[i];
    return NULL;
}

size_t so_cl_speculation_count(void) { return COUNT(speculations); }

const so_cl_speculation *so_cl_speculation_at(size_t i)
{
    return i < COUNT(speculations) ? speculations[i] : NULL;
}

const so_cl_speculation *so_cl_speculation_find(const char *name)
{
    for (size_t i = 0; i < COUNT(speculations); i++)
        if (!strcmp(speculations[i]->name, name))
            return speculations[i];
    return NULL;
}

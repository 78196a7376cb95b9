/* fair_old.h — the pre-issue-16 fair scheduler, a reference for tests. */
#ifndef SO_TEST_FAIR_OLD_H
#define SO_TEST_FAIR_OLD_H
#include "cluster/fair_share.h"
extern const so_cl_scheduler so_test_fair_old;
#endif

/* hadoop_rules.h — Hadoop's own documented rules for the three scheduler
 * files slotopt writes (tests/tools/hadoop_rules.c), applied to a file's
 * text parsed back with libxml2: the tests run it on every golden file of
 * tests/corpus/hadoop/ and on random exports. */
#ifndef SO_TEST_HADOOP_RULES_H
#define SO_TEST_HADOOP_RULES_H
#include <stddef.h>

/* 0 when text, a file of format SO_HC_FAIR | SO_HC_YARN_FAIR |
 * SO_HC_CAPACITY (tools/export/hadoop_conf.h), keeps every rule; else 1 with the
 * first broken rule in why (cap bytes). */
int so_test_hadoop_check(const char *text, int format, char *why, size_t cap);

#endif

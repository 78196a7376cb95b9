/* test_flex_schedule.c — the schedule reader under fuzzing: mutated valid
 * schedules give SO_OK, SO_EINVAL (with a message) or SO_EIO (not JSON),
 * never a crash (run under ASan by make check-asan). */
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tests/flex_test_util.h"

static void test_fuzz(void)
{
    static const char valid[] =
        "{\"intervals\": [{\"start\": 0, \"end\": 4, \"slots\": [4, 4, 2]},\n"
        " {\"start\": 4, \"end\": 5.5, \"slots\": [4, 4, 0]}]}";
    static const char alphabet[] = "{}[]\":,0123456789.-e startendslo";
    so_rng rng;
    so_rng_seed(&rng, 8);
    size_t len = strlen(valid);
    char *text = malloc(len + 16);
    int ok = 0, bad = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(text, valid, len + 1);
        for (int e = (int)so_rng_int(&rng, 1, 3); e > 0; e--) {
            size_t at = (size_t)so_rng_int(&rng, 0, (int64_t)strlen(text) - 1);
            if (so_rng_int(&rng, 0, 1))
                text[at] = alphabet[so_rng_int(&rng, 0, sizeof alphabet - 2)];
            else
                memmove(text + at, text + at + 1, strlen(text + at));
        }
        so_flex_schedule *s = NULL;
        so_error err;
        int rc = so_test_read_schedule(text, 3, &s, &err);
        CU_ASSERT(rc == SO_OK || rc == SO_EINVAL || rc == SO_EIO);
        if (rc == SO_OK) {
            ok++;
            CU_ASSERT_PTR_NOT_NULL(s);
        } else if (rc == SO_EINVAL) {
            bad++;
            CU_ASSERT(err.message[0] != '\0');
        }
        so_flex_schedule_free(s);
    }
    CU_ASSERT(ok > 0 && bad > 0);
    free(text);
}

static CU_TestInfo tests[] = {
    {"fuzzed schedules: SO_OK, SO_EINVAL or SO_EIO", test_fuzz},
    CU_TEST_INFO_NULL,
};
SO_SUITE("flex-schedule", tests)

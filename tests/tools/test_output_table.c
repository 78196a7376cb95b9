/* test_output_table.c — the one table writer (tools/output/table.c): each
 * format's exact text for a table with a quote, a comma, a line break, a
 * pipe, a missing value, an infinity, a shown text and a JSON-only column. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tests/test_util.h"
#include "tools/output/table.h"

static char *written(const so_table *t, int format, int compact)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    so_table_write(fp, t, format, compact);
    fclose(fp);
    return buf;
}

static so_table *sample(void)
{
    static const so_tcol cols[] = {{"name", SO_COL_TEXT, NULL},
                                   {"n", SO_COL_INT, NULL},
                                   {"ratio", SO_COL_REAL, "%.2f"},
                                   {"note", SO_COL_TEXT, NULL}};
    so_table *t = so_table_with(cols, 4);
    so_table_column(t, "long", "long_key", SO_COL_TEXT, NULL);
    so_table_json_only(t, 4);
    so_table_row(t);
    so_table_text(t, 0, "a,\"b\"");
    so_table_int(t, 1, 12);
    so_table_real(t, 2, 1.0 / 3);
    so_table_text(t, 3, "x|y");
    so_table_text(t, 4, "only in JSON");
    so_table_row(t);
    so_table_text(t, 0, "line\nbreak");
    so_table_real(t, 2, INFINITY); /* n missing, note missing */
    so_table_row(t);
    so_table_text(t, 0, "c");
    so_table_int(t, 1, -3);
    so_table_real(t, 2, 180);
    so_table_shown(t, 2, "3 min");
    return t;
}

static void test_formats(void)
{
    so_table *t = sample();
    char *s = written(t, SO_OF_CSV, 0);
    CU_ASSERT_STRING_EQUAL(s, "name,n,ratio,note\n"
                              "\"a,\"\"b\"\"\",12,0.33333333333333331,x|y\n"
                              "\"line\nbreak\",,inf,\n"
                              "c,-3,180,\n");
    free(s);
    s = written(t, SO_OF_MARKDOWN, 0);
    CU_ASSERT_STRING_EQUAL(s, "| name | n | ratio | note |\n"
                              "|---|---:|---:|---|\n"
                              "| a,\"b\" | 12 | 0.33 | x\\|y |\n"
                              "| line break | - | inf | - |\n"
                              "| c | -3 | 3 min | - |\n");
    free(s);
    so_table_row(t); /* a fourth row without the line break */
    so_table_text(t, 0, "dd");
    s = written(t, SO_OF_TABLE, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "name         n  ratio  note\n"
                                     "----------  --  -----  ----\n"
                                     "a,\"b\"       12   0.33  x|y\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\nline break   -    inf  -\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\nc           -3  3 min  -\n"
                                     "dd           -      -  -\n"));
    free(s);
    s = written(t, SO_OF_JSON, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "[{\"name\":\"a,\\\"b\\\"\",\"n\":12,\"ratio\":0.33333333333333331,"
                                     "\"note\":\"x|y\",\"long_key\":\"only in JSON\"},"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"n\":null,\"ratio\":\"inf\",\"note\":null"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\"ratio\":180.0,")); /* the value, not the shown text */
    free(s);
    so_table_free(t);
}

static void test_keep_and_from_json(void)
{
    so_table *t = sample();
    so_table_keep(t, 1u << 0 | 1u << 2); /* name, ratio */
    CU_ASSERT_EQUAL(so_table_cols(t), 2);
    CU_ASSERT_EQUAL(so_table_rows(t), 3);
    char *s = written(t, SO_OF_CSV, 0);
    CU_ASSERT_PTR_NOT_NULL(s && !strncmp(s, "name,ratio\n\"a,\"\"b\"\"\",0.33333333333333331\n", 41));
    free(s);
    so_table_free(t);
    json_t *rows = json_loads("[{\"a\": 1, \"b\": \"x\", \"c\": {\"nested\": 1}},"
                              " {\"b\": \"y\", \"d\": 2.5, \"e\": true}]", 0, NULL);
    t = so_table_from_json(rows);
    s = written(t, SO_OF_CSV, 0);
    CU_ASSERT_STRING_EQUAL(s, "a,b,d,e\n1,x,,\n,y,2.5,true\n");
    free(s);
    so_table_free(t);
    json_decref(rows);
}

static CU_TestInfo tests[] = {
    {"table, csv, markdown and json of one table", test_formats},
    {"columns kept, a table of JSON objects", test_keep_and_from_json},
    CU_TEST_INFO_NULL,
};
SO_SUITE("output-table", tests)

/* solve_knapsack.c — a program against the installed libslotopt.
 *
 *   cc solve_knapsack.c $(pkg-config --cflags --libs slotopt) -o solve_knapsack
 *   ./solve_knapsack            # prints "optimal 11" (status, objective)
 *
 * Builds a three-item knapsack from JSON text, solves it with the problem
 * kind's default backend and prints the status and the objective. */
#include <stdio.h>
#include <slotopt.h>

int main(void)
{
    const char *text =
        "{\"problem\": \"knapsack\", \"version\": 1, \"capacity\": 5,"
        " \"profits\": [6, 5, 4], \"weights\": [3, 2, 2]}";
    so_problem *p = NULL;
    so_result *r = NULL;
    so_error err;
    if (so_problem_parse(text, "example", &p, &err) != SO_OK) {
        char buf[512];
        fprintf(stderr, "%s\n", so_error_format(&err, buf, sizeof buf));
        return 1;
    }
    int rc = so_solve(so_backend_default("knapsack"), p, NULL, &r, &err);
    if (rc < 0) {
        char buf[512];
        fprintf(stderr, "%s\n", so_error_format(&err, buf, sizeof buf));
        so_problem_free(p);
        return 1;
    }
    printf("%s %.0f\n", so_status_str(so_result_status(r)),
           so_result_objective(r));
    so_result_free(r);
    so_problem_free(p);
    return 0;
}

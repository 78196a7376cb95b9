/* cli_specs.c — every command's option table (cli_opts.h), for the test
 * that each parser and its --help agree. */
#include "tools/cli/cli_opts.h"


const so_cli_spec *const so_cli_specs[] = {
    &so_solve_spec,
    &so_backends_spec,
    &so_families_spec,
    &so_gen_spec,
    &so_export_spec,
    &so_flex_compare_spec,
    &so_flex_check_spec,
    &so_frontier_spec,
    &so_bench_spec,
    &so_report_spec,
    &so_scenarios_spec,
    &so_tour_spec,
    &so_sim_spec,
    &so_execute_spec,
    NULL,
};

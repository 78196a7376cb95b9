#!/bin/sh
# Writes a help2man include file for slotopt(1): SYNOPSIS from every
# subcommand's usage lines, one COMMANDS subsection per subcommand (its own
# --help text, so the page documents every option), ENVIRONMENT, EXAMPLES
# and SEE ALSO.
# Usage: man-commands.sh PROGRAM > commands.h2m
set -e
prog="$1"
# roff: a leading dot or quote would be read as a request; backslashes are
# escapes.
roff() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
commands=$("$prog" --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')

printf '[SYNOPSIS]\n.nf\n'
for cmd in $commands; do
    # the usage lines: "usage: slotopt CMD ..." and its continuation lines,
    # up to the first blank line
    "$prog" "$cmd" --help 2>&1 |
        sed -n -e '1{/^usage:/!q;}' -e '/^$/q' -e 's/^usage: //' -e 's/^       //' -e p | roff
done
printf '.fi\n'

printf '[COMMANDS]\n'
for cmd in $commands; do
    printf '.SS "slotopt %s"\n.nf\n' "$cmd"
    "$prog" "$cmd" --help 2>&1 | roff
    printf '.fi\n'
done

cat <<'ROFF'
[ENVIRONMENT]
.TP
.B SLOTOPT_SCENARIOS
A folder searched first for \fBbench \-\-scenario\fR NAME (NAME.json), before
instances/scenarios/ and the scenarios installed beside the program.
.TP
.B SLOTOPT_MAX_INPUT_MB
The largest input file read, in MiB (default 256); a larger one is refused
with its name.
.TP
.B SLOTOPT_MAX_MEMORY_MB
The memory a simulation may be estimated to need before it starts, in MiB
(default 4096; \fBsim \-\-opt max_memory_mb\fR overrides it); a larger
workload is refused naming the key that asks for it.
.TP
.B SLOTOPT_MPI_GRACE
Seconds \fBbench \-\-mpirun\fR waits after rank 0's summary (or after rank 0
died) before it ends an MPI job that does not exit by itself (default 10).
.TP
.B SLOTOPT_GNUPLOT
The gnuplot program run for plots (default: gnuplot on the PATH).
.TP
.B TMPDIR
Where temporary files are made (default /tmp).
.TP
.B PATH
Where gnuplot and, for \fBbench \-\-mpi\fR, the MPI launcher are found.
[EXAMPLES]
.nf
slotopt gen knapsack \-\-count 3 \-\-seed 1 \-\-set n=1000 \-\-out \- | slotopt solve \-
slotopt solve \-\-backend kp\-bnb \-\-time\-limit 5 instances/knapsack/pisinger/knapPI_3_500_1000_1.kp
slotopt solve \-\-backend flex\-opt /tmp/flex/flex\-paper\-1\-0.json
slotopt frontier instances/pareto/yahoo\-10.json \-\-plot /tmp/front.png
slotopt export \-\-format capacity\-scheduler instances/pareto/puma\-sort.json
slotopt sim instances/traces/swim/FB\-2009_samples_24_times_1hr_0.tsv \-\-scheduler fair \-\-format table
slotopt bench \-\-scenario knapsack \-\-db results.db && slotopt report \-\-db results.db
mpirun \-np 4 slotopt bench \-\-mpi \-\-scenario knapsack
.fi
[SEE ALSO]
The documentation installed in share/doc/slotopt (README.md, docs/*.md):
formats.md (files), harness.md (bench and report), cluster.md (sim).
ROFF

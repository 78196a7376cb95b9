#!/bin/sh
# Writes a help2man include file with one section per subcommand, each the
# command's own --help text, so that slotopt(1) documents every option.
# Usage: man-commands.sh PROGRAM > commands.h2m
set -e
prog="$1"
printf '[COMMANDS]\n'
"$prog" --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p' | while read -r cmd; do
    printf '.SS "slotopt %s"\n.nf\n' "$cmd"
    # roff: a leading dot or quote would be read as a request; backslashes
    # are escapes.
    "$prog" "$cmd" --help 2>&1 | sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
    printf '.fi\n'
done

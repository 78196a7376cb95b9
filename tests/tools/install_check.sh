#!/bin/sh
# install_check.sh PREFIX BUILD BINDIR SANITIZE — installs slotopt under
# PREFIX, builds docs/examples/solve_knapsack.c against it through
# pkg-config (shared, then static), runs both, then uninstalls and checks
# that nothing is left. Prints the first failure and exits non-zero.
set -eu
prefix="$1" build="$2" bindir="$3" sanitize="${4:-}"
unset MAKEFLAGS MAKELEVEL MFLAGS
make -s --no-print-directory install PREFIX="$prefix" BUILD="$build" BINDIR="$bindir" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg-config --exists slotopt || { echo "pkg-config cannot find slotopt"; exit 1; }
[ "$(pkg-config --modversion slotopt)" = "$("$prefix/bin/slotopt" --version | cut -d' ' -f2)" ] ||
    { echo "pkg-config version differs from slotopt --version"; exit 1; }
[ -s "$prefix/share/man/man1/slotopt.1" ] || { echo "no manual page"; exit 1; }
[ -e "$prefix/lib/$(objdump -p "$prefix/lib/libslotopt.so" | sed -n 's/ *SONAME *//p')" ] ||
    { echo "the soname link is missing"; exit 1; }
ex="$prefix/share/doc/slotopt/examples/solve_knapsack.c"
# shellcheck disable=SC2046,SC2086
cc $sanitize -o "$prefix/ex-shared" "$ex" $(pkg-config --cflags --libs slotopt)
# the library links no MPI (nor the program's SQLite and libxml2)
if pkg-config --cflags --libs slotopt | grep -qi mpi; then
    echo "pkg-config slotopt names MPI: $(pkg-config --cflags --libs slotopt)"; exit 1
fi
linked=$(LD_LIBRARY_PATH="$prefix/lib" ldd "$prefix/ex-shared" | grep -i -E 'mpi|sqlite|xml2' || true)
[ -z "$linked" ] || { echo "a program linked with libslotopt loads: $linked"; exit 1; }
out=$(LD_LIBRARY_PATH="$prefix/lib" "$prefix/ex-shared")
[ "$out" = "optimal 11" ] || { echo "shared example printed '$out'"; exit 1; }
# shellcheck disable=SC2046,SC2086
cc $sanitize -o "$prefix/ex-static" "$ex" $(pkg-config --cflags slotopt) \
    "$prefix/lib/libslotopt.a" $(pkg-config --static --libs slotopt | sed 's/-lslotopt//')
out=$("$prefix/ex-static")
[ "$out" = "optimal 11" ] || { echo "static example printed '$out'"; exit 1; }
rm -f "$prefix/ex-shared" "$prefix/ex-static"
make -s --no-print-directory uninstall PREFIX="$prefix" BUILD="$build" BINDIR="$bindir" >/dev/null
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || { echo "left after uninstall: $left"; exit 1; }

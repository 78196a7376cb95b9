# slotopt — build, dependencies, tests, benchmarks, install.
# `make run` and `make test` install missing Debian packages first (deps).

PREFIX  ?= /usr/local
BUILD   ?= build
BINDIR  ?= bin
OPT     ?= -O2 -g
SANITIZE ?=

DEB_PKGS = gcc make pkg-config libglpk-dev libnlopt-dev libopenblas-dev \
           liblapacke-dev libcunit1-dev libjansson-dev libsqlite3-dev gnuplot-nox \
           help2man libxml2-dev libopenmpi-dev openmpi-bin \
           slurmctld slurmd slurm-client
# The core library (libslotopt) needs LIB_PC; the program's rooms in tools/
# (harness: SQLite and MPI; exporters: libxml2) need PROG_PC too.
LIB_PC   = jansson nlopt lapacke
PROG_PC  = sqlite3 libxml-2.0
PC_PKGS  = $(LIB_PC) $(PROG_PC)

# Recursive (=): pkg-config is only asked once the packages are installed.
PKG_CFLAGS = $(shell pkg-config --cflags $(PC_PKGS) 2>/dev/null)
LIB_LIBS   = $(shell pkg-config --libs $(LIB_PC) 2>/dev/null) -lglpk -lopenblas -lm
PKG_LIBS   = $(shell pkg-config --libs $(PC_PKGS) 2>/dev/null) -lglpk -lopenblas -lm
# -fPIC: the same objects make the static and the shared library.
CFLAGS  = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $(OPT) $(SANITIZE) -fPIC \
          -Iinclude -I. $(PKG_CFLAGS) -MMD -MP
LDFLAGS += $(SANITIZE)

# libslotopt: the core (formulations, solvers, heuristics, cluster); the
# program adds the rooms of tools/ (cli, harness, export, output).
LIB_SRC   := $(sort $(shell find formulations solvers heuristics cluster -name '*.c' 2>/dev/null))
TOOLS_SRC := $(sort $(shell find tools -name '*.c' ! -path 'tools/cli/main.c' 2>/dev/null))
# MPI (`slotopt bench --mpi`) when Open MPI's pkg-config file is there;
# without it tools/harness/harness_mpi_none.c says the build has no MPI.
HAVE_MPI := $(shell pkg-config --exists ompi-c 2>/dev/null && echo yes)
ifeq ($(HAVE_MPI),yes)
PROG_PC  += ompi-c
TOOLS_SRC := $(filter-out tools/harness/harness_mpi_none.c,$(TOOLS_SRC))
else
TOOLS_SRC := $(filter-out tools/harness/harness_mpi.c,$(TOOLS_SRC))
endif
PROG_SRC  := tools/cli/main.c $(TOOLS_SRC)
TEST_SRC  := $(sort $(shell find tests -name '*.c' ! -path 'tests/bench/*'))
# tests/bench/*.c, and the private Slurm of the tests (bench_slurm.c)
BENCH_SRC := $(sort $(wildcard tests/bench/*.c)) tests/tools/slurm_local.c

VERSION := $(shell sed -n 's/^\#define SO_VERSION "\(.*\)"/\1/p' include/slotopt.h)
SOMAJOR  = $(firstword $(subst ., ,$(VERSION)))
LIB   = $(BUILD)/libslotopt.a
SOLIB = $(BUILD)/libslotopt.so.$(VERSION)
SONAME = libslotopt.so.$(SOMAJOR)
PROG  = $(BINDIR)/slotopt
MAN   = $(BUILD)/slotopt.1
TESTS = $(BUILD)/slotopt-tests
BENCH = $(BUILD)/slotopt-bench

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

.PHONY: all deps print-deps run test test-run check-asan bench install uninstall clean docs-plots
all: $(LIB) $(SOLIB) $(PROG)

# The Debian packages the build, tests and tools need (README lists them).
print-deps:
	@echo $(DEB_PKGS)

deps:
	@missing=""; \
	for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing Debian packages; run:"; \
	    echo "  sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(call obj,$(LIB_SRC))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SOLIB): $(call obj,$(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LIB_LIBS)

# The manual page, from the program's own help texts (help2man).
$(MAN): $(PROG) tools/cli/man-commands.sh
	sh tools/cli/man-commands.sh $(PROG) > $(BUILD)/man-commands.h2m
	help2man --no-info --version-string=$(VERSION) \
	  --name='MapReduce slot-scheduling models, exact and heuristic backends' \
	  --include=$(BUILD)/man-commands.h2m -o $@ $(PROG)

$(PROG): $(call obj,$(PROG_SRC)) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(call obj,$(PROG_SRC)) $(LIB) $(PKG_LIBS)

$(TESTS): CFLAGS += -DSO_BINARY='"$(PROG)"' $(shell pkg-config --cflags cunit 2>/dev/null) \
  -DSO_BUILD_DIR='"$(BUILD)"' -DSO_BIN_DIR='"$(BINDIR)"' -DSO_SANITIZE='"$(SANITIZE)"'
$(TESTS): CFLAGS += -DSO_HAVE_MPI=$(if $(HAVE_MPI),1,0)
$(TESTS): $(SOLIB) $(MAN)
$(TESTS): $(call obj,$(TEST_SRC) $(TOOLS_SRC)) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(call obj,$(TEST_SRC) $(TOOLS_SRC)) $(LIB) $(PKG_LIBS) -lcunit

$(BENCH): CFLAGS += -DSO_BINARY='"$(PROG)"'
$(BENCH): $(call obj,$(BENCH_SRC) $(TOOLS_SRC)) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(call obj,$(BENCH_SRC) $(TOOLS_SRC)) $(LIB) $(PKG_LIBS)

# The main job: the tour of the papers' experiments (slotopt tour); the
# build uses 2 jobs unless make was given -j.
run: deps
	@$(MAKE) --no-print-directory $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j2) all
	./$(PROG) tour --db $(BUILD)/tour.db

# The test runner and the program build in parallel (2 jobs unless make was
# given -j), then the suites run.
test: deps
	@$(MAKE) --no-print-directory $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j2) \
	  $(PROG) $(TESTS)
	@$(MAKE) --no-print-directory test-run

test-run: $(PROG) $(TESTS)
	./$(TESTS) $(SUITES)

ASAN_VARS = BUILD=build-asan BINDIR=build-asan/bin OPT='-O1 -g' \
  SANITIZE='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all'
check-asan: deps
	@$(MAKE) --no-print-directory $(ASAN_VARS) \
	  $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j2) \
	  build-asan/bin/slotopt build-asan/slotopt-tests
	@$(MAKE) --no-print-directory $(ASAN_VARS) test-run

bench: deps
	@$(MAKE) --no-print-directory $(BENCH) $(PROG)
	./$(BENCH) $(BENCHES)

# The plot gallery (docs/gallery.md): small PNGs in docs/img/gallery/
docs-plots: $(PROG)
	sh tools/scripts/docs_plots.sh ./$(PROG) docs/img/gallery

# Header, libraries (static, shared with its soname links), pkg-config
# file, binary, manual page, docs, and the shipped instances and scenarios
# (PREFIX/share/slotopt/instances, where `slotopt bench --scenario` finds
# them). `make uninstall` removes exactly these.
LIBDIR  ?= $(PREFIX)/lib
DOCDIR  ?= $(PREFIX)/share/doc/slotopt
MANDIR  ?= $(PREFIX)/share/man/man1
PCDIR   ?= $(LIBDIR)/pkgconfig
install: all $(MAN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR) \
	  $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(MANDIR) $(DESTDIR)$(DOCDIR)
	install -m 755 $(PROG) $(DESTDIR)$(PREFIX)/bin/slotopt
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libslotopt.a
	install -m 755 $(SOLIB) $(DESTDIR)$(LIBDIR)/libslotopt.so.$(VERSION)
	ln -sf libslotopt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libslotopt.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	  -e 's|@VERSION@|$(VERSION)|' -e 's|@REQUIRES_PRIVATE@|$(filter-out jansson,$(LIB_PC))|' \
	  -e 's|@LIBS_PRIVATE@|-lglpk -lopenblas -lm|' \
	  tools/slotopt.pc.in > $(DESTDIR)$(PCDIR)/slotopt.pc
	install -m 644 include/slotopt.h $(DESTDIR)$(PREFIX)/include/slotopt.h
	install -m 644 $(MAN) $(DESTDIR)$(MANDIR)/slotopt.1
	install -m 644 README.md LICENSE docs/*.md $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(DOCDIR)/examples
	install -m 644 docs/examples/*.c tools/scripts/slurm-sweep.sbatch $(DESTDIR)$(DOCDIR)/examples/
	install -d $(DESTDIR)$(PREFIX)/share/slotopt
	cp -R instances $(DESTDIR)$(PREFIX)/share/slotopt/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/slotopt $(DESTDIR)$(LIBDIR)/libslotopt.a \
	  $(DESTDIR)$(LIBDIR)/libslotopt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	  $(DESTDIR)$(LIBDIR)/libslotopt.so $(DESTDIR)$(PCDIR)/slotopt.pc \
	  $(DESTDIR)$(PREFIX)/include/slotopt.h $(DESTDIR)$(MANDIR)/slotopt.1
	rm -rf $(DESTDIR)$(DOCDIR) $(DESTDIR)$(PREFIX)/share/slotopt

clean:
	rm -rf build build-asan bin

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

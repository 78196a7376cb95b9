# slotopt — build, dependencies, tests, benchmarks, install.
# `make run` and `make test` install missing Debian packages first (deps).

PREFIX  ?= /usr/local
BUILD   ?= build
BINDIR  ?= bin
OPT     ?= -O2 -g
SANITIZE ?=

DEB_PKGS = gcc make pkg-config libglpk-dev libnlopt-dev libopenblas-dev \
           liblapacke-dev libcunit1-dev libjansson-dev libsqlite3-dev gnuplot-nox
PC_PKGS  = jansson sqlite3 nlopt lapacke

# Recursive (=): pkg-config is only asked once the packages are installed.
PKG_CFLAGS = $(shell pkg-config --cflags $(PC_PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PC_PKGS) 2>/dev/null) -lglpk -lopenblas -lm
CFLAGS  = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $(OPT) $(SANITIZE) \
          -Iinclude -I. $(PKG_CFLAGS) -MMD -MP
LDFLAGS += $(SANITIZE)

LIB_SRC   := $(sort $(shell find formulations solvers heuristics cluster tools -name '*.c' \
               ! -path 'tools/main.c' ! -path 'tools/cmd_*.c' 2>/dev/null))
PROG_SRC  := tools/main.c $(sort $(wildcard tools/cmd_*.c))
TEST_SRC  := $(sort $(shell find tests -name '*.c' ! -path 'tests/bench/*'))
BENCH_SRC := $(sort $(wildcard tests/bench/*.c))

LIB   = $(BUILD)/libslotopt.a
PROG  = $(BINDIR)/slotopt
TESTS = $(BUILD)/slotopt-tests
BENCH = $(BUILD)/slotopt-bench

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

.PHONY: all deps run test test-run check-asan bench install clean
all: $(LIB) $(PROG)

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

$(PROG): $(call obj,$(PROG_SRC)) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(call obj,$(PROG_SRC)) $(LIB) $(PKG_LIBS)

$(TESTS): CFLAGS += -DSO_BINARY='"$(PROG)"' $(shell pkg-config --cflags cunit 2>/dev/null)
$(TESTS): $(call obj,$(TEST_SRC)) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(call obj,$(TEST_SRC)) $(LIB) $(PKG_LIBS) -lcunit

$(BENCH): $(call obj,$(BENCH_SRC)) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(call obj,$(BENCH_SRC)) $(LIB) $(PKG_LIBS)

# The main job on the shipped default instances.
run: deps
	@$(MAKE) --no-print-directory all
	./$(PROG) bench --scenario default --db $(BUILD)/default.db

test: deps
	@$(MAKE) --no-print-directory test-run

test-run: $(PROG) $(TESTS)
	./$(TESTS) $(SUITES)

check-asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan BINDIR=build-asan/bin OPT='-O1 -g' \
	  SANITIZE='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
	  test-run

bench: deps
	@$(MAKE) --no-print-directory $(BENCH) $(PROG)
	./$(BENCH) $(BENCHES)

# Header, library, binary, and the shipped instances and scenarios
# (PREFIX/share/slotopt/instances, where `slotopt bench --scenario` finds them).
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 $(PROG) $(DESTDIR)$(PREFIX)/bin/slotopt
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libslotopt.a
	install -m 644 include/slotopt.h $(DESTDIR)$(PREFIX)/include/slotopt.h
	install -d $(DESTDIR)$(PREFIX)/share/slotopt
	cp -R instances $(DESTDIR)$(PREFIX)/share/slotopt/

clean:
	rm -rf build build-asan bin

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

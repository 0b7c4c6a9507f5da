# rcssserver (shared-memory edition) -- top-level build.
#   make            build every program into $(BUILD)/bin
#   make test       install missing Debian packages, then unit + e2e tests, normal and sanitizer builds
#   make run        install missing packages, build, start a server with a demo match
#                   (SYNCH=1: synch mode; PORT=6000, HTTP_PORT=PORT+80, LOG_DIR=logs)
#   make bench      print timing figures (scripts/bench*)
#   make fuzz       build libFuzzer targets and run each briefly (FUZZ_SECONDS)
#   make fuzz-long  10 million executions of each fuzz target (nightly; FUZZ_RUNS)
#   make conformance  the differential conformance suite (REF=path/to/rcssserver: against
#                   the reference; without REF: this server twice, a determinism check)
#   make install    PREFIX=/usr/local DESTDIR= (UNITDIR, GENDIR, SYSUSERSDIR, DOCDIR: below)
#   make deb        the Debian package (conf/debian/) in $(BUILD)/deb/
#   make deb-check  build, install, run, purge the package (scripts/check-deb.sh; root)
# Variables: BUILD=dir (default build), SAN=1 (ASan+UBSan), CC.

BUILD   ?= build
PREFIX  ?= /usr/local
DESTDIR ?=
# where `make install` puts the systemd units, the generator, the sysusers file, the
# README and the manual page (the Debian package: /lib/systemd/system,
# /lib/systemd/system-generators, /usr/lib/sysusers.d, /usr/share/doc/rcssserver,
# /usr/share/man)
UNITDIR     ?= $(PREFIX)/lib/systemd/system
GENDIR      ?= $(PREFIX)/lib/systemd/system-generators
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
DOCDIR      ?= $(PREFIX)/share/doc/rcssserver
MANDIR      ?= $(PREFIX)/share/man
UNIT_SED     = sed -e 's|/usr/local/bin/|$(PREFIX)/bin/|g' \
                   -e 's|/usr/local/lib/systemd/system/|$(UNITDIR)/|g' \
                   -e 's|/usr/local/share/doc/rcssserver/|$(DOCDIR)/|g'
# gcc unless CC is given (make's own default, cc, does not count as given)
ifeq ($(origin CC),default)
CC      := gcc
endif
FUZZ_SECONDS ?= 20

PKGS     := libevent libevent_pthreads jansson zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -pthread -MMD -MP \
           -Icommon -Ishm $(PKG_CFLAGS)
LDLIBS  += $(PKG_LIBS) -lrt -lm -pthread

ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

COMMON_SRC := $(wildcard common/*.c)
SHM_SRC    := $(wildcard shm/*.c)
# the rcssserver process in layers (sim/README.md): sim/ the process, sim/referee/ the
# referee, sim/world/ the world and its physics (sim/3d/ is the 3D server, below)
SIM_DIRS   := sim sim/referee sim/world
SIM_SRC    := $(filter-out sim/sim_main.c, $(foreach d,$(SIM_DIRS),$(wildcard $(d)/*.c)))
SIM_INC    := $(addprefix -I,$(SIM_DIRS))
# netgw/: the process (main, init port, cycle, player sessions) over its layers (coach:
# the coach side, player: the player protocol, clang: the coach language, conn: the
# client connections); netgw/3d is the 3D server's own gateway (below)
NGW_DIRS   := coach player clang conn
NETGW_SRC  := $(filter-out netgw/netgw_main.c, \
                $(wildcard netgw/*.c $(foreach d,$(NGW_DIRS),netgw/$(d)/*.c)))
NGW_INC    := -Inetgw $(addprefix -Inetgw/,$(NGW_DIRS))
# monitorgw/: one folder per program (gateway, recorder, logplayer) over the shared
# layers (proto: the monitor encoders, rcg: the game log both ways, web: the page and its
# event stream); one library of everything but the mains, each program links what it uses
MGW_DIRS   := gateway proto rcg recorder logplayer web
MGW_MAINS  := monitorgw/gateway/mgw_main.c monitorgw/recorder/rec_main.c \
              monitorgw/logplayer/lp_main.c
MGW_SRC    := $(filter-out $(MGW_MAINS), $(foreach d,$(MGW_DIRS),$(wildcard monitorgw/$(d)/*.c)))
MGW_INC    := $(addprefix -Imonitorgw/,$(MGW_DIRS))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

LIBCOMMON := $(BUILD)/lib/libcommon.a
LIBSHM    := $(BUILD)/lib/libshm.a
LIBSIM    := $(BUILD)/lib/libsim.a
LIBNETGW  := $(BUILD)/lib/libnetgw.a
LIBMGW    := $(BUILD)/lib/libmgw.a

# a gateway program is built once its main() exists (the tree grows issue by issue)
PROGS := $(BUILD)/bin/rcssserver $(if $(wildcard netgw/netgw_main.c),$(BUILD)/bin/rcss-netgw) \
         $(if $(wildcard monitorgw/gateway/mgw_main.c),$(BUILD)/bin/rcss-monitorgw) \
         $(if $(wildcard monitorgw/recorder/rec_main.c),$(BUILD)/bin/rcss-recorder) \
         $(if $(wildcard monitorgw/logplayer/lp_main.c),$(BUILD)/bin/rcss-logplayer)
HAVE_ALL_PROGS := $(and $(wildcard netgw/netgw_main.c),$(wildcard monitorgw/gateway/mgw_main.c))
# the C programs beside the shell scripts: clients (scripts/clients/: the sample client,
# the 3D sample agent, the demo team) and benchmark tools (scripts/bench/)
TOOL_SRC := $(wildcard scripts/clients/*.c scripts/bench/*.c)
TOOLS := $(addprefix $(BUILD)/bin/,$(basename $(notdir $(TOOL_SRC))))
# the demo team: scripts/clients/demoteam/, a library (its unit tests link it) and dt_main.c
DEMO_SRC := $(filter-out scripts/clients/demoteam/dt_main.c, $(wildcard scripts/clients/demoteam/*.c))
LIBDEMO  := $(BUILD)/lib/libdemoteam.a
TOOLS    += $(if $(DEMO_SRC),$(BUILD)/bin/rcss-demoteam)
# the tournament runner: scripts/tournament/, a library (its unit tests link it) and tn_main.c
TN_SRC   := $(filter-out scripts/tournament/tn_main.c, $(wildcard scripts/tournament/*.c))
LIBTN    := $(BUILD)/lib/libtournament.a
TOOLS    += $(if $(TN_SRC),$(BUILD)/bin/rcss-tournament)

# the 3D server (issue 15): sim/3d, netgw/3d (agents), monitorgw/3d (monitors, log
# player); its rules are in the 3D block below
SIM3D_SRC  := $(filter-out sim/3d/s3d_main.c, $(wildcard sim/3d/*.c))
AGW3D_SRC  := $(filter-out netgw/3d/agw3d_main.c, $(wildcard netgw/3d/*.c))
MGW3D_SRC  := $(filter-out monitorgw/3d/mgw3d_main.c monitorgw/3d/mgw3d_replay_main.c, \
                $(wildcard monitorgw/3d/*.c))
LIBSIM3D   := $(BUILD)/lib/libsim3d.a
LIBAGW3D   := $(BUILD)/lib/libagw3d.a
LIBMGW3D   := $(BUILD)/lib/libmgw3d.a
PROGS3D    := $(BUILD)/bin/rcssserver3d $(BUILD)/bin/rcss3d-agentgw \
              $(BUILD)/bin/rcss3d-monitorgw $(BUILD)/bin/rcss3d-logplayer
PROGS      += $(PROGS3D)

# unit tests: one binary per test/<dir>/ ; e2e: one binary for test/e2e
UNIT_DIRS := $(filter-out e2e fuzz conformance,$(notdir $(wildcard test/*)))
UNIT_BINS := $(foreach d,$(UNIT_DIRS),$(if $(wildcard test/$(d)/test_*.c),$(BUILD)/test/unit_$(d)))
# the conformance tool (test/conformance/cf_*.c, its own rules below) has unit tests too
UNIT_BINS += $(BUILD)/test/unit_conformance
E2E_BIN   := $(BUILD)/test/e2e
E2E_SRC   := $(wildcard test/e2e/*.c)

.PHONY: all test unit e2e conformance conf-check deb deb-check layers run bench fuzz fuzz-run fuzz-long fuzz-long-run install clean deps common shm sim netgw monitorgw recorder logplayer tools

all: $(PROGS) $(TOOLS)

common: $(LIBCOMMON)
shm: $(LIBSHM)
sim: $(BUILD)/bin/rcssserver
netgw: $(BUILD)/bin/rcss-netgw
monitorgw: $(BUILD)/bin/rcss-monitorgw
recorder: $(BUILD)/bin/rcss-recorder
logplayer: $(BUILD)/bin/rcss-logplayer
tools: $(TOOLS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIBCOMMON): $(call obj,$(COMMON_SRC))
$(LIBSHM): $(call obj,$(SHM_SRC))
$(LIBSIM): $(call obj,$(SIM_SRC))
$(LIBNETGW): $(call obj,$(NETGW_SRC))
# the netgw folders include each other's headers (calls go downwards only: netgw/README.md)
$(call obj,$(NETGW_SRC) netgw/netgw_main.c): CFLAGS += $(NGW_INC)
$(LIBMGW): $(call obj,$(MGW_SRC))
# the browser page is assembled into mgw_page.o (.incbin)
$(BUILD)/obj/monitorgw/web/mgw_page.o: monitorgw/web/mgw_page.html
# the monitorgw folders include each other's headers (downwards only: docs/ARCHITECTURE.md)
$(BUILD)/obj/monitorgw/%.o: CFLAGS += $(MGW_INC)
$(LIBDEMO): $(call obj,$(DEMO_SRC))
$(LIBTN): $(call obj,$(TN_SRC))
$(BUILD)/lib/%.a:
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/bin/rcssserver: $(call obj,sim/sim_main.c) $(LIBSIM) $(LIBSHM) $(LIBCOMMON)
$(BUILD)/bin/rcss-netgw: $(call obj,netgw/netgw_main.c) $(LIBNETGW) $(LIBSHM) $(LIBCOMMON)
$(BUILD)/bin/rcss-monitorgw: $(call obj,monitorgw/gateway/mgw_main.c) $(LIBMGW) $(LIBSHM) $(LIBCOMMON)
$(BUILD)/bin/rcss-recorder: $(call obj,monitorgw/recorder/rec_main.c) $(LIBMGW) $(LIBSHM) $(LIBCOMMON)
$(BUILD)/bin/rcss-logplayer: $(call obj,monitorgw/logplayer/lp_main.c) $(LIBMGW) $(LIBSHM) $(LIBCOMMON)
$(BUILD)/bin/rcss-demoteam: $(call obj,scripts/clients/demoteam/dt_main.c) $(LIBDEMO) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/bin/rcss-tournament: $(call obj,scripts/tournament/tn_main.c) $(LIBTN)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/bin/%: $(BUILD)/obj/scripts/clients/%.o $(LIBSHM) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/bin/%: $(BUILD)/obj/scripts/bench/%.o $(LIBSHM) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(PROGS):
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the sim's layers include each other's headers
$(BUILD)/obj/sim/sim_%.o $(BUILD)/obj/sim/referee/%.o $(BUILD)/obj/sim/world/%.o: \
    CFLAGS += $(SIM_INC)
# tests may include their module's private headers
$(BUILD)/obj/test/netgw/%.o: CFLAGS += $(NGW_INC)
$(BUILD)/obj/test/monitorgw/%.o: CFLAGS += $(MGW_INC)
$(BUILD)/obj/test/sim/%.o: CFLAGS += $(SIM_INC)
$(BUILD)/obj/test/e2e/%.o: CFLAGS += $(MGW_INC)
$(BUILD)/obj/test/demoteam/%.o: CFLAGS += -Iscripts/clients/demoteam
$(BUILD)/obj/test/tournament/%.o: CFLAGS += -Iscripts/tournament
$(BUILD)/obj/test/fuzz/%.o: CFLAGS += $(NGW_INC) $(MGW_INC) $(SIM_INC)

# a unit test binary links its directory's library (if any) plus shm and common
testlib = $(if $(filter sim,$(1)),$(LIBSIM),$(if $(filter netgw,$(1)),$(LIBNETGW),$(if $(filter monitorgw,$(1)),$(LIBMGW),$(if $(filter demoteam,$(1)),$(LIBDEMO),$(if $(filter tournament,$(1)),$(LIBTN))))))
.SECONDEXPANSION:
# keep test objects (they are intermediate files of the pattern rules)
.SECONDARY:
$(BUILD)/test/unit_%: $$(call obj,$$(wildcard test/$$*/*.c)) $$(call testlib,$$*) $(LIBSHM) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcriterion

$(E2E_BIN): $(call obj,$(E2E_SRC)) $(LIBMGW) $(LIBSHM) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcriterion

# the differential conformance suite (docs/conformance.md): rcss-conform is a test tool,
# built from test/conformance/cf_*.c alone (no code shared with the server it checks)
CONF_SRC  := $(filter-out test/conformance/cf_main.c,$(wildcard test/conformance/cf_*.c))
LIBCONF   := $(BUILD)/lib/libconform.a
CONFORM   := $(BUILD)/test/rcss-conform
$(LIBCONF): $(call obj,$(CONF_SRC))
$(CONFORM): $(call obj,test/conformance/cf_main.c) $(LIBCONF)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/test/unit_conformance: $(call obj,$(wildcard test/conformance/test_*.c)) $(LIBCONF)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcriterion

# REF=path/to/rcssserver: every scenario against this server and REF; without REF each
# runs twice against this server. CONFORM_ARGS passes more (--only NAME, --keep DIR, -v).
CONF_PROGS := $(addprefix $(BUILD)/bin/,rcssserver rcss-netgw rcss-monitorgw rcss-recorder)
conformance: $(CONF_PROGS) $(CONFORM) $(BUILD)/test/unit_conformance
	@$(BUILD)/test/unit_conformance --jobs 2
	@$(CONFORM) --ours $(abspath $(BUILD)/bin/rcssserver) $(if $(REF),--ref $(abspath $(REF))) \
	    --scenarios test/conformance/scenarios --deviations test/conformance/deviations \
	    $(CONFORM_ARGS)

deps:
	@scripts/install-deps.sh

unit: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t --jobs 2; done

ifneq ($(HAVE_ALL_PROGS),)
e2e: $(PROGS) $(TOOLS) $(E2E_BIN)
	@echo "== $(E2E_BIN)"; RCSS_BIN_DIR=$(abspath $(BUILD)/bin) $(E2E_BIN) --jobs 1
else
e2e:
	@echo "e2e: skipped, the gateway programs are not in the tree yet"
endif

# The README's test command: deps, the unit-file and install checks, the Debian package
# from build to purge (deb-check, about a minute), then the normal build's tests and the conformance
# suite's determinism run (every scenario twice against this server), then the tests
# under ASan+UBSan in a separate build directory.
test: deps
	$(MAKE) conf-check
	$(MAKE) deb-check
	$(MAKE) -j2 all
	$(MAKE) unit e2e
	$(MAKE) conformance
	$(MAKE) -j2 BUILD=$(BUILD)-san SAN=1 all
	$(MAKE) BUILD=$(BUILD)-san SAN=1 unit e2e

conf-check: all
	@scripts/check-units.sh $(BUILD)/bin
	@scripts/check-install.sh $(BUILD)
	@scripts/check-layers.sh $(BUILD)

# the call graph between source files: no loop across a folder, none of over 3 files
layers: all
	@scripts/check-layers.sh $(BUILD)

run: deps
	$(MAKE) -j2 all
	SYNCH='$(SYNCH)' PORT='$(PORT)' scripts/demo.sh $(BUILD)/bin

# REF=path/to/rcssserver: the same loads against that server, and the ratios
bench: deps
	$(MAKE) all
	REF='$(REF)' scripts/bench-synch.sh $(BUILD)/bin
	REF='$(REF)' scripts/bench-clock.sh $(BUILD)/bin
	STALLS=0 NMON=1000 VIEWERS=8000 scripts/bench-clock.sh $(BUILD)/bin
	STALLS=0 NMON=1000 VIEWERS=10000 REF='$(REF)' scripts/bench-clock.sh $(BUILD)/bin
	scripts/bench-monitors.sh $(BUILD)/bin
	scripts/bench-viewers.sh $(BUILD)/bin

# libFuzzer targets: the libraries are rebuilt with clang and fuzzer instrumentation in
# $(BUILD)-fuzz; each test/fuzz/fuzz_*.c links against them (only what it uses is pulled).
FUZZ_SRC  := $(wildcard test/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst test/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRC))
ifeq ($(FUZZ),1)
CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
endif

fuzz: deps
	$(MAKE) BUILD=$(BUILD)-fuzz CC=clang FUZZ=1 fuzz-run

# nightly style, not in CI: FUZZ_RUNS executions of every target, the figures in
# $(BUILD)-fuzz/fuzz-long.md (docs/fuzzing.md holds the last run's); FUZZ_TARGETS="fuzz_conf
# fuzz_rcg" runs only those
FUZZ_RUNS ?= 10000000
FUZZ_TARGETS ?=
fuzz-long: deps
	$(MAKE) BUILD=$(BUILD)-fuzz CC=clang FUZZ=1 fuzz-long-run

fuzz-long-run: $(FUZZ_BINS)
	scripts/fuzz-long.sh $(BUILD) $(FUZZ_RUNS) $(BUILD)/fuzz-long.md $(FUZZ_TARGETS)

$(BUILD)/fuzz/%: $(BUILD)/obj/test/fuzz/%.o $(LIBNETGW) $(LIBMGW) $(LIBSIM) $(LIBSHM) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)

fuzz-run: $(FUZZ_BINS)
	@set -e; for f in $(FUZZ_BINS); do \
	  n=$$(basename $$f); mkdir -p $(BUILD)/corpus/$$n; \
	  echo "== $$n ($(FUZZ_SECONDS) s)"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=0 \
	    $(BUILD)/corpus/$$n $$( [ -d test/fuzz/seeds ] && echo test/fuzz/seeds ) 2>&1 | tail -n 2; \
	done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/rcssserver/conf
	install -m 755 $(PROGS) $(addprefix $(BUILD)/bin/,rcssclient rcss-demoteam rcss3d-agent rcss-tournament) \
	    $(DESTDIR)$(PREFIX)/bin/
	install -m 644 conf/*.conf conf/systemd/rcssserver.env $(DESTDIR)$(PREFIX)/share/rcssserver/conf/
	install -d $(DESTDIR)$(PREFIX)/share/rcssserver/conf/presets
	install -m 644 conf/presets/*.conf $(DESTDIR)$(PREFIX)/share/rcssserver/conf/presets/
	install -d $(DESTDIR)$(DOCDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 644 README.md $(DESTDIR)$(DOCDIR)/
	@# one manual page for every program installed, the other names linked to it
	install -m 644 docs/rcssserver.1 $(DESTDIR)$(MANDIR)/man1/
	for p in $(filter-out rcssserver,$(notdir $(PROGS))) rcssclient rcss-demoteam rcss3d-agent rcss-tournament; do \
	  ln -sf rcssserver.1 $(DESTDIR)$(MANDIR)/man1/$$p.1; \
	done
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(GENDIR) $(DESTDIR)$(SYSUSERSDIR)
	@# the units and the generator name the programs, the template and the README where
	@# this install puts them
	for u in conf/systemd/*.service conf/systemd/*.target; do \
	  $(UNIT_SED) $$u > $(DESTDIR)$(UNITDIR)/$$(basename $$u); \
	  chmod 644 $(DESTDIR)$(UNITDIR)/$$(basename $$u); \
	done
	$(UNIT_SED) conf/systemd/rcssserver-generator > $(DESTDIR)$(GENDIR)/rcssserver-generator
	chmod 755 $(DESTDIR)$(GENDIR)/rcssserver-generator
	install -m 644 conf/systemd/rcssserver.sysusers $(DESTDIR)$(SYSUSERSDIR)/rcssserver.conf

# The Debian package (conf/debian/, its README): the source is copied to
# $(BUILD)/deb/rcssserver-VERSION with conf/debian as its debian/, and dpkg-buildpackage
# builds the binary package there; the .deb lands in $(BUILD)/deb/.
DEB_VERSION = $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' conf/debian/changelog)
DEB_TREE    = $(BUILD)/deb/rcssserver-$(DEB_VERSION)
deb:
	@command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || \
	  { echo "make deb: needs dpkg-dev and debhelper (make deps installs them)"; exit 1; }
	rm -rf $(DEB_TREE) $(BUILD)/deb/rcssserver_$(DEB_VERSION)_*
	mkdir -p $(DEB_TREE)
	@# the files git knows or would take (tracked, new, not ignored); a tree without git: all
	@# but .git and the build directories
	if git rev-parse --git-dir >/dev/null 2>&1; then \
	  git ls-files -z --cached --others --exclude-standard | grep -zv '^$(BUILD:./%=%)/' | \
	    tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C $(DEB_TREE); \
	else \
	  tar -cf - --exclude=./.git --exclude='./build*' . | tar -xf - -C $(DEB_TREE); \
	fi
	rm -rf $(DEB_TREE)/debian
	cp -r conf/debian $(DEB_TREE)/debian
	cd $(DEB_TREE) && dpkg-buildpackage -us -uc -b $(DEB_BUILD_ARGS)
	@ls $(BUILD)/deb/*.deb

# the package built, linted, installed, run as its units run, reinstalled, purged
deb-check:
	@scripts/check-deb.sh $(BUILD)

# ---- the 3D server ---------------------------------------------------------------------
.PHONY: run3d
$(LIBSIM3D): $(call obj,$(SIM3D_SRC))
$(LIBAGW3D): $(call obj,$(AGW3D_SRC))
$(LIBMGW3D): $(call obj,$(MGW3D_SRC))
# the browser view's page is assembled into mgw3d_page.o (.incbin)
$(BUILD)/obj/monitorgw/3d/mgw3d_page.o: monitorgw/3d/mgw3d_page.html
$(BUILD)/bin/rcssserver3d: $(call obj,sim/3d/s3d_main.c) $(LIBSIM3D) $(LIBSHM) $(LIBCOMMON)
$(BUILD)/bin/rcss3d-agentgw: $(call obj,netgw/3d/agw3d_main.c) $(LIBAGW3D) $(LIBSHM) $(LIBCOMMON)
$(BUILD)/bin/rcss3d-monitorgw: $(call obj,monitorgw/3d/mgw3d_main.c) $(LIBMGW3D) $(LIBSHM) $(LIBCOMMON)
$(BUILD)/bin/rcss3d-logplayer: $(call obj,monitorgw/3d/mgw3d_replay_main.c) $(LIBMGW3D) $(LIBSHM) $(LIBCOMMON)
# the 3D unit tests (test/3d) link the three 3D libraries
$(BUILD)/obj/test/3d/%.o: CFLAGS += -Isim/3d -Inetgw/3d -Imonitorgw/3d
$(BUILD)/test/unit_3d: $(call obj,$(wildcard test/3d/*.c)) $(LIBSIM3D) $(LIBAGW3D) $(LIBMGW3D) \
                       $(LIBSHM) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) -lcriterion
# fuzz targets of the 3D parsers (test/fuzz/fuzz_3d_*.c) link the 3D gateway libraries
$(BUILD)/obj/test/fuzz/fuzz_3d_%.o: CFLAGS += -Inetgw/3d -Imonitorgw/3d
$(BUILD)/fuzz/fuzz_3d_%: $(BUILD)/obj/test/fuzz/fuzz_3d_%.o $(LIBAGW3D) $(LIBMGW3D) $(LIBSHM) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)
# the 3D server with two teams of sample agents it starts itself (pipe mode);
# extra server arguments: RUN3D_ARGS="soccer::RuleHalfTime=60 ..."
run3d: deps
	$(MAKE) all
	scripts/run3d.sh $(BUILD)/bin

clean:
	rm -rf $(BUILD) $(BUILD)-san $(BUILD)-fuzz

# (not the package's build tree under $(BUILD)/deb, which has a build of its own)
-include $(shell find $(BUILD) -path '$(BUILD)/deb' -prune -o -name '*.d' -type f -print 2>/dev/null)

# Static keys, rebuilt as a patch series on Debian's linux-source-6.1 and
# linux-source-6.12 (configs/tree/: TREE=6.12).
# Every target is one script of scripts/; 'make help' lists them, from the
# '##' lines below (the README's table of targets is the same text).

# ARCH=arm64 (on the command line): the variants are arm64's four
# (arm64-series, arm64-distro, arm64-off, arm64-series-off) instead of
# x86-64's four and arm64-series; ARCH=x86_64: x86-64's four alone.  It is
# the harness's, not kbuild's: the scripts give kbuild each variant's own.
HARNESS_ARCH := $(if $(filter command line,$(origin ARCH)),$(ARCH))
override MAKEOVERRIDES := $(filter-out ARCH=%,$(MAKEOVERRIDES))
unexport ARCH
export HARNESS_ARCH

##@ variables (on the command line: make check VARIANTS=series,distro)
## CACHE_DIR  where trees, builds and logs go, never in the repository (default ~/.cache/static-keys)
## TREE       the kernel tree, a row of configs/tree/: 6.1 or 6.12 (default: the one Debian's linux-source installs here, else 6.1)
## VARIANT    the kernel of make run, build, boot, clean-tree: series, distro, off, series-off, debug, defconfig-series, defconfig-distro, arm64-... (arm64-defconfig-series, ...) (default series)
## ARCH       arm64: arm64's four kernels; x86_64: x86-64's four; unset: those and arm64-series
## VARIANTS   make check: a slice of its kernels, comma-separated, 'host' for the harness's own tests (default: all of ARCH's, and host)
## PREFIXES   make bisect: a range of prefixes, as 3-7 (default: all)
## CONFIGS    make bisect: series (CONFIG_JUMP_LABEL=y), series-off (=n), or both (default)
## BREAKS     make breaks: some of patches/breaks/, comma-separated, or an architecture's control alone (control, control-arm64) (default: all)
## ARCHES     make cross-build: some of configs/cross/, comma-separated (default: all)
## BUDGET     make check-all, proofs-plan: minutes; only rows expected to end within them are started (default: no limit)
## SLICES     make report: the directories of slices to merge (each a CACHE_DIR, or a CI job's results)
## CHECKS     make run (and boot, check): only these guest checks of tests/guest/, comma-separated, in that order, as make run CHECKS=kunit_builtin,module_churn (default: all; a run of some proves no record)
## ACCEL      QEMU accelerator (default: KVM if a probe boot reaches init within PROBE_TIMEOUT seconds, 15, else tcg,thread=single)
## TIMEOUT    seconds one boot may take before it is killed and failed (default 600; a defconfig kernel's: three times that)
## JOBS       make -j of the kernel builds (default: the number of CPUs)
## SMP        vCPUs of a boot (default 4; make bench's timed boots take 1)
## QEMU_ARGS  more QEMU arguments for every x86-64 or arm64 boot, to try a device or option out
## EXTRA_CONFIG  one more config fragment, merged last, to try an option out (a path)
## DEBUG_TIMEOUT  seconds a check-debug boot may take (default 1800)
## BISECT_FRESH  make bisect: y to forget every earlier proof and prove each prefix again from source
## BISECT_PROFILE  make bisect: the checks each prefix boots with: quick (the KUnit suites, sites, keys, a module load and unload: scripts/bisect.sh) or full (every check) (default quick)
## TORTURE_OPS  make torture: flips per writer (default 2000); TORTURE_PASSES: reader passes (10^9); TORTURE_TIMEOUT: seconds (3600)
## BENCH_BOOTS  make bench: timed boots per kernel (default 3); BENCH_REPEAT: runs per boot (5); BENCH_ROUNDS: pipe-test round trips (20000)
## PROGRESS_INTERVAL  seconds between progress lines (default 5 on a terminal, 30 elsewhere); PROGRESS_LINES=y: new lines on a terminal too
## HOST_TEST_TIMEOUT  seconds the harness's own tests may take (default 900)
## BUSYBOX    the guest's static busybox (default: Debian's busybox-static, the architecture's)
## CI_JOBS    make ci-local: some jobs of scripts/ci.py list, comma-separated, all, or local (default: those that fit one machine, ci.py list --local); CI_OUT: where their results go; CI_CACHE: their cache directories (~/.cache/static-keys-ci)
CACHE_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/static-keys
VARIANT   ?= series
ACCEL     ?=
TIMEOUT   ?= 600
JOBS      ?= $(shell nproc)
# The tree, chosen once (lib.sh asks apt-cache; scripts that find TREE
# set do not ask again).
TREE      := $(or $(TREE),$(shell REPO=. sh -c '. scripts/lib.sh && echo "$$TREE"'))
CHECKS    ?=
export CACHE_DIR ACCEL TIMEOUT JOBS TREE CHECKS

# A slice of make check, or of make bisect (scripts/lib.sh, bisect.sh).
comma := ,
CHECK_VARIANTS := $(subst $(comma), ,$(VARIANTS))
BISECT_PREFIXES := $(PREFIXES)
BISECT_VARIANTS := $(addprefix bisect-,$(subst $(comma), ,$(CONFIGS)))
export CHECK_VARIANTS BISECT_PREFIXES BISECT_VARIANTS

S         := scripts
# When this make started, before it installs a package: what a run's time
# is counted from (make and make check record theirs, and how built the
# cache was when they started: scripts/run-state.sh; records.py time).
STARTED   := $(shell date +%s)
# $(shell) runs without the variables this Makefile exports (GNU make
# 4.3): TREE and CACHE_DIR are given to it by hand.
VARIANTS_ALL := $(shell TREE=$(TREE) HARNESS_ARCH=$(HARNESS_ARCH) CHECK_VARIANTS='$(CHECK_VARIANTS)' REPO=. sh -c '. $(S)/lib.sh && echo "$$VARIANTS"')
BENCH_VARIANTS := $(shell TREE=$(TREE) HARNESS_ARCH=$(HARNESS_ARCH) REPO=. sh -c '. $(S)/lib.sh && echo "$$BENCH_VARIANTS"')
# ARCH= other than x86_64: that architecture (its variants are prefixed);
# make bench's results: $(ROOT)/bench for x86-64, bench-ARCH for another
OTHER_ARCH = $(filter-out x86_64,$(HARNESS_ARCH))
BENCH      = bench$(if $(OTHER_ARCH),-$(OTHER_ARCH))
ROOT       = $(shell TREE=$(TREE) CACHE_DIR=$(CACHE_DIR) $(S)/cache-root.sh)
logdirs    = $(foreach v,$(1),$(v)=$(ROOT)/$(v)/logs)
# make check's host tests: unless VARIANTS names a slice without 'host'
HOST_RUN   = $(if $(CHECK_VARIANTS),$(filter host,$(CHECK_VARIANTS)),host)

.PHONY: all help run check check-all proofs-plan check-debug proofs subtests export ci-local check-readme bisect breaks bench bench-readme cover-letter cross-build torture deps tree prepare build boot report host-test \
	clean clean-tree distclean

##@ the two commands
## all        (plain make) tree, series, build and boot the series kernel, print its checks
all: deps
	@mkdir -p $(ROOT) && $(S)/run-state.sh series > $(ROOT)/make.state
	-$(S)/variant.sh series
	$(S)/report.py $(call logdirs,series); rc=$$?; \
		$(S)/records.py time make $$(( $$(date +%s) - $(STARTED) )) $$(cat $(ROOT)/make.state) && exit $$rc

## check      every variant, every check, the harness's own tests; the record is check.json
# The default run's record is check.json (check-readme, cover-letter read
# it); an ARCH= run's is check-ARCH.json, a slice's check-V1+V2.json (make
# report SLICES=... merges slices into check.json).
empty :=
space := $(empty) $(empty)
CHECK = check$(if $(HARNESS_ARCH),-$(HARNESS_ARCH))$(if $(CHECK_VARIANTS),-$(subst $(space),+,$(strip $(CHECK_VARIANTS))))
# Its runs are rows of the tree's proof records (scripts/records.py),
# failed or not.
check: deps
	@mkdir -p $(ROOT) && date +%s > $(ROOT)/$(CHECK).start
	@$(S)/run-state.sh $(VARIANTS_ALL) > $(ROOT)/$(CHECK).state
	-$(S)/check.sh
	@echo $$(( $$(date +%s) - $(STARTED) )) > $(ROOT)/$(CHECK).seconds
	CHECK_SECONDS=$$(cat $(ROOT)/$(CHECK).seconds) $(S)/report.py --json $(ROOT)/$(CHECK).json \
		$(call logdirs,$(VARIANTS_ALL)) $(if $(HOST_RUN),host=$(ROOT)/host/logs:host); \
		rc=$$?; $(S)/records.py add-check $(ROOT)/$(CHECK).json && \
		$(S)/records.py time '$(strip make check $(if $(HARNESS_ARCH),ARCH=$(HARNESS_ARCH)) $(if $(CHECK_VARIANTS),VARIANTS=$(VARIANTS)))' \
			$$(cat $(ROOT)/$(CHECK).seconds) $$(cat $(ROOT)/$(CHECK).state) && exit $$rc

##@ other targets
## help       this list
help:
	@sed -n 's/^##@ \(.*\)/\n\1:/p; s/^## \([^ ]*\)  */  \1\t/p' $(firstword $(MAKEFILE_LIST)) | expand -t 20

## run        one variant (VARIANT=...): build, boot, its checks
run: deps
	-$(S)/variant.sh $(VARIANT)
	$(S)/report.py $(call logdirs,$(VARIANT))

## check-debug  the series with lockdep, UBSAN, debug_pagealloc, lockup detectors, ftrace; every check
# From configs/debug.config; not part of make check, whose time it would
# not fit; ARCH=arm64: arm64-debug.
DEBUG_VARIANT = $(if $(OTHER_ARCH),$(OTHER_ARCH)-)debug
check-debug: deps
	-TIMEOUT=$(DEBUG_TIMEOUT) $(S)/variant.sh $(DEBUG_VARIANT)
	$(S)/report.py --json $(ROOT)/check-$(DEBUG_VARIANT).json $(call logdirs,$(DEBUG_VARIANT)); \
		rc=$$?; $(S)/records.py add-check $(ROOT)/check-$(DEBUG_VARIANT).json && exit $$rc
DEBUG_TIMEOUT ?= 1800

## check-all  every row of every proof of every tree (6.1, 6.12) that is not current and green, a row at a time, each row's record written as it ends; BUDGET=minutes: only rows expected to end within it; resumable: a proven row is not run again
# scripts/check-all.py: the rows in a stated priority (the x86-64 series
# kernels, the breaks, arm64, the other architectures, the defconfig
# kernels, bench, bisect), each by a make command of its own; at the end
# what ran, what was left and how long it would take, and the records
# rendered (make proofs).  Its time is recorded (make check-readme
# publishes it): cold when no row was current at its start, warm when
# every one was.
check-all: deps
	$(S)/check-all.py $(if $(BUDGET),--budget $(BUDGET))

## proofs-plan  what make check-all would run (BUDGET: within it), row by row, each with the time it is expected to take; runs nothing
proofs-plan:
	$(S)/check-all.py --plan $(if $(BUDGET),--budget $(BUDGET))

## proofs     every proof of the tree, current or not, from its records; Documentation/proofs.md and the cover letter written again
proofs: tree
	$(S)/records.py status
	$(S)/records.py render
	$(S)/cover-letter.sh

## subtests   the checks and subtests each kernel of the tree's last make check runs reported (check*.json of the cache) frozen in tests/subtests/TREE/: a later run that does not report one fails
subtests:
	$(S)/report.py --freeze $(wildcard $(ROOT)/check*.json)

## ci-local   the CI matrix's jobs that fit one machine (CI_JOBS: some, comma-separated, or all) run here one after another, each as the workflow runs it, then merged as its last job does (results and summary.md: CI_OUT)
CI_OUT  ?= $(CACHE_DIR)/ci-results
CI_JOBS ?= local
CI_JOB_LIST = $(strip $(if $(filter local,$(CI_JOBS)),$(shell scripts/ci.py list --local | paste -sd, -),\
	$(if $(filter all,$(CI_JOBS)),$(shell scripts/ci.py list | paste -sd, -),$(CI_JOBS))))
ci-local: deps
	@$(if $(filter local,$(CI_JOBS)),echo "make ci-local: the jobs that fit one machine: $(CI_JOB_LIST) (CI_JOBS=all: every job of scripts/ci.py list, days here)",true)
	-for j in $(subst $(comma), ,$(CI_JOB_LIST)); do $(S)/ci.py run $$j $(CI_OUT); done
	rm -f $(CI_OUT)/summary.md
	$(S)/ci.py merge $(CI_OUT) --jobs $(CI_JOB_LIST) --summary $(CI_OUT)/summary.md; rc=$$?; \
		cat $(CI_OUT)/summary.md; exit $$rc

## report     the last make check's table again, from its logs; with SLICES, the slices' check records and bisect ledgers merged into one
report: deps
	$(if $(SLICES),$(S)/merge-slices.sh $(SLICES),$(S)/report.py $(call logdirs,$(VARIANTS_ALL)) $(if $(HOST_RUN),host=$(ROOT)/host/logs:host))

## check-readme  the last make check into README.md and Documentation/check-results.md
check-readme:
	$(S)/check-readme.sh

## bisect     every prefix of the series built, booted and checked, JL=y and =n (PREFIXES, CONFIGS: a slice)
bisect: deps
	$(S)/bisect.sh

## breaks     each deliberate break of patches/breaks/ (BREAKS: some) on the series, booted with the checks that must catch it
breaks: deps
	$(S)/breaks.sh $(subst $(comma), ,$(BREAKS))

## bench      speed and size: series, distro and off side by side, at -O2 and -Os (ARCH=arm64: arm64's)
# The bench kernels are series, distro and off with their architecture's
# bench patches (BENCH_SERIES of configs/arch/) on top; their boots:
# scripts/bench-boot.sh.  Prints, does not assert.
bench: deps
	-for v in $(BENCH_VARIANTS); do $(S)/variant.sh $$v; done
	$(S)/bench-report.py $(ROOT)/$(BENCH) $(foreach v,$(BENCH_VARIANTS),$(v)=$(ROOT)/$(v))

## bench-readme  the last bench's results into Documentation/bench/, its headline into README.md and the letter
bench-readme:
	$(S)/bench-readme.sh $(ROOT)/$(BENCH) $(OTHER_ARCH)
	$(S)/cover-letter.sh

## export     the tree's series as one mbox, the cover letter first, for git am or b4 ($(CACHE_DIR)/VERSION/static-keys-TREE.mbox)
export: tree
	$(S)/mbox.sh

## cover-letter  patches/cover/0000-cover-letter.patch written again
cover-letter: tree
	$(S)/cover-letter.sh

## cross-build  the series' core and backends built for the architectures of configs/cross/, then booted where QEMU can
cross-build: prepare
	DEPS_CROSS=y $(S)/deps.sh
	$(S)/cross-build.sh $(subst $(comma), ,$(ARCHES))

## torture    the torture check alone, ten times longer, on VARIANT's kernel
torture: build
	$(S)/torture.sh $(VARIANT)

## deps       install the Debian packages that are missing
deps:
	$(S)/deps.sh

## tree       unpack linux-source into the cache (once)
tree: deps
	$(S)/tree.sh

## prepare    VARIANT's worktree, with what it applies
prepare: tree
	$(S)/prepare.sh $(VARIANT)

## build      VARIANT's kernel
build: prepare
	$(S)/build.sh $(VARIANT)

## boot       VARIANT's kernel booted, its checks run
boot:
	$(S)/initramfs.sh $(VARIANT)
	$(S)/boot.sh $(VARIANT)

## host-test  the harness's own tests alone
host-test:
	$(S)/host-test.sh
	$(S)/report.py host=$(ROOT)/host/logs:host

## clean      worktrees and builds go; the pristine tree stays (clean-tree: VARIANT's only)
clean clean-tree:
	$(S)/clean.sh $(if $(filter clean-tree,$@),$(VARIANT),$(VARIANTS_ALL) $(BENCH_VARIANTS))

## distclean  the whole cache, the pristine tree too
distclean:
	rm -rf $(CACHE_DIR)

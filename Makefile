# Static keys, rebuilt as a patch series on Debian's linux-source-6.1.
#
#   make              the main job: tree, series, build and boot 'series'
#   make check        every variant, every check, the harness's own tests
#   make check-readme the last make check's table into the README and docs
#   make run VARIANT=distro   one variant (series, distro, off, series-off,
#                     and arm64-series ... arm64-series-off)
#   make check ARCH=arm64     the four arm64 variants
#   make check-debug  the series with lockdep, UBSAN and lockup detectors
#   make bisect       every prefix of the series, built and booted
#   make bench        speed and size: series, distro and off side by side
#   make bench ARCH=arm64     the same for arm64's three
#   make bench-readme the last bench's results into README.md (and the
#                     cover letter); ARCH=arm64: arm64's, into its section
#   make cover-letter patches/cover/0000-cover-letter.patch written again
#   make torture      the torture check alone, ten times longer
#   make cross-build  the series' core and the other architectures'
#                     backends, cross-built (Documentation/cross-build.md)
#
# Each target is one script of scripts/; read it there.

# ARCH=arm64 (on the command line): the variants are arm64's four
# (arm64-series, arm64-distro, arm64-off, arm64-series-off) instead of
# x86-64's four and arm64-series; ARCH=x86_64: x86-64's four alone.  It is
# the harness's, not kbuild's: the scripts give kbuild each variant's own.
HARNESS_ARCH := $(if $(filter command line,$(origin ARCH)),$(ARCH))
override MAKEOVERRIDES := $(filter-out ARCH=%,$(MAKEOVERRIDES))
unexport ARCH
export HARNESS_ARCH

CACHE_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/static-keys
VARIANT   ?= series
ACCEL     ?=
TIMEOUT   ?= 600
JOBS      ?= $(shell nproc)
export CACHE_DIR ACCEL TIMEOUT JOBS

S         := scripts
VARIANTS  := $(shell HARNESS_ARCH=$(HARNESS_ARCH) REPO=. sh -c '. $(S)/lib.sh && echo "$$VARIANTS"')
BENCH_VARIANTS := $(shell HARNESS_ARCH=$(HARNESS_ARCH) REPO=. sh -c '. $(S)/lib.sh && echo "$$BENCH_VARIANTS"')
# ARCH= other than x86_64: that architecture (its variants are prefixed);
# make bench's results: $(ROOT)/bench for x86-64, bench-ARCH for another
OTHER_ARCH = $(filter-out x86_64,$(HARNESS_ARCH))
BENCH      = bench$(if $(OTHER_ARCH),-$(OTHER_ARCH))
ROOT       = $(shell $(S)/cache-root.sh)
logdirs    = $(foreach v,$(1),$(v)=$(ROOT)/$(v)/logs)

.PHONY: all run check check-debug check-readme bisect bench bench-readme cover-letter cross-build torture deps tree prepare build boot report host-test \
	clean clean-tree distclean

all: deps
	-$(S)/variant.sh series
	$(S)/report.py $(call logdirs,series)

# One variant: VARIANT=series|distro|off|series-off.
run: deps
	-$(S)/variant.sh $(VARIANT)
	$(S)/report.py $(call logdirs,$(VARIANT))

# The default run's record is check.json (check-readme, cover-letter read
# it); an ARCH= run's is check-ARCH.json.
CHECK = check$(if $(HARNESS_ARCH),-$(HARNESS_ARCH))
check: deps
	@mkdir -p $(ROOT) && date +%s > $(ROOT)/$(CHECK).start
	-$(S)/check.sh
	@echo $$(( $$(date +%s) - $$(cat $(ROOT)/$(CHECK).start) )) > $(ROOT)/$(CHECK).seconds
	$(S)/report.py --json $(ROOT)/$(CHECK).json \
		$(call logdirs,$(VARIANTS)) host=$(ROOT)/host/logs:host

# The series with the kernel's detectors on (configs/debug.config): every
# check, and a lockdep, UBSAN or lockup report fails the boot.  Apart
# from make check, whose time it would not fit; ARCH=arm64: arm64-debug.
DEBUG_VARIANT = $(if $(OTHER_ARCH),$(OTHER_ARCH)-)debug
check-debug: deps
	-TIMEOUT=$(DEBUG_TIMEOUT) $(S)/variant.sh $(DEBUG_VARIANT)
	$(S)/report.py $(call logdirs,$(DEBUG_VARIANT))
DEBUG_TIMEOUT ?= 1800

# The last make check's table into Documentation/check-results.md and its
# summary into README.md.
check-readme:
	$(S)/check-readme.sh

# Every prefix of the series builds, boots and passes its checks.
bisect: deps
	$(S)/bisect.sh

# Speed and size, as ratios measured side by side in one run; prints, does
# not assert.  The bench kernels are series, distro and off with
# their architecture's bench patches (BENCH_SERIES of configs/arch/) on
# top; their boots: scripts/bench-boot.sh.
bench: deps
	-for v in $(BENCH_VARIANTS); do $(S)/variant.sh $$v; done
	$(S)/bench-report.py $(ROOT)/$(BENCH) $(foreach v,$(BENCH_VARIANTS),$(v)=$(ROOT)/$(v))

bench-readme:
	$(S)/bench-readme.sh $(ROOT)/$(BENCH) $(OTHER_ARCH)
	$(S)/cover-letter.sh

# patches/cover/0000-cover-letter.patch, from Documentation/cover-letter.md, the
# series, the last make check, Documentation/bisect.md and bench results.
cover-letter: tree
	$(S)/cover-letter.sh

# The series' core and the tree's backends built for the architectures of
# configs/cross/ (not booted); writes Documentation/cross-build.md.
cross-build: prepare
	$(S)/cross-build.sh

# Longer than make check's torture, on VARIANT's built kernel.
torture: build
	$(S)/torture.sh $(VARIANT)

deps:
	$(S)/deps.sh

tree: deps
	$(S)/tree.sh

prepare: tree
	$(S)/prepare.sh $(VARIANT)

build: prepare
	$(S)/build.sh $(VARIANT)

boot:
	$(S)/initramfs.sh $(VARIANT)
	$(S)/boot.sh $(VARIANT)

report:
	$(S)/report.py $(call logdirs,$(VARIANTS))

host-test:
	$(S)/host-test.sh
	$(S)/report.py host=$(ROOT)/host/logs:host

# Worktrees and builds go; the pristine tree stays.
clean clean-tree:
	$(S)/clean.sh $(if $(filter clean-tree,$@),$(VARIANT),$(VARIANTS) $(BENCH_VARIANTS))

# Everything in the cache, the pristine tree too.
distclean:
	rm -rf $(CACHE_DIR)

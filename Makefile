# Builds fuel, its man pages, tests and benchmarks; `make check` runs every test.
# One compiler per processor: `make check` builds in half the time.
MAKEFLAGS += -j$(shell nproc)
VERSION = 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man
BASH_COMPLETION_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
BUILD ?= build
# The reference files the tests read: raw files made with the real tools, and the HDF5 files
# Python Fuel wrote from them (tests/data/README.md).
FUEL_FIXTURES ?= $(abspath tests/data)

LIBRARIES = hdf5 libcurl zlib libarchive jansson yaml-0.1 libcrypto libpng libzmq libjpeg expat
# Inflate with ISA-L where pkg-config finds libisal, else with zlib; make INFLATE=zlib forces zlib.
INFLATE ?= $(if $(shell pkg-config --exists libisal && echo found),isal,zlib)
ifeq ($(INFLATE),isal)
LIBRARIES += libisal
INFLATE_FLAGS = -DFUEL_ISAL_VERSION='"$(shell pkg-config --modversion libisal)"'
else
INFLATE_FLAGS = -DFUEL_INFLATE_ZLIB
endif
PKG_CFLAGS := $(shell pkg-config --cflags $(LIBRARIES))
PKG_LIBS := $(shell pkg-config --libs $(LIBRARIES))


# make DIGESTS=off: provenance hashes no input (bench/compare.sh's baseline of its cost only).
ifeq ($(DIGESTS),off)
CPPFLAGS += -DFUEL_BENCH_NO_DIGESTS
endif

CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -pthread -MMD -MP $(SANITIZE)
LDFLAGS += $(SANITIZE)
CPPFLAGS += -I. -DFUEL_VERSION='"$(VERSION)"' $(PKG_CFLAGS) $(INFLATE_FLAGS)
LDLIBS += $(PKG_LIBS) -lhdf5_hl -lpthread -lm

# The commands installed as fuel-NAME: the ones of cmd/commands.def with a summary (the hidden
# ones are named __NAME).
COMMANDS := $(shell sed -n 's/^COMMAND.[a-z_]*, "\([a-z]*\)".*/\1/p' cmd/commands.def)
# Every .c file below FOLDERS, subfolders included.
sources_below = $(foreach folder,$(1),$(wildcard $(folder)/*.c) \
	$(call sources_below,$(patsubst %/,%,$(wildcard $(folder)/*/))))
# The product's folders: every top-level folder holding C files but the tests', the benchmarks' and
# the examples'; all but cmd/ make the library (tests/lint/includes reads the same tree).
PRODUCT_FOLDERS = $(filter-out tests bench examples,$(sort $(foreach file,$(wildcard */*.c */*/*.c),\
	$(firstword $(subst /, ,$(file))))))
LIBRARY_FOLDERS = $(filter-out cmd,$(PRODUCT_FOLDERS))
LIBRARY_SOURCES = $(call sources_below,$(LIBRARY_FOLDERS))
COMMAND_SOURCES = $(call sources_below,cmd)
UNIT_SOURCES = $(wildcard tests/unit/test_*.c)
LIBRARY_OBJECTS = $(LIBRARY_SOURCES:%.c=$(BUILD)/%.o)
COMMAND_OBJECTS = $(COMMAND_SOURCES:%.c=$(BUILD)/%.o)
UNIT_BINARIES = $(UNIT_SOURCES:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_SUPPORT = $(BUILD)/tests/unit/support.o
MAN_PAGES = $(wildcard man/*.1 man/*.5 man/*.7)

.PHONY: all check check-durability check-sanitize check-inflate-zlib fuzz fuzz-binaries unit bench install uninstall clean setup

all: $(BUILD)/fuel $(COMMANDS:%=$(BUILD)/fuel-%)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/libfuel.a: $(LIBRARY_OBJECTS)
	rm -f $@
	$(AR) rcs $@ $^

# The commands' modules but the dispatcher's main, for the unit tests of cmd/'s own modules.
$(BUILD)/libcommands.a: $(filter-out $(BUILD)/cmd/fuel.o,$(COMMAND_OBJECTS))
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/fuel: $(COMMAND_OBJECTS) $(BUILD)/libfuel.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/fuel-%: $(BUILD)/fuel
	ln -sf fuel $@

$(BUILD)/tests/%: tests/unit/%.c $(UNIT_SUPPORT) $(BUILD)/libcommands.a $(BUILD)/libfuel.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(UNIT_SUPPORT) $(BUILD)/libcommands.a \
		$(BUILD)/libfuel.a $(LDLIBS) -lcmocka

# The unit tests of the commands' tables link the commands, all but the dispatcher's main.
COMMAND_TABLE_OBJECTS = $(filter-out $(BUILD)/cmd/fuel.o,$(COMMAND_OBJECTS))
$(BUILD)/tests/test_command_tables: tests/unit/test_command_tables.c $(UNIT_SUPPORT) \
		$(COMMAND_TABLE_OBJECTS) $(BUILD)/libfuel.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(UNIT_SUPPORT) $(COMMAND_TABLE_OBJECTS) \
		$(BUILD)/libfuel.a $(LDLIBS) -lcmocka

unit: $(UNIT_BINARIES)

# The unit tests find the reference files without FUEL_FIXTURES too.
$(UNIT_SUPPORT): CPPFLAGS += -DFUEL_TEST_DATA='"$(FUEL_FIXTURES)"'

# LD_PRELOAD shims for the CLI tests (tests/helpers/X.c -> build/tests/X.so), built without
# sanitizers so they load into any build of fuel.
TEST_SHIMS = $(patsubst tests/helpers/%.c,$(BUILD)/tests/%.so,$(wildcard tests/helpers/*.c))
$(BUILD)/tests/%.so: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -shared -fPIC -o $@ $< -ldl

check: $(TEST_SHIMS)

check: all unit
	BUILD=$(abspath $(BUILD)) bash tests/run

# The exhaustive kill loops (tests/durability/*.bats): every kill point, where make check tries a
# sample of them; on disk (make check's scratch files go to a tmpfs when there is one).
check-durability: all $(TEST_SHIMS)
	BUILD=$(abspath $(BUILD)) FUEL_TEST_TMPDIR=$${TMPDIR:-/tmp} bash tests/run tests/durability/*.bats

# The whole suite again, built with AddressSanitizer + UndefinedBehaviorSanitizer in its own build
# directory; any report (leaks included, or one allocation over 1 GiB) makes the program fail, so
# the test that ran it fails.
SANITIZE_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SANITIZE_BUILD = build-sanitize
check-sanitize:
	ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:max_allocation_size_mb=1024:allocator_may_return_null=0:halt_on_error=1:abort_on_error=0:exitcode=99:detect_stack_use_after_return=1:check_initialization_order=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=99 \
	LSAN_OPTIONS=suppressions=$(abspath tests/sanitize/lsan.supp):print_suppressions=0 \
	CFLAGS="-O1 -g" $(MAKE) BUILD=$(SANITIZE_BUILD) SANITIZE="$(SANITIZE_FLAGS)" check

# The readers' unit tests and the converters' CLI tests again, inflating with zlib instead of ISA-L.
ZLIB_BUILD = build-zlib
INFLATE_UNITS = inflate inflate_file inflated_digest read_ahead idx_read archive_read archive_read_zip matlab_v5_read
check-inflate-zlib:
	$(MAKE) BUILD=$(ZLIB_BUILD) INFLATE=zlib all $(INFLATE_UNITS:%=$(ZLIB_BUILD)/tests/test_%) \
		$(ZLIB_BUILD)/tests/fail_io.so
	for unit in $(INFLATE_UNITS); do $(ZLIB_BUILD)/tests/test_$$unit || exit 1; done
	BUILD=$(abspath $(ZLIB_BUILD)) FUEL_FIXTURES=$(FUEL_FIXTURES) \
		bash tests/run tests/cli/convert_*.bats tests/cli/hostile.bats

# libFuzzer targets (clang): tests/fuzz/fuzz_X.c is built when the reader header it includes
# exists; `make fuzz FUZZ_SECONDS=N [FUZZ_TARGETS="idx png"]` runs each for N seconds.
FUZZ_BUILD = build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SOURCES = $(foreach source,$(wildcard tests/fuzz/fuzz_*.c),$(if $(wildcard $(shell sed -n \
	's|^#include "\([a-z]*/[a-z0-9_/]*\.h\)"|\1|p' $(source))),$(source)))
FUZZ_BINARIES = $(FUZZ_SOURCES:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_input.h $(BUILD)/libfuel.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(BUILD)/libfuel.a $(LDLIBS)

fuzz-binaries: $(FUZZ_BINARIES)
	bash tests/fuzz/make_seeds $(FUEL_FIXTURES) $(BUILD)/fuzz/seeds

fuzz:
	CFLAGS="-O1 -g" $(MAKE) CC=clang BUILD=$(FUZZ_BUILD) SANITIZE="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" fuzz-binaries
	bash tests/fuzz/run $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: all
	@status=0; for script in bench/*.sh; do [ "$$script" = bench/common.sh ] || \
		BUILD=$(abspath $(BUILD)) bash $$script || status=1; done; exit $$status

setup:
	bash scripts/setup

install: all
	install -d $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man5 $(MANDIR)/man7
	install -m 755 $(BUILD)/fuel $(BINDIR)/fuel
	for command in $(COMMANDS); do ln -sf fuel $(BINDIR)/fuel-$$command; done
	install -m 644 $(filter %.1,$(MAN_PAGES)) $(MANDIR)/man1/
	install -m 644 $(filter %.5,$(MAN_PAGES)) $(MANDIR)/man5/
	install -m 644 $(filter %.7,$(MAN_PAGES)) $(MANDIR)/man7/
	install -d $(BASH_COMPLETION_DIR) $(ZSH_COMPLETION_DIR)
	$(BUILD)/fuel completion bash > $(BASH_COMPLETION_DIR)/fuel
	for command in $(COMMANDS); do ln -sf fuel $(BASH_COMPLETION_DIR)/fuel-$$command; done
	$(BUILD)/fuel completion zsh > $(ZSH_COMPLETION_DIR)/_fuel

uninstall:
	rm -f $(BINDIR)/fuel $(COMMANDS:%=$(BINDIR)/fuel-%)
	rm -f $(addprefix $(MANDIR)/man1/,$(notdir $(filter %.1,$(MAN_PAGES))))
	rm -f $(addprefix $(MANDIR)/man5/,$(notdir $(filter %.5,$(MAN_PAGES))))
	rm -f $(addprefix $(MANDIR)/man7/,$(notdir $(filter %.7,$(MAN_PAGES))))
	rm -f $(BASH_COMPLETION_DIR)/fuel $(COMMANDS:%=$(BASH_COMPLETION_DIR)/fuel-%) $(ZSH_COMPLETION_DIR)/_fuel

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(FUZZ_BUILD) $(ZLIB_BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

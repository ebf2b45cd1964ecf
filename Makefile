# Builds fuel, its man pages, tests and benchmarks; `make check` runs every test.
VERSION = 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man
BUILD ?= build

LIBRARIES = hdf5 libcurl zlib libarchive jansson yaml-0.1 libcrypto libpng
PKG_CFLAGS := $(shell pkg-config --cflags $(LIBRARIES))
PKG_LIBS := $(shell pkg-config --libs $(LIBRARIES))


CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -pthread -MMD -MP
CPPFLAGS += -DFUEL_VERSION='"$(VERSION)"' $(PKG_CFLAGS)
LDLIBS += $(PKG_LIBS) -lhdf5_hl -lpthread -lm

COMMANDS = download convert info
LIBRARY_SOURCES = $(wildcard common/*.c converters/*.c downloaders/*.c)
COMMAND_SOURCES = $(wildcard cmd/*.c)
UNIT_SOURCES = $(wildcard tests/unit/test_*.c)
LIBRARY_OBJECTS = $(LIBRARY_SOURCES:%.c=$(BUILD)/%.o)
COMMAND_OBJECTS = $(COMMAND_SOURCES:%.c=$(BUILD)/%.o)
UNIT_BINARIES = $(UNIT_SOURCES:tests/unit/%.c=$(BUILD)/tests/%)
MAN_PAGES = $(wildcard man/*.1 man/*.5)

.PHONY: all check unit bench install uninstall clean setup

all: $(BUILD)/fuel $(COMMANDS:%=$(BUILD)/fuel-%)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/libfuel.a: $(LIBRARY_OBJECTS)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/fuel: $(COMMAND_OBJECTS) $(BUILD)/libfuel.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/fuel-%: $(BUILD)/fuel
	ln -sf fuel $@

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libfuel.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libfuel.a $(LDLIBS) -lcmocka

unit: $(UNIT_BINARIES)

check: all unit
	BUILD=$(abspath $(BUILD)) bash tests/run

bench: all
	@status=0; for script in bench/*.sh; do [ "$$script" = bench/common.sh ] || \
		BUILD=$(abspath $(BUILD)) bash $$script || status=1; done; exit $$status

setup:
	bash scripts/setup

install: all
	install -d $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man5
	install -m 755 $(BUILD)/fuel $(BINDIR)/fuel
	for command in $(COMMANDS); do ln -sf fuel $(BINDIR)/fuel-$$command; done
	install -m 644 $(filter %.1,$(MAN_PAGES)) $(MANDIR)/man1/
	install -m 644 $(filter %.5,$(MAN_PAGES)) $(MANDIR)/man5/

uninstall:
	rm -f $(BINDIR)/fuel $(COMMANDS:%=$(BINDIR)/fuel-%)
	rm -f $(addprefix $(MANDIR)/man1/,$(notdir $(filter %.1,$(MAN_PAGES))))
	rm -f $(addprefix $(MANDIR)/man5/,$(notdir $(filter %.5,$(MAN_PAGES))))

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# suspend2: top-level build.  See README.md for the targets.

BUILD      := build
KERNEL_DIR := $(BUILD)/kernel
MODULE_SRC := $(CURDIR)/kernel/suspend2

CC      ?= gcc
CFLAGS  ?= -O2 -g
CLI_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE
CLI_SRCS   := $(wildcard cli/*.c)
CLI_HDRS   := $(wildcard cli/*.h)
CLI_LIBS   :=
-include cli/cli.mk

MODULE_SRCS := $(shell find kernel/suspend2 -name '*.[ch]' -o -name Kbuild 2>/dev/null)

.PHONY: all kernel module cli test test-unit test-vm demo deps deps-check \
	clean distclean checkpatch

all: kernel module cli

deps:
	@scripts/deps install

deps-check:
	@scripts/deps check

# build-kernel is quick when its cache already holds this exact kernel.
kernel: deps-check
	@kernel/scripts/build-kernel $(BUILD)
	@cp -u $(BUILD)/bzImage-kernel $(BUILD)/bzImage

module: $(BUILD)/suspend2.ko

$(BUILD)/suspend2.ko: kernel $(MODULE_SRCS)
	@$(MAKE) -s -C $(KERNEL_DIR) M=$(MODULE_SRC) modules
	@cp $(MODULE_SRC)/suspend2.ko $@
	@cp $(MODULE_SRC)/suspend2_kunit.ko $(KERNEL_DIR)/lib/kunit/kunit.ko $(BUILD)/

cli: $(BUILD)/hibernate

$(BUILD)/hibernate: $(CLI_SRCS) $(CLI_HDRS) cli/cli.mk
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(CLI_CFLAGS) -static -o $@ $(CLI_SRCS) $(CLI_LIBS)

test: all
	@tests/run-all

test-unit: deps-check
	@tests/unit/run

test-vm: all
	@tests/vm/run

demo: all
	@tests/vm/demo

checkpatch: kernel
	@perl $(KERNEL_DIR)/source/scripts/checkpatch.pl --strict --no-tree \
		--terse -f $(filter %.c %.h,$(MODULE_SRCS))
	@perl $(KERNEL_DIR)/source/scripts/checkpatch.pl --strict --no-tree \
		--terse kernel/patches/*.patch

clean:
	-@[ -d $(KERNEL_DIR) ] && $(MAKE) -s -C $(KERNEL_DIR) M=$(MODULE_SRC) clean
	rm -rf $(BUILD)

# Also drops this checkout's kernel builds from the shared cache.
distclean: clean
	rm -rf $${SUSPEND2_CACHE:-/var/cache/suspend2}

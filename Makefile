# suspend2: top-level build.  See README.md for the targets.

BUILD      := build
KERNEL_DIR := $(BUILD)/kernel
MODULE_SRC := $(CURDIR)/kernel/suspend2

CC      ?= gcc
CFLAGS  ?= -O2 -g
# Includes name a path from cli/ ("lib/strutil.h"): the folder says the
# layer (tests/unit/layers.sh, docs/layout.md).
CLI_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Icli
CLI_SRCS   := $(wildcard cli/*.c cli/*/*.c)
CLI_HDRS   := $(wildcard cli/*.h cli/*/*.h)
CLI_LIBS   :=
# Static by default, so build/hibernate runs in the busybox test initramfs;
# the Debian package links it dynamically (initramfs-tools copies the libs).
CLI_LDFLAGS ?= -static
-include cli/cli.mk

MODULE_SRCS := $(shell find kernel/suspend2 \( -name '*.[ch]' ! -name '*.mod.c' \) -o -name Kbuild 2>/dev/null)

.PHONY: all kernel module cli test test-unit test-vm demo bench deps patches \
	bench-compressors bench-filemap test-scale deps-check clean distclean checkpatch install install-dkms uninstall deb test-system \
	kernel-deb test-kernel-deb \
	kernel-debug module-debug debug test-faults test-build-configs

all: kernel module cli

deps:
	@scripts/deps install

deps-check:
	@scripts/deps check

# build-kernel is quick when its cache already holds this exact kernel.
kernel: deps-check
	@kernel/scripts/build-kernel $(BUILD)
	@cp -u $(BUILD)/bzImage-kernel $(BUILD)/bzImage

module: $(BUILD)/suspend2.ko $(BUILD)/s2_fakepower.ko

# The test kernels enforce signatures under lockdown (and taint the kernel
# for unsigned modules otherwise), so every module the VMs load is signed
# with the key the kernel build generated, as DKMS signs with a MOK key.
define sign_modules
	@for m in $(2); do \
		$(1)/scripts/sign-file sha512 $(1)/certs/signing_key.pem \
			$(1)/certs/signing_key.x509 $$m || exit 1; \
	done
endef

$(BUILD)/suspend2.ko: kernel $(MODULE_SRCS)
	@$(MAKE) -s -C $(KERNEL_DIR) M=$(MODULE_SRC) modules
	@cp $(MODULE_SRC)/suspend2.ko $@
	@cp $(MODULE_SRC)/suspend2_kunit.ko $(KERNEL_DIR)/lib/kunit/kunit.ko $(BUILD)/
	$(call sign_modules,$(KERNEL_DIR),$@ $(BUILD)/suspend2_kunit.ko $(BUILD)/kunit.ko)

# A fake lid switch and mains adapter for the main VM suite's abort tests
# (tests/vm/modules/s2_fakepower), built from a copy like s2_nofreeze below.
FAKEPOWER_SRCS := $(wildcard tests/vm/modules/s2_fakepower/*.c) tests/vm/modules/s2_fakepower/Kbuild

$(BUILD)/s2_fakepower.ko: kernel $(FAKEPOWER_SRCS)
	$(call sync_src,$(FAKEPOWER_SRCS),$(BUILD)/fakepower-src,tests/vm/modules/s2_fakepower)
	@$(MAKE) -s -C $(KERNEL_DIR) M=$(CURDIR)/$(BUILD)/fakepower-src modules
	@cp $(BUILD)/fakepower-src/s2_fakepower.ko $@
	$(call sign_modules,$(KERNEL_DIR),$@)

# ---- debug kernel and the fault suite --------------------------------------
# The same kernel with lockdep, KASAN, kmemleak, DEBUG_LIST, slub debugging
# and atomic-sleep checks (kernel/config/debug.config on top of the test
# config), cached like the normal one: build/kernel-debug is its build tree,
# build/bzImage-kernel-debug its image.  The module cannot be shared between
# the two kernels, so build/debug/ holds a copy of its source
# (build/debug/module-src), built against the debug kernel, and the
# modules the fault scenarios load: suspend2.ko, suspend2_kunit.ko,
# kunit.ko and s2_nofreeze.ko (tests/vm/modules/s2_nofreeze).
DEBUG_DIR        := $(BUILD)/debug
DEBUG_KERNEL_DIR := $(BUILD)/kernel-debug
DEBUG_FRAGMENTS  := kernel/config/suspend2.config kernel/config/debug.config
NOFREEZE_SRCS    := $(wildcard tests/vm/modules/s2_nofreeze/*.c) tests/vm/modules/s2_nofreeze/Kbuild

kernel-debug: deps-check
	@KERNEL_NAME=kernel-debug kernel/scripts/build-kernel $(BUILD) $(DEBUG_FRAGMENTS)

debug: kernel-debug module-debug

module-debug: $(DEBUG_DIR)/suspend2.ko $(DEBUG_DIR)/s2_nofreeze.ko

# Copy only what differs, keeping times, so Kbuild rebuilds only that.
define sync_src
	@for f in $(1); do \
		d=$(2)/$${f#$(3)/}; \
		cmp -s $$f $$d || install -D -p -m 644 $$f $$d || exit 1; \
	done
endef

$(DEBUG_DIR)/suspend2.ko: kernel-debug $(MODULE_SRCS)
	$(call sync_src,$(DKMS_SRCS),$(DEBUG_DIR)/module-src,kernel/suspend2)
	@$(MAKE) -s -C $(DEBUG_KERNEL_DIR) M=$(CURDIR)/$(DEBUG_DIR)/module-src modules
	@cp $(DEBUG_DIR)/module-src/suspend2.ko $@
	@cp $(DEBUG_DIR)/module-src/suspend2_kunit.ko \
		$(DEBUG_KERNEL_DIR)/lib/kunit/kunit.ko $(DEBUG_DIR)/
	$(call sign_modules,$(DEBUG_KERNEL_DIR),$@ $(DEBUG_DIR)/suspend2_kunit.ko $(DEBUG_DIR)/kunit.ko)

$(DEBUG_DIR)/s2_nofreeze.ko: kernel-debug $(NOFREEZE_SRCS)
	$(call sync_src,$(NOFREEZE_SRCS),$(DEBUG_DIR)/nofreeze-src,tests/vm/modules/s2_nofreeze)
	@$(MAKE) -s -C $(DEBUG_KERNEL_DIR) M=$(CURDIR)/$(DEBUG_DIR)/nofreeze-src modules
	@cp $(DEBUG_DIR)/nofreeze-src/s2_nofreeze.ko $@
	$(call sign_modules,$(DEBUG_KERNEL_DIR),$@)

# The fault suite alone (make test runs it too): tests/vm/faults.
test-faults: all debug
	@tests/vm/faults

cli: $(BUILD)/hibernate

$(BUILD)/hibernate: $(CLI_SRCS) $(CLI_HDRS) cli/cli.mk
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(CLI_CFLAGS) $(CLI_LDFLAGS) -o $@ $(CLI_SRCS) $(CLI_LIBS)

test: all debug
	@tests/run-all

# The series with its options off and without modules, and the module for
# i386 (and arm64 with its cross compiler), W=1 (a few minutes).
test-build-configs: kernel
	@kernel/scripts/build-configs

test-unit: deps-check
	@tests/unit/run

test-vm: all
	@tests/vm/run

demo: all
	@tests/vm/demo

# Not part of test: suspend2 against mainline, see docs/benchmarks.md.
bench: all
	@tests/bench/run

# What each compressor costs on the bench's workload, on this CPU and under
# QEMU's TCG (qemu-x86_64, the emulator the bench's guest runs on): one
# thread, the image format's chunks.  Not part of test.
$(BUILD)/compressors: tests/bench/compressors.c tests/vm/tools/mixed.h \
		      kernel/suspend2/image/format.h
	@scripts/deps check bench
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) $(CLI_CFLAGS) -Itests/unit/kshim -o $@ $< \
		-lzstd -llz4 -llzo2

bench-compressors: $(BUILD)/compressors
	@echo "== this CPU"; $(BUILD)/compressors
	@echo "== QEMU TCG (qemu-x86_64 -cpu max)"; \
		qemu-x86_64 -cpu max $(BUILD)/compressors

# How long the file writer takes to map a target file (GIBS, default
# "4 32" GiB), with bmap() per page and by its extents, in one guest
# whose disk is sparse on the host.  Not part of test.
bench-filemap: all
	@tests/bench/filemap

# The scale scenario alone (s2-scale, MANUAL): a 12 GiB guest, an image of
# more than 4 GiB of raw data to a swap partition and to an 8.5 GiB file.
test-scale: all
	@tests/vm/run s2-scale

# The module's only remaining --strict CHECKs are "macro argument reuse" in
# the configfs attribute macros (token pasting: configfs show/store get no
# attribute pointer); they do not stop the patch check from running.
# The series as mail for git send-email, with a cover letter and the
# recipients get_maintainer.pl names: build/patches/.
patches: deps-check
	@kernel/scripts/make-patches $(BUILD)/patches

checkpatch: kernel
	-@perl $(KERNEL_DIR)/source/scripts/checkpatch.pl --strict --no-tree \
		--terse -f $(filter %.c %.h,$(MODULE_SRCS))
	@cd /tmp && perl $(CURDIR)/$(KERNEL_DIR)/source/scripts/checkpatch.pl \
		--strict --no-tree --terse $(CURDIR)/kernel/patches/*.patch

# ---- install -------------------------------------------------------------
# make install [DESTDIR=...] [PREFIX=/usr/local]: the CLI, its completion and
# manual pages, /etc/hibernate.conf and /etc/default/suspend2 (never over an
# existing one), the ACPI event files, the initramfs-tools hook and
# local-premount script, the dracut module, the systemd drop-in (shipped
# under share/, not enabled: hibernate --install-systemd), the kernel
# patches, and the module source with dkms.conf in /usr/src/suspend2-VERSION.
VERSION      := $(shell sed -n 's/^\#define HIB_VERSION "\(.*\)"/\1/p' cli/lib/common.h)
PREFIX       ?= /usr/local
SBINDIR      ?= $(PREFIX)/sbin
DATADIR      ?= $(PREFIX)/share
MANDIR       ?= $(DATADIR)/man
SYSCONFDIR   ?= /etc
BASHCOMPDIR  ?= $(DATADIR)/bash-completion/completions
S2DATADIR    ?= $(DATADIR)/suspend2
INITRAMFSDIR ?= /usr/share/initramfs-tools
DRACUTDIR    ?= /usr/lib/dracut/modules.d
DKMSDIR      ?= /usr/src/suspend2-$(VERSION)
SYSTEMD_UNIT_DIR ?= $(SYSCONFDIR)/systemd/system
# The services hibernate --install-systemd routes through suspend2.
SYSTEMD_DROPINS  := systemd-hibernate.service.d systemd-suspend-then-hibernate.service.d \
	systemd-hybrid-sleep.service.d
INSTALL      ?= install

# Module source for DKMS: what Kbuild builds from, no build products.
DKMS_SRCS = $(shell find kernel/suspend2 \( -name '*.[ch]' -o -name Kbuild \) \
	! -name '*.mod.c' | LC_ALL=C sort)

install: $(BUILD)/hibernate install-dkms
	$(INSTALL) -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(SYSCONFDIR)/default $(DESTDIR)$(SYSCONFDIR)/acpi/events \
		$(DESTDIR)$(INITRAMFSDIR)/hooks \
		$(DESTDIR)$(INITRAMFSDIR)/conf-hooks.d \
		$(DESTDIR)$(INITRAMFSDIR)/scripts/local-premount \
		$(DESTDIR)$(DRACUTDIR)/90suspend2 \
		$(DESTDIR)$(S2DATADIR)/patches \
		$(addprefix $(DESTDIR)$(S2DATADIR)/systemd/,$(SYSTEMD_DROPINS))
	$(INSTALL) -m 755 $(BUILD)/hibernate $(DESTDIR)$(SBINDIR)/hibernate
	$(INSTALL) -m 644 man/hibernate.8 $(DESTDIR)$(MANDIR)/man8/hibernate.8
	$(INSTALL) -m 644 man/hibernate.conf.5 $(DESTDIR)$(MANDIR)/man5/hibernate.conf.5
	$(INSTALL) -m 644 cli/completion/hibernate $(DESTDIR)$(BASHCOMPDIR)/hibernate
	@for f in hibernate.conf default/suspend2; do \
		if [ -e $(DESTDIR)$(SYSCONFDIR)/$$f ]; then \
			echo "keeping the existing $(DESTDIR)$(SYSCONFDIR)/$$f"; \
		else \
			echo "$(INSTALL) -m 644 etc/$$f $(DESTDIR)$(SYSCONFDIR)/$$f"; \
			$(INSTALL) -m 644 etc/$$f $(DESTDIR)$(SYSCONFDIR)/$$f || exit 1; \
		fi; \
	done
	$(INSTALL) -m 755 etc/acpi/suspend2-hibernate.sh $(DESTDIR)$(SYSCONFDIR)/acpi/suspend2-hibernate.sh
	$(INSTALL) -m 644 etc/acpi/events/suspend2-lid etc/acpi/events/suspend2-power \
		etc/acpi/events/suspend2-sleep $(DESTDIR)$(SYSCONFDIR)/acpi/events/
	$(INSTALL) -m 755 etc/initramfs-tools/hooks/suspend2 $(DESTDIR)$(INITRAMFSDIR)/hooks/suspend2
	$(INSTALL) -m 644 etc/initramfs-tools/conf-hooks.d/suspend2 \
		$(DESTDIR)$(INITRAMFSDIR)/conf-hooks.d/suspend2
	$(INSTALL) -m 755 etc/initramfs-tools/scripts/local-premount/suspend2 \
		$(DESTDIR)$(INITRAMFSDIR)/scripts/local-premount/suspend2
	$(INSTALL) -m 755 etc/dracut/90suspend2/module-setup.sh \
		etc/dracut/90suspend2/suspend2-resume.sh $(DESTDIR)$(DRACUTDIR)/90suspend2/
	@for d in $(SYSTEMD_DROPINS); do \
		echo "$(INSTALL) -m 644 etc/systemd/$$d/suspend2.conf $(DESTDIR)$(S2DATADIR)/systemd/$$d/suspend2.conf"; \
		$(INSTALL) -m 644 etc/systemd/$$d/suspend2.conf \
			$(DESTDIR)$(S2DATADIR)/systemd/$$d/suspend2.conf || exit 1; \
	done
	$(INSTALL) -m 644 kernel/patches/series kernel/patches/*.patch $(DESTDIR)$(S2DATADIR)/patches/

# The module source and dkms.conf only (the suspend2-dkms package).
install-dkms:
	$(INSTALL) -d $(DESTDIR)$(DKMSDIR)
	@for f in $(DKMS_SRCS); do \
		$(INSTALL) -D -m 644 $$f $(DESTDIR)$(DKMSDIR)/$${f#kernel/suspend2/} || exit 1; \
	done
	# DKMS builds suspend2.ko only: not the KUnit suites, which need KUnit.
	sed -E '/^obj-m[[:space:]]*\+=.*kunit/d' kernel/suspend2/Kbuild > $(DESTDIR)$(DKMSDIR)/Kbuild
	sed 's/@VERSION@/$(VERSION)/' kernel/dkms/dkms.conf.in > $(DESTDIR)$(DKMSDIR)/dkms.conf
	# DKMS's autoinstall leaves suspend2 alone: these build it for kernels
	# with the patches (kernel/dkms/kernel-hook.in says why).
	$(INSTALL) -d $(DESTDIR)$(SYSCONFDIR)/kernel/postinst.d \
		$(DESTDIR)$(SYSCONFDIR)/kernel/header_postinst.d
	@mkdir -p $(BUILD)
	sed 's/@VERSION@/$(VERSION)/' kernel/dkms/kernel-hook.in > $(BUILD)/dkms-suspend2
	$(INSTALL) -m 755 $(BUILD)/dkms-suspend2 $(DESTDIR)$(SYSCONFDIR)/kernel/postinst.d/dkms-suspend2
	$(INSTALL) -m 755 $(BUILD)/dkms-suspend2 $(DESTDIR)$(SYSCONFDIR)/kernel/header_postinst.d/dkms-suspend2

# Leaves /etc/hibernate.conf and /etc/default/suspend2 (your settings).
uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/hibernate $(DESTDIR)$(MANDIR)/man8/hibernate.8 \
		$(DESTDIR)$(MANDIR)/man5/hibernate.conf.5 $(DESTDIR)$(BASHCOMPDIR)/hibernate \
		$(DESTDIR)$(SYSCONFDIR)/acpi/suspend2-hibernate.sh \
		$(DESTDIR)$(SYSCONFDIR)/acpi/events/suspend2-lid \
		$(DESTDIR)$(SYSCONFDIR)/acpi/events/suspend2-power \
		$(DESTDIR)$(SYSCONFDIR)/acpi/events/suspend2-sleep \
		$(DESTDIR)$(INITRAMFSDIR)/hooks/suspend2 \
		$(DESTDIR)$(INITRAMFSDIR)/conf-hooks.d/suspend2 \
		$(DESTDIR)$(INITRAMFSDIR)/scripts/local-premount/suspend2 \
		$(foreach d,$(SYSTEMD_DROPINS),$(DESTDIR)$(SYSTEMD_UNIT_DIR)/$(d)/suspend2.conf) \
		$(DESTDIR)$(SYSCONFDIR)/kernel/postinst.d/dkms-suspend2 \
		$(DESTDIR)$(SYSCONFDIR)/kernel/header_postinst.d/dkms-suspend2
	rm -rf $(DESTDIR)$(DRACUTDIR)/90suspend2 $(DESTDIR)$(S2DATADIR) $(DESTDIR)$(DKMSDIR)
	@for d in $(SYSTEMD_DROPINS); do \
		rmdir $(DESTDIR)$(SYSTEMD_UNIT_DIR)/$$d 2>/dev/null || true; \
	done
	@echo "kept $(DESTDIR)$(SYSCONFDIR)/hibernate.conf and $(DESTDIR)$(SYSCONFDIR)/default/suspend2"

# Debian packages (suspend2, suspend2-dkms) into build/deb/, then lintian.
deb:
	@tests/system/mkdeb $(BUILD)/deb

# A debootstrapped Debian 12 with systemd under QEMU: install, initramfs
# resume, systemctl hibernate, acpid.  Takes minutes.
test-system:
	@tests/system/run

# Debian packages of the patched kernel with Debian's own configuration
# (FLAVOUR=cloud-amd64, the default, or amd64; DEBUG_INFO=1 keeps Debian's
# debug information): build/kernel-deb/linux-{image,headers}-*.deb.  Not
# part of test: more than an hour on 2 CPUs.  test-kernel-deb runs the
# system test on them, installed by dpkg, suspend2.ko built by DKMS.
kernel-deb: deps-check
	@FLAVOUR="$(FLAVOUR)" DEBUG_INFO="$(DEBUG_INFO)" \
		kernel/scripts/build-kernel-deb $(BUILD)/kernel-deb

test-kernel-deb: kernel-deb
	@SYSTEM_KERNEL_DEB=$(BUILD)/kernel-deb tests/system/run

clean:
	-@[ -d $(KERNEL_DIR) ] && $(MAKE) -s -C $(KERNEL_DIR) M=$(MODULE_SRC) clean
	rm -rf $(BUILD)

# Also drops this checkout's kernel builds from the shared cache.
distclean: clean
	rm -rf $${SUSPEND2_CACHE:-/var/cache/suspend2}

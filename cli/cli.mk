# Included by the top-level Makefile.  libsysfs and libblkid are linked
# statically so the binary runs in a busybox initramfs.
CLI_LIBS += -lblkid -lsysfs
CLI_HDRS += kernel/suspend2/names.h

# Included by the top-level Makefile.  libsysfs, libblkid and libsodium
# (key files, the image key wrap) are linked statically so the binary runs
# in a busybox initramfs.
CLI_LIBS += -lblkid -lsysfs -lsodium
CLI_HDRS += kernel/suspend2/names.h

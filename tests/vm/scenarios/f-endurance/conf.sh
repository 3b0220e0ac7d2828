swap_conf
CYCLES=20
# MemFree slack (KiB) and SUnreclaim growth (KiB) allowed between the
# median of the first MEDIAN_OF cycles' readings and that of the last
# MEDIAN_OF: the medians are 15 cycles apart, so a leak of 70 KiB a cycle
# fails the slab check, and the readings are taken the same way after the
# same work.
MEDIAN_OF=5
MEMFREE_SLACK_KB=4096
SLAB_SLACK_KB=1024

# kernel_code: where this boot's kernel sits in physical memory, for the
# host check that KASLR put the boot kernels elsewhere than the image's.
kernel_code() {
	say "kernel code at $(sed -n 's/^ *\([0-9a-f]*\)-[0-9a-f]* : Kernel code$/\1/p' /proc/iomem)"
}

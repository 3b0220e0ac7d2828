swap_conf
CYCLES=20
# MemFree slack (KiB) and SUnreclaim growth (KiB) allowed after the last
# cycle, against the first: a leak of one page per cycle is 80 KiB, and
# the check compares readings taken the same way after the same work.
MEMFREE_SLACK_KB=4096
SLAB_SLACK_KB=1024

# kernel_code: where this boot's kernel sits in physical memory, for the
# host check that KASLR put the boot kernels elsewhere than the image's.
kernel_code() {
	say "kernel code at $(sed -n 's/^ *\([0-9a-f]*\)-[0-9a-f]* : Kernel code$/\1/p' /proc/iomem)"
}

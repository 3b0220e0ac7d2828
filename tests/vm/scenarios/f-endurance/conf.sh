# On the debug kernel the cycles are for kmemleak (it scans at the end of
# every boot, and a leak of the cycle shows there after one) and for
# KASAN, lockdep and the list and slab checks across repeated cycles: a
# first cycle, and cycles from a kernel that was itself resumed.  Each
# takes a minute or more under TCG, so four.  s2-endurance runs fourteen on
# the main kernel, for the memory readings and KASLR.
CYCLES=4
# From the second cycle on, page allocations of order 4 or more through
# suspend2's code fail (cycles.sh, arm_fail_page_alloc): nothing it needs
# is larger than order 3 without an order-0 fallback (kvmalloc, vmalloc),
# as contiguous memory is scarce after the copy.  (Order 1 is too strict
# here: this kernel's slab debugging makes kmalloc-4k need order 2, and
# reading results/ copies them with kmalloc.)
FAIL_ORDER=4
# MemFree slack (KiB) and SUnreclaim growth (KiB) allowed between the
# median of the first MEDIAN_OF cycles' readings and that of the last
# MEDIAN_OF (of two readings, the lower), read the same way after the
# same work.  Two cycles apart, only a leak of some 512 KiB a cycle fails
# here (the debug kernel's readings swing more): the small ones are
# s2-endurance's and kmemleak's.
MEDIAN_OF=2
MEMFREE_SLACK_KB=4096
SLAB_SLACK_KB=1024
. /scenarios/f-endurance/common.sh

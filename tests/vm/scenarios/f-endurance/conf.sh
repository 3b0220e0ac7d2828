# On the debug kernel the cycles are for kmemleak (it scans at the end of
# every boot, and a leak of the cycle shows there after one) and for
# KASAN, lockdep and the list and slab checks across repeated cycles: a
# first cycle, and cycles from a kernel that was itself resumed.  Each
# takes a minute or more under TCG, so four.  s2-endurance runs twenty on
# the main kernel, for the memory readings and KASLR.
CYCLES=4
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

swap_conf
CYCLES=20
# MemFree slack (KiB) and SUnreclaim growth (KiB) allowed after the last
# cycle, against the first: a leak of one page per cycle is 80 KiB, and
# the check compares readings taken the same way after the same work.
MEMFREE_SLACK_KB=4096
SLAB_SLACK_KB=1024

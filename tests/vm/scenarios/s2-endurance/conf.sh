CYCLES=14
# MemFree slack (KiB) and SUnreclaim growth (KiB) allowed between the
# median of the first MEDIAN_OF cycles' readings and that of the last
# MEDIAN_OF: the medians are 9 cycles apart, so a leak of 85 KiB a cycle
# fails the slab check (SUnreclaim grew by 152 KiB over 20 cycles when
# measured), and the readings are taken the same way after the same work.
MEDIAN_OF=5
MEMFREE_SLACK_KB=4096
SLAB_SLACK_KB=768
. /scenarios/f-endurance/common.sh

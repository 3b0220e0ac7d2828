# vda is the faultdisk: its last page takes commands (tests/vm/nbdkit),
# written through vdb, a second connection to the same disk (the kernel
# refuses writes to an active swap device).
cfs=/sys/kernel/config/suspend2
ctl=$(( $(cat /sys/block/vdb/size) / 8 - 1 ))

# fault COMMAND...: a command to the faultdisk, written past the cache.
fault() {
	if ! printf '%s\n' "$*" |
	     dd of=/dev/vdb bs=4096 seek=$ctl conv=sync oflag=direct 2> /tmp/fault.err; then
		say "faultdisk: '$*' not taken: $(cat /tmp/fault.err)"
		return 1
	fi
}

# fault_state: what the faultdisk says it did.
fault_state() {
	dd if=/dev/vdb bs=4096 skip=$ctl count=1 iflag=direct 2> /dev/null | tr -d '\0' | head -n 1
}

has_image() {
	s2img info /dev/vda > /dev/null 2>&1
}

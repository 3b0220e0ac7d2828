# Shared by the w-* scenarios (writers): an ext4 filesystem on /dev/vda
# holding a file whose content must survive, a profile, one cycle through
# configfs.  /dev/vdb (1 MiB, raw) carries the resume location from boot 1
# to boot 2, as a boot loader's resume= would.
cfs=/sys/kernel/config/suspend2
p=$cfs/profiles/vm

# w_mkfs: ext4 (busybox mke2fs, mounted by the ext4 driver) on /dev/vda at
# /mnt, with /mnt/keep, whose checksum host-check compares after the run.
w_mkfs() {
	mkdir -p /mnt &&
	mke2fs -F -b 4096 /dev/vda > /dev/null 2>&1 &&
	mount -t ext4 /dev/vda /mnt &&
	dd if=/dev/urandom of=/mnt/keep bs=4096 count=100 2> /dev/null &&
	sync &&
	say "KEEPSUM $(md5sum < /mnt/keep | cut -d' ' -f1)"
}

# w_profile WRITER TARGET: the module and profile vm.
w_profile() {
	s2_load && s2_profile vm writer="$1" target="$2" compressor=lz4
}

# w_cycle WRITER: hibernate through configfs; the checks after the resume.
w_cycle() {
	if loc=$(cat $p/resume_location) && [ -n "$loc" ]; then
		result location PASS "resume_location $loc"
	else
		result location FAIL "resume_location unreadable or empty"
		return 1
	fi
	echo "$loc" | dd of=/dev/vdb conv=fsync 2> /dev/null
	if out=$(memmarker start 64 9157); then
		result marker-start PASS "$out"
	else
		result marker-start FAIL "memmarker start failed"
		return 1
	fi
	stamp trigger
	if ! echo hibernate > $cfs/action; then
		result resumed FAIL "action=hibernate failed: $(cat $cfs/results/error)"
		return 1
	fi
	stamp resumed
	status=$(cat $cfs/results/status)
	if [ "$status" = resumed ]; then
		result resumed PASS "resumed from $loc"
	else
		result resumed FAIL "status '$status', error '$(cat $cfs/results/error)'"
	fi
	if out=$(memmarker check); then
		result marker-intact PASS "$out"
	else
		result marker-intact FAIL "$out"
	fi
	memmarker stop > /dev/null 2>&1
	w=$(cat $cfs/results/writer)
	if [ "$w" = "$1" ] && [ -z "$(cat $cfs/results/error)" ]; then
		result results-writer PASS "writer $w, $(cat $cfs/results/bytes_written) bytes written"
	else
		result results-writer FAIL "writer '$w', error '$(cat $cfs/results/error)'"
	fi
}

# w_resume: boot 2.  On success boot 1's script carries on instead.
w_resume() {
	loc=$(head -n 1 /dev/vdb)
	say "resuming from $loc"
	s2_load resume="$loc"
	result resumed FAIL "boot 2 started afresh: no image restored from '$loc'"
	dmesg | grep -i 'suspend2' | tail -n 20
}

# w_umount: leave the filesystem clean for host-check's e2fsck.
w_umount() {
	if out=$(md5sum < /mnt/keep | cut -d' ' -f1); then
		say "KEEPSUM-AFTER $out"
	fi
	umount /mnt && sync
}

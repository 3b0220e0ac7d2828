# Mainline's run of f-nosync, shared by boot 2 (try 1) and the boots that
# check a try (boot-default): wlog writes to /mnt/ml/logK on ext4
# /dev/vdd, its acks in slot K of /dev/vdc, while mainline hibernates
# (echo disk > /sys/power/state: sync first, then freeze).  The next boot
# (noresume) checks it.  A try in which no write landed between the sync
# and the freeze loses nothing and shows nothing, so it is tried again,
# up to ML_TRIES times (scenario.conf: BOOTS = 2 + ML_TRIES).
ML_TRIES=3

# ml_try K: try K; returns only when mainline did not power off.
ml_try() {
	if mkswap /dev/vda >/dev/null && swapon /dev/vda &&
	   { grep -q ' /mnt/ml ' /proc/mounts || mount -t ext4 /dev/vdd /mnt/ml; }; then
		result mainline-setup PASS "try $1 of $ML_TRIES: swap /dev/vda, ext4 /dev/vdd"
	else
		result mainline-setup FAIL "try $1 of $ML_TRIES: could not set up swap or the data disk"
		exit 0
	fi
	wlog write /mnt/ml/log$1 /dev/vdc $1 &
	sleep 3
	if kill -0 $! 2>/dev/null; then
		result mainline-writer PASS "try $1 of $ML_TRIES: wlog writing /mnt/ml/log$1 (pid $!), acks in slot $1 of /dev/vdc"
	else
		result mainline-writer FAIL "try $1 of $ML_TRIES: wlog is not running"
	fi
	hibernate_mainline
	result mainline-measured FAIL "try $1 of $ML_TRIES: mainline hibernation returned (resumed or refused): $?"
}

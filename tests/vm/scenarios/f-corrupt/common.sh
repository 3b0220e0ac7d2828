# Shared by the boots of f-corrupt.
cfs=/sys/kernel/config/suspend2

# hibernate_once: the image boot 2 damages.  The write to action returns
# only if the hibernation failed (or an image was restored after all).
hibernate_once() {
	if ! { mkswap /dev/vda >/dev/null && swapon /dev/vda &&
	       echo c > $cfs/profile; }; then
		result hibernated-data FAIL "cannot set up swap and profile"
		return
	fi
	stamp trigger
	echo hibernate > $cfs/action
	result hibernated-data FAIL "back from the hibernate action: status $(cat $cfs/results/status), $(cat $cfs/results/error)"
}

# damage_and_check KIND S2IMG-ARGS PATTERN: the pristine image back on
# /dev/vda, damaged one way, then the resume at module load.
damage_and_check() {
	kind=$1 op=$2 pattern=$3
	stamp "$kind"
	swapoff /dev/vda 2>/dev/null
	if s2img restore /dev/vda /tmp/pristine >/dev/null &&
	   info=$(s2img info /dev/vda); then
		result "hibernated-$kind" PASS "pristine image back: $info"
	else
		result "hibernated-$kind" FAIL "could not put the saved image back on /dev/vda"
		return
	fi
	# shellcheck disable=SC2086 # op is a word list
	if s2img $op; then
		result "corrupted-$kind" PASS "s2img $op: $(s2img info /dev/vda 2>&1)"
	else
		result "corrupted-$kind" FAIL "s2img $op failed"
		return
	fi
	# Only this load's kernel messages: the log is left whole for the
	# harness's KASAN, lockdep and warning checks.
	seen=$(dmesg | wc -l)
	insmod /lib/suspend2/suspend2.ko resume=/dev/vda
	status=$(cat $cfs/results/status)
	error=$(cat $cfs/results/error)
	klog=$(dmesg | tail -n +$((seen + 1)) |
		grep 'suspend2: refusing the image' | tail -n 1 | sed 's/^\[[^]]*\] //')
	if [ "$status" = refused ] && echo "$error" | grep -q -e "$pattern" &&
	   echo "$klog" | grep -q -e "$pattern"; then
		result "refused-$kind" PASS "$error (kernel: $klog)"
	else
		result "refused-$kind" FAIL "status '$status', error '$error', kernel '$klog', want '$pattern'"
	fi
	result "boot-continues-$kind" PASS "the boot went on after the refusal"
	# Never restored later: the refused image was invalidated.
	mkdir -p $cfs/profiles/c && echo /dev/vda > $cfs/profiles/c/target &&
		echo none > $cfs/profiles/c/compressor && echo c > $cfs/profile
	if ! echo resume > $cfs/action 2>/dev/null &&
	   [ "$(cat $cfs/results/status)" = none ] && ! s2img info /dev/vda >/dev/null 2>&1; then
		result "never-restored-$kind" PASS "a second resume finds no image: $(cat $cfs/results/error)"
	else
		result "never-restored-$kind" FAIL "status '$(cat $cfs/results/status)' after a second resume"
	fi
	if swapon /dev/vda; then
		result "swap-usable-$kind" PASS "swapon /dev/vda works"
	else
		result "swap-usable-$kind" FAIL "swapon /dev/vda failed"
	fi
	swapoff /dev/vda
	# Every profile holds a reference on the module (docs/configfs.md).
	echo > $cfs/profile
	rmdir $cfs/profiles/c
	if rmmod suspend2; then
		result "unloaded-$kind" PASS "module unloaded for the next kind"
	else
		result "unloaded-$kind" FAIL "rmmod suspend2 failed"
	fi
}

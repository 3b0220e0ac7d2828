# Shared by the boots of f-corrupt.
cfs=/sys/kernel/config/suspend2

# hibernate_again KIND: a fresh image for the next boot to damage.  The
# write to action returns only if a damaged image was restored after all.
hibernate_again() {
	swapoff /dev/vda 2>/dev/null
	if ! { mkswap /dev/vda >/dev/null && swapon /dev/vda &&
	       echo c > $cfs/profile; }; then
		result "hibernate-for-$1" FAIL "cannot set up swap and profile"
		return
	fi
	stamp trigger
	echo hibernate > $cfs/action
	result "refused-$1" FAIL "a damaged image was restored (status $(cat $cfs/results/status))"
}

# damage_and_check KIND S2IMG-ARGS PATTERN NEXT
damage_and_check() {
	kind=$1 op=$2 pattern=$3 next=$4
	if info=$(s2img info /dev/vda); then
		result "hibernated-$kind" PASS "image: $info"
	else
		result "hibernated-$kind" FAIL "no image on /dev/vda"
		return
	fi
	# shellcheck disable=SC2086 # op is a word list
	if s2img $op; then
		result "corrupted-$kind" PASS "s2img $op: $(s2img info /dev/vda 2>&1)"
	else
		result "corrupted-$kind" FAIL "s2img $op failed"
		return
	fi
	insmod /lib/suspend2/suspend2.ko resume=/dev/vda
	status=$(cat $cfs/results/status)
	error=$(cat $cfs/results/error)
	klog=$(dmesg | grep 'suspend2: refusing the image' | tail -n 1 | sed 's/^\[[^]]*\] //')
	if [ "$status" = refused ] && echo "$error" | grep -q -e "$pattern" &&
	   echo "$klog" | grep -q -e "$pattern"; then
		result "refused-$kind" PASS "$error (kernel: $klog)"
	else
		result "refused-$kind" FAIL "status '$status', error '$error', kernel '$klog', want '$pattern'"
	fi
	result "boot-continues-$kind" PASS "boot $(sed 's/.*s2.boot=\([0-9]*\).*/\1/' /proc/cmdline) went on after the refusal"
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
	if [ -n "$next" ]; then hibernate_again "$next"; fi
}

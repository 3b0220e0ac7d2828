# The endurance cycles of f-endurance and s2-endurance, sourced by their
# boot1 after their conf.sh (CYCLES, MEDIAN_OF, the slacks): set up, then
# CYCLES hibernate/resume cycles.  Every hibernate below returns in the
# resumed system (boot N+1 resumed it).
kernel_code
if mkswap /dev/vda >/dev/null && swapon /dev/vda &&
   memmarker start 48 8128 >/dev/null; then
	result setup PASS "swap /dev/vda, 48 MiB marker, $CYCLES cycles"
else
	result setup FAIL "mkswap/swapon or memmarker failed"
	exit 0
fi

# number VALUE: true if VALUE is a whole number, digits only, as every
# reading checked below must be.  Anything else (empty, an error message)
# fails its check: a [ -le ] that errs on it is merely false, and shell
# arithmetic takes an empty value for 0.
number() {
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
}

# four_numbers WORD...: exactly four words, each a number (a meminfo
# reading).
four_numbers() {
	[ $# = 4 ] || return 1
	for _v; do
		number "$_v" || return 1
	done
}

# churn N: allocate and free in several ways, leaving a little behind.
churn() {
	rm -rf /tmp/churn
	mkdir -p /tmp/churn
	dd if=/dev/urandom of=/tmp/churn/big bs=1M count=$((4 + $1 % 13)) 2>/dev/null
	dd if=/dev/zero of=/tmp/churn/zero bs=1M count=$((1 + $1 % 5)) 2>/dev/null
	for j in $(seq 1 150); do echo "$1 $j" > /tmp/churn/f$j; done
	for j in $(seq 1 20); do (cat /proc/meminfo > /dev/null) & done
	wait
	rm -f /tmp/churn/f1*
}

# meminfo: "free SUnreclaim" in KiB, read the same way after every cycle:
# without this cycle's churn files, with everything the snapshot pushed
# out to swap back in memory (swapoff), after dropping what can be
# dropped.  "free" is MemFree plus the pages parked on the per-CPU free
# lists (/proc/zoneinfo "count:"), which MemFree leaves out and which
# swing by tens of MiB from one reading to the next.
meminfo() {
	rm -rf /tmp/churn
	swapoff /dev/vda
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sleep 1
	pcp=$(awk '$1 == "count:" { n += $2 } END { print n * 4 }' /proc/zoneinfo)
	awk -v pcp="$pcp" '/^MemFree:/ { f = $2 } /^SUnreclaim:/ { s = $2 }
		END { print f + pcp, s, f, pcp }' /proc/meminfo
	swapon /dev/vda
}

# arm_fail_page_alloc: from the second cycle on (the module loaded by the
# first), every page allocation of order FAIL_ORDER or more with the
# module's code in its call chain fails (fault injection, stack filter on
# the module's range, /proc/modules): whatever suspend2 allocates must be
# smaller, or fall back to order 0 (kvmalloc, vmalloc), or the cycle fails.
# verbose=1 logs each failure it forces; alloc-order counts them.
arm_fail_page_alloc() {
	fpa=/sys/kernel/debug/fail_page_alloc
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
	# $(...) unquoted: the words of suspend2's /proc/modules line.
	# shellcheck disable=SC2046
	set -- $(grep '^suspend2 ' /proc/modules)
	if [ ! -d $fpa ] || [ $# -lt 6 ] || ! number "$2"; then
		result alloc-order FAIL "cannot arm fail_page_alloc: $fpa, module line '$*'"
		return
	fi
	printf '%s\n' "$6" > $fpa/require-start &&
		printf '0x%x\n' $(($6 + $2)) > $fpa/require-end &&
		echo "$FAIL_ORDER" > $fpa/min-order &&
		echo N > $fpa/ignore-gfp-wait &&
		echo N > $fpa/ignore-gfp-highmem &&
		echo 1 > $fpa/verbose &&
		echo 0 > $fpa/space &&
		echo -1 > $fpa/times &&
		echo 100 > $fpa/probability &&
		fpa_armed="$(cat $fpa/require-start)-$(cat $fpa/require-end)" ||
		result alloc-order FAIL "cannot arm fail_page_alloc"
	dmesg -c > /dev/null
}

bad=0
fpa_armed=
: > /tmp/meminfo
i=1
while [ $i -le $CYCLES ]; do
	churn $i
	echo $i > /tmp/cycle
	stamp "cycle $i"
	hibernate -c $CONF > /tmp/out 2>&1
	rc=$?
	status=$(cat /sys/kernel/config/suspend2/results/status 2>/dev/null)
	verified=$(cat /sys/kernel/config/suspend2/results/verified 2>/dev/null)
	read_us=$(cat /sys/kernel/config/suspend2/results/time_read_us 2>/dev/null)
	check=$(memmarker check 2>&1)
	mrc=$?
	# The boot kernel's record (verified, read time) crossed the restore
	# although KASLR put the two kernels at different addresses.
	if [ $rc != 0 ] || [ "$status" != resumed ] || [ $mrc != 0 ] ||
	   [ "$(cat /tmp/cycle)" != $i ] || [ "$verified" != yes ] ||
	   ! number "$read_us" || [ "$read_us" -le 0 ]; then
		say "cycle $i: exit $rc, status '$status', verified '$verified', read '$read_us' us, marker: $check"
		say "cycle $i: $(tr '\n' ' ' < /tmp/out)"
		bad=$((bad + 1))
		break
	fi
	m=$(meminfo)
	# $m unquoted: the reading's words.
	if ! four_numbers $m; then
		say "cycle $i: memory reading is not four numbers: '$m'"
		bad=$((bad + 1))
		break
	fi
	say "cycle $i: resumed, verified, read ${read_us}us, marker intact, free/SUnreclaim/MemFree/per-CPU lists KiB: $m"
	echo "$m" >> /tmp/meminfo
	[ $i = 1 ] && [ -n "${FAIL_ORDER:-}" ] && arm_fail_page_alloc
	i=$((i + 1))
done
if [ -n "$fpa_armed" ]; then
	echo 0 > /sys/kernel/debug/fail_page_alloc/probability
	forced=$(dmesg | grep -c 'FAULT_INJECTION: forcing a failure')
	if [ $bad = 0 ]; then
		result alloc-order PASS "cycles 2-$CYCLES with every allocation of order $FAIL_ORDER or more through suspend2 ($fpa_armed) failing: $forced forced failure(s), all survived"
	else
		result alloc-order FAIL "a cycle failed with allocations of order $FAIL_ORDER or more through suspend2 failing ($forced forced): $(dmesg | grep -A12 'FAULT_INJECTION: forcing' | grep -m3 'suspend2\]' | tr -s ' ' | tr '\n' ' ')"
	fi
fi
if [ $bad = 0 ]; then
	result cycles PASS "$CYCLES cycles: each resumed with the marker intact, verified and its read time"
else
	result cycles FAIL "cycle $i of $CYCLES failed (see above)"
	exit 0
fi

# median COLUMN FIRST|LAST: the median of that column over the first or
# last $MEDIAN_OF readings.  One reading wanders by up to ~1 MiB of slab
# from cycle to cycle (per-CPU partial slabs); a leak moves the median.
median() {
	if [ $2 = first ]; then head -n $MEDIAN_OF /tmp/meminfo; else tail -n $MEDIAN_OF /tmp/meminfo; fi |
		cut -d' ' -f$1 | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
f1=$(median 1 first) s1=$(median 2 first)
fn=$(median 1 last) sn=$(median 2 last)
if ! four_numbers "$f1" "$s1" "$fn" "$sn"; then
	result memory-stable FAIL "medians not numbers: free '$f1' -> '$fn', SUnreclaim '$s1' -> '$sn'; readings: $(tr '\n' '/' < /tmp/meminfo)"
else
	free_drop=$((f1 - fn))
	slab_growth=$((sn - s1))
	span="medians of cycles 1-$MEDIAN_OF vs $((CYCLES - MEDIAN_OF + 1))-$CYCLES"
	detail="free memory $f1 -> $fn KiB (drop $free_drop, allowed $MEMFREE_SLACK_KB), SUnreclaim $s1 -> $sn KiB (growth $slab_growth, allowed $SLAB_SLACK_KB); every reading: $(cut -d' ' -f1,2 /tmp/meminfo | tr ' \n' '/ ')"
	if [ $free_drop -le $MEMFREE_SLACK_KB ] && [ $slab_growth -le $SLAB_SLACK_KB ]; then
		result memory-stable PASS "$span: $detail"
	else
		result memory-stable FAIL "$span: $detail"
	fi
fi
if out=$(memmarker check); then
	result marker-final PASS "$out"
else
	result marker-final FAIL "$out"
fi

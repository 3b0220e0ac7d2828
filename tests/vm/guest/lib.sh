# Guest library, loaded by /init and by every scenario script.
#
# Lines meant for the host (RESULT, DEMO, STAMP, BOOT-DONE) go through the
# kernel log (/dev/kmsg): the kernel prints them on the serial console
# whole and in order with its own messages, each with a printk timestamp.
# (Plain echo output goes through the tty layer and can be cut in half by a
# kernel message.)  The runner boots with printk.devkmsg=on so none of them
# is rate-limited.

# say TEXT... -- one line to the console through the kernel log, cut to
# 900 bytes: /dev/kmsg refuses a longer record whole (EINVAL).
say() {
	if [ -w /dev/kmsg ]; then
		printf '%.900s\n' "$*" > /dev/kmsg
	else
		echo "$*"
	fi
}

# result NAME PASS|FAIL detail...  -- one line the host runner parses.
result() {
	_name=$1 _verdict=$2
	shift 2
	say "RESULT $_name $_verdict $*"
}

# last_boot -- this boot is the scenario's last: the host boots no more of
# the BOOTS its scenario.conf gives (for a scenario that tries again only
# when a try showed nothing, f-nosync).
last_boot() {
	say "LAST-BOOT"
}

# stamp NAME -- a timestamped step.  The printk clock continues across a
# resume (unlike /proc/uptime), so tests/vm/demo can time the steps.
stamp() {
	say "STAMP $*"
}

# demo KEY VALUE... -- a fact for tests/vm/demo's report.
demo() {
	say "DEMO $*"
}

# kmemleak_scan -- on a kernel built with kmemleak (the debug kernel,
# CONFIG_DEBUG_KMEMLEAK: its parameters are in /sys/module/kmemleak,
# whether it runs or not), scan for leaks now.  An object is reported only
# when two scans in a row found it unreferenced, hence two scans.
# Returns 0 with KML_LEAKS, the number of suspected leaks; 1 when the
# kernel has no kmemleak; 2 when it has one but no scan could be made
# (KML_WHY says why: kmemleak switched itself off after an error, or was
# turned off, and refuses to scan; its debugfs file is missing; debugfs
# is locked down).  A scan that could not run is never "0 leaks".
kmemleak_scan() {
	_kml=/sys/kernel/debug/kmemleak
	KML_LEAKS= KML_WHY=
	[ -d /sys/module/kmemleak ] || return 1
	[ -e $_kml ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	if [ ! -e $_kml ]; then
		KML_WHY="no $_kml (debugfs: $(grep -c ' debugfs ' /proc/mounts) mount(s))"
		return 2
	fi
	for _i in 1 2; do
		if ! _err=$( { echo scan > $_kml; } 2>&1 ); then
			KML_WHY="echo scan > $_kml: ${_err##*: }"
			return 2
		fi
	done
	# grep -c: status 1 with a count of 0, 2 when the file cannot be read.
	KML_LEAKS=$(grep -c '^unreferenced object' $_kml 2>/tmp/kml.err)
	if [ $? -gt 1 ] || [ -z "$KML_LEAKS" ]; then
		KML_WHY="cannot read $_kml: $(cat /tmp/kml.err)"
		return 2
	fi
	return 0
}

# locked_down -- the kernel is locked down (integrity or confidentiality),
# which locks debugfs, kmemleak's file with it.
locked_down() {
	[ -e /sys/kernel/security/lockdown ] ||
		mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
	grep -q -e '\[integrity\]' -e '\[confidentiality\]' \
		/sys/kernel/security/lockdown 2>/dev/null
}

# kmemleak_report -- on a kernel with kmemleak (the debug kernel): scan
# now and print every suspected leak on the console, where the host's
# trouble scan finds "unreferenced object".  A scan that cannot run fails
# the boot (result kmemleak), but under lockdown, where debugfs is closed
# by design (f-lockdown's boot 2).
kmemleak_report() {
	kmemleak_scan
	case $? in
	1) return 0 ;;
	2)
		if locked_down; then
			say "kmemleak: no scan at the end of boot: $KML_WHY; the kernel is locked down ($(cat /sys/kernel/security/lockdown)), which closes debugfs"
		else
			result kmemleak FAIL "no leak scan at the end of this boot on a kernel built with kmemleak: $KML_WHY (see the console for kmemleak's own lines)"
		fi
		return 0
		;;
	esac
	say "kmemleak: scan at the end of boot: $KML_LEAKS suspected leak(s)"
	head -n 200 $_kml | while IFS= read -r _l; do say "kmemleak: $_l"; done
}

# finish -- end of this boot: scan for leaks, tell the host, power off.
finish() {
	kmemleak_report
	say "BOOT-DONE"
	sync
	sleep 0.2	# let the tty drain any plain output
	poweroff -f
	sleep 5
	say "poweroff -f returned; trying reboot -f"
	reboot -f
}

# efi_entry NUM [ARG...] -- the firmware's boot entry NUM (hex) starts the
# kernel on the ESP (UEFI_ENTRY=1, tests/vm/lib.sh) with the command line
# of this scenario's boots and ARGs (efiboot order NUM makes it the one
# every boot starts, efiboot next NUM the next boot's only).
efi_entry() {
	_num=$1
	shift
	mount -t efivarfs efivarfs /sys/firmware/efi/efivars 2>/dev/null
	efiboot entry "$_num" '\EFI\suspend2\linux.efi' \
		'initrd=\EFI\suspend2\initrd.gz' console=ttyS0 rdinit=/init \
		panic=-1 printk.devkmsg=on no_console_suspend \
		"$(tr ' ' '\n' < /proc/cmdline | grep '^s2.scenario=')" "$@"
}

# swap_conf -- write the usual configuration, /tmp/hibernate.conf (in
# CONF): one profile, [default], the image on the swap disk /dev/vda, the
# module from the initramfs, lz4.
swap_conf() {
	CONF=/tmp/hibernate.conf
	cat > $CONF <<-EOC
	[default]
	target = /dev/vda
	module = /lib/suspend2/suspend2.ko
	compressor = lz4
	EOC
}

# hibernate_mainline -- the in-kernel (mainline) hibernation path: write the
# image to the active swap, power off.  Returns after a successful resume,
# or at once (non-zero) if the kernel refused.
hibernate_mainline() {
	echo shutdown > /sys/power/disk || return 1
	stamp trigger
	echo disk > /sys/power/state
}

# What most cycle scenarios repeat: load the module, make a profile, start
# the memory marker (memmarker, a daemon with a child on a pipe holding a
# known pattern) before the cycle and check it after the resume.

# s2_load [PARAM=VALUE...] -- insmod the module from the initramfs.
s2_load() {
	insmod /lib/suspend2/suspend2.ko "$@"
}

# s2_profile NAME [ATTR=VALUE...] -- make profile NAME, write each ATTR
# in the order given, select it.  Stops at the first write that fails.
s2_profile() {
	_cfs=/sys/kernel/config/suspend2
	_prof=$1
	shift
	mkdir "$_cfs/profiles/$_prof" || return 1
	for _kv; do
		echo "${_kv#*=}" > "$_cfs/profiles/$_prof/${_kv%%=*}" || return 1
	done
	echo "$_prof" > $_cfs/profile
}

# marker_start MIB SEED [MODE] -- start the marker and report marker-start.
# Non-zero when it did not start: the caller has nothing to check, exits.
marker_start() {
	if _out=$(memmarker start "$@"); then
		result marker-start PASS "$_out"
	else
		result marker-start FAIL "memmarker start failed"
		return 1
	fi
}

# marker_check [NAME] -- report NAME (marker-intact) from memmarker check.
marker_check() {
	if _out=$(memmarker check); then
		result "${1:-marker-intact}" PASS "$_out"
	else
		result "${1:-marker-intact}" FAIL "$_out"
	fi
}

# not_resumed [WHY] [PATTERN] -- for the resume boot's last lines: reached
# only when the image was not restored (a restored image carries on in
# boot 1's script).  Fails "resumed" and shows the kernel log lines
# matching PATTERN (suspend2's by default).
not_resumed() {
	result resumed FAIL "boot 2 started afresh: ${1:-the image was not resumed}"
	dmesg | grep -i -E "${2:-suspend2}" | tail -n 20
}

# pcr4 -- PCR 4 of the SHA-256 bank, as sysfs shows it.
pcr4() { cat /sys/class/tpm/tpm0/pcr-sha256/4; }

# loader_type -- the boot loader type, byte 0x210 of the boot parameters,
# in hex: kexec_file_load writes kexec's, d0.
loader_type() {
	od -An -tx1 -j 528 -N 1 /sys/kernel/boot_params/data | tr -d ' '
}

# extend_zeros HEX -- a SHA-256 PCR value HEX after one extend with 32 zero
# bytes, SHA-256(HEX || 0^32), what kernel patch 0007 does on a kexec load;
# upper-case hex, as sysfs shows PCRs.
extend_zeros() {
	{ printf "$(echo "$1" | sed 's/../\\x&/g')"; head -c 32 /dev/zero; } |
		sha256sum | cut -c1-64 | tr a-f A-F
}

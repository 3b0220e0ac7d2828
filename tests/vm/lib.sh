# shellcheck shell=bash
# Host-side library of the VM harness, sourced by tests/vm/run and
# tests/vm/demo.  Boots the scenarios in QEMU (TCG) and collects results.
#
# A scenario is tests/vm/scenarios/NAME/ with:
#   scenario.conf   shell variables:
#                     BOOTS     number of boots over the same disks (1);
#                               fewer when a boot calls last_boot
#                     MEM       guest RAM in MiB (512)
#                     SMP       guest CPUs (2)
#                     CPU       QEMU's -cpu model and flags (max); the
#                               same for every boot, as a resume needs
#                     DISKS     sizes in MiB of raw virtio disks, created
#                               fresh for each run (/dev/vda, /dev/vdb, ...)
#                     APPEND_N  extra kernel command line for boot N
#                     QEMU_N    extra QEMU arguments for boot N
#                     INITRD_N=plain  boot N gets initrd.gz, without the
#                               tpm2-tools part a TPM=1 scenario has
#                               (another initramfs: what a boot chain
#                               that measures the initramfs sees change)
#                     DRIVE_OPTS_I  extra -drive options for disk I (0 is
#                               /dev/vda), e.g. throttling.bps-write=2000000;
#                               DRIVE_OPTS_I_N for boot N only
#                     TIMEOUT   seconds allowed per boot (120)
#                     TPM=1     the machine has a TPM 2.0 (tpm-crb): swtpm,
#                               its state in build/vm/NAME/tpm, kept across
#                               the scenario's boots as a chip's would be;
#                               the initramfs has tpm2-tools when the host
#                               has them (initrd-tpm2.gz)
#                     UEFI=secureboot  UEFI firmware (Debian's OVMF,
#                               q35 with SMM) with Secure Boot enforcing:
#                               the variable store is a copy of OVMF's
#                               snakeoil template (its PK, KEK and db the
#                               test key Debian ships with it), kept in
#                               build/vm/NAME/efivars across the boots as
#                               a machine's flash is; the kernel is the
#                               firmware's to verify, signed with that key
#                               (sbsign, vm_uefi_kernel), and measured with
#                               its command line into the TPM's event log
#                     UEFI_ENTRY=1  with UEFI=secureboot: from boot 2 on the
#                               firmware starts the kernel from a boot
#                               entry, as a machine's firmware does, not
#                               QEMU: an ESP (the last virtio disk, FAT)
#                               holds the signed kernel and the
#                               initramfs, and boot 1's script makes the
#                               entry with its command line (efi_entry,
#                               guest/lib.sh); the firmware then measures
#                               the kernel into PCR 4 and the stub the
#                               command line into PCR 9.  Those boots
#                               learn their number from QEMU's fw_cfg
#                               (opt/suspend2/boot), since the command
#                               line is the entry's, the same every boot
#                     SWTPM_LOG_LEVEL  swtpm's log level (2); 20 logs
#                               every command and response in hex, as a
#                               sniffer on the TPM's bus would see them
#                     EXPECT    RESULT names that must appear as PASS
#                     REQUIRES  files under build/ the scenario needs
#                               (a *.ko is looked up in VM_MODULES)
#                     MANUAL=1  not part of the default suite (demo, bench)
#                     EXCLUSIVE=1  tests/vm/run runs it alone, with no other
#                               scenario's QEMU beside it (VM_JOBS): for a
#                               scenario that measures, or must hit a
#                               window that a slowed guest could miss
#                     SUITE     the suite the scenario belongs to: main
#                               (default) or faults (the f-* scenarios,
#                               run on the debug kernel by tests/vm/faults)
#                     KILL_N    extended regular expression: the host kills
#                               QEMU (SIGKILL, a power loss) as soon as boot
#                               N's console shows it; that boot then counts
#                               as having ended normally
#                     VARIANTS  words V: the scenario also runs as NAME-V,
#                               the same scripts with VARIANT=V set while
#                               scenario.conf is read (NAME itself runs
#                               with VARIANT empty)
#   bootN           guest script for boot N (run by /init with s2.boot=N)
#   boot-default    guest script for every boot N that has no bootN
#   host-bootN      optional host script run alongside boot N's QEMU; gets
#                   MONITOR (QEMU monitor unix socket), LOG, LOGDIR
#   VM_OVERRIDE     (environment) a file sourced after scenario.conf, to
#                   run one scenario with other settings
#   host-prepare    optional host script run once the fresh disks exist,
#                   before boot 1 (e.g. mkfs.ext4 on a data disk); gets
#                   LOGDIR, VM_KERNEL and VM_TOP; a non-zero exit fails
#                   the scenario
#   host-afterN     optional host script run after boot N's QEMU ended;
#                   gets LOGDIR and prints RESULT lines (e.g. e2fsck -fn on
#                   the disk images)
#   host-check      optional host script run after the last boot; gets
#                   LOGDIR and prints RESULT lines like the guest does
#   HOST_CHECK      (scenario.conf) instead of host-check, a script shared
#                   by several scenarios, relative to tests/vm (checks/...)
#
# Environment: VM_KERNEL (bzImage), VM_MODULES (directory whose *.ko go
# into the initramfs, default build/), VM_BUILD (where the initramfs and the
# per-scenario output go, default build/vm), VM_SUITE (main or faults),
# VM_TIMEOUT_SCALE (multiplies every TIMEOUT, for slow debug kernels),
# VM_APPEND (kernel command line added to every boot), VM_JOBS (how many
# scenarios tests/vm/run boots side by side, see vm_jobs).
#
# Everything a run produces lands in build/vm/NAME/: disks, console-bootN.log,
# qemu-bootN.log (QEMU's own stderr), times, results.

VM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VM_DIR=$VM_TOP/tests/vm
VM_BUILD=${VM_BUILD:-$VM_TOP/build/vm}
# Absolute: swtpm daemonizes into / and would not find a relative state
# directory again.
case $VM_BUILD in /*) ;; *) VM_BUILD=$PWD/$VM_BUILD ;; esac
VM_KERNEL=${VM_KERNEL:-$VM_TOP/build/bzImage}
VM_MODULES=${VM_MODULES:-$VM_TOP/build}
VM_SUITE=${VM_SUITE:-main}
VM_TIMEOUT_SCALE=${VM_TIMEOUT_SCALE:-1}
VM_QEMU=${VM_QEMU:-qemu-system-x86_64}
export VM_BUILD VM_MODULES

# Kernel messages that mean the scenario failed whatever the guest said:
# warnings and BUGs (which include "BUG: KASAN:" reports and "BUG: sleeping
# function called from invalid context"), oopses and panics, KASAN and
# UBSAN reports, lockdep splats (all start with "WARNING: ..." or name the
# possible deadlock), list and slab corruption, and kmemleak reports (the
# guest's finish scans and prints /sys/kernel/debug/kmemleak when the
# kernel has it).
# A report the debug kernel sometimes prints under TCG long before user
# space (and the module) exists: an edge interrupt taken during early CPU
# setup (identify_cpu) hits a lock KASAN does not know yet.  Not ours;
# ignored only before the guest's init has started.
VM_KERNEL_EARLY_KNOWN='BUG: KASAN: wild-memory-access in do_raw_spin_lock'
VM_KERNEL_TROUBLE='BUG:|WARNING:|Oops|Kernel panic|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|WARNING: possible|suspicious RCU usage|list_(add|del) corruption|unreferenced object|suspected memory leak|kmemleak: .*disabled|Redzone overwritten|Poison overwritten|Object already free|general protection fault'

vm_log() { echo "vm: $*" >&2; }

# vm_scenarios_all: names of the default suite (sorted, MANUAL=1 skipped),
# each variant (VARIANTS) as a name of its own.
vm_scenarios_all() {
	local d
	for d in "$VM_DIR"/scenarios/*/; do
		[ -f "$d/scenario.conf" ] || continue
		# shellcheck disable=SC1091
		(MANUAL=0; SUITE=main; VARIANTS=; VARIANT=; . "$d/scenario.conf"
		 [ "${MANUAL:-0}" = 1 ] || [ "${SUITE:-main}" != "$VM_SUITE" ] && exit
		 d=$(basename "$d")
		 echo "$d"
		 for v in $VARIANTS; do echo "$d-$v"; done)
	done | LC_ALL=C sort
}

# vm_scenario_dir NAME: set VM_SCENARIO_DIR to the directory under
# scenarios/ that NAME runs, and VARIANT: NAME itself, or for NAME-V the
# directory NAME whose VARIANTS lists V.
vm_scenario_dir() {
	VM_SCENARIO_DIR=$1 VARIANT=
	[ -f "$VM_DIR/scenarios/$1/scenario.conf" ] && return
	# shellcheck disable=SC1090,SC1091
	if (VARIANTS=; . "$VM_DIR/scenarios/${1%-*}/scenario.conf" 2> /dev/null &&
	    [[ " $VARIANTS " == *" ${1##*-} "* ]]); then
		# shellcheck disable=SC2034 # scenario.conf reads VARIANT
		VM_SCENARIO_DIR=${1%-*} VARIANT=${1##*-}
	fi
}

# vm_jobs: how many scenarios tests/vm/run boots side by side.  VM_JOBS,
# else one per host CPU (a TCG guest keeps about one busy), at most 4 (the
# suites' longest scenarios bound their wall time long before more would
# help) and one per 1.5 GiB of available memory (the largest guest has
# 1 GiB, QEMU its own).  Fails on a VM_JOBS that is not a positive number.
vm_jobs() {
	local jobs=${VM_JOBS:-} mem

	if [ -z "$jobs" ]; then
		jobs=$(nproc 2> /dev/null || echo 1)
		[ "$jobs" -le 4 ] || jobs=4
		mem=$(awk '/^MemAvailable:/ { print int($2 / 1572864) }' /proc/meminfo)
		[ "${mem:-1}" -ge "$jobs" ] || jobs=${mem:-1}
		[ "$jobs" -ge 1 ] || jobs=1
	fi
	[[ $jobs =~ ^[1-9][0-9]*$ ]] || return 1
	echo "$jobs"
}

# vm_scenario_plan NAME: "SECONDS EXCLUSIVE" for tests/vm/run's scheduler:
# how long NAME's boots took the last time (build/vm/NAME/times; without a
# record, a guess from BOOTS and TIMEOUT), and EXCLUSIVE from its
# scenario.conf (0 or 1).
vm_scenario_plan() {
	local name=$1

	vm_scenario_dir "$name"
	# shellcheck disable=SC1090,SC1091
	(unset BOOTS TIMEOUT EXCLUSIVE
	 . "$VM_DIR/scenarios/$VM_SCENARIO_DIR/scenario.conf" 2> /dev/null
	 [ -z "${VM_OVERRIDE:-}" ] || . "$VM_OVERRIDE"
	 t=$(awk '{ s += $2 } END { if (NR) printf "%d", s }' "$VM_BUILD/$name/times" 2> /dev/null)
	 echo "${t:-$(( ${BOOTS:-1} * ${TIMEOUT:-120} / 4 ))} $([ "${EXCLUSIVE:-0}" = 1 ] && echo 1 || echo 0)")
}

# vm_now: seconds since the epoch with fractions.
vm_now() { date +%s.%N; }

# vm_boot NAME N: boot N of scenario NAME (after vm_scenario_dir NAME).
# Returns QEMU's status (124 on timeout).  Appends "bootN SECONDS" to
# build/vm/NAME/times.
vm_boot() {
	local name=$1 n=$2 sdir=$VM_DIR/scenarios/$VM_SCENARIO_DIR out=$VM_BUILD/$1
	local log=$out/console-boot$n.log mon=$out/monitor.sock
	# A unix socket path must fit in 108 bytes; fall back to /tmp (named
	# after this shell and the scenario: other scenarios run beside it).
	[ ${#mon} -lt 100 ] || mon=/tmp/suspend2-vm-$BASHPID-$name.sock
	local append_var=APPEND_$n qemu_var=QEMU_$n kill_var=KILL_$n
	local -a drives=() extra=()
	local i=0 size t0 t1 rc hostpid= killpid=
	local timeout=$(( ${TIMEOUT:-120} * VM_TIMEOUT_SCALE ))

	for size in ${DISKS:-}; do
		# DRIVE_OPTS_<disk>_<boot> overrides DRIVE_OPTS_<disk> for one boot.
		local opts_var=DRIVE_OPTS_${i}_$n
		[ -n "${!opts_var+set}" ] || opts_var=DRIVE_OPTS_$i
		drives+=(-drive "file=$out/disk$i.img,format=raw,if=virtio${!opts_var:+,${!opts_var}}")
		i=$((i + 1))
	done
	# shellcheck disable=SC2206 # QEMU_N is a word list on purpose
	extra=(${!qemu_var:-})
	local initrd=$VM_BUILD/initrd.gz
	local initrd_var=INITRD_$n
	if [ "${TPM:-0}" = 1 ]; then
		# With tpm2-tools, for root's attacks (tests/vm/mkinitramfs).
		[ -f "$VM_BUILD/initrd-tpm2.gz" ] && [ "${!initrd_var:-}" != plain ] &&
			initrd=$VM_BUILD/initrd-tpm2.gz
		vm_swtpm_start "$out" "$n" || return 1
		local tpmsock=$VM_SWTPM_SOCK
		if [ "${TPM_FAULT:-0}" = 1 ]; then
			vm_tpmproxy_start "$out" "$n" || return 1
			tpmsock=$VM_TPMPROXY_SOCK
		fi
		extra+=(-chardev "socket,id=chrtpm,path=$tpmsock"
			-tpmdev emulator,id=tpm0,chardev=chrtpm
			-device tpm-crb,tpmdev=tpm0)
	fi

	local kernel=$VM_KERNEL
	local -a direct=()
	if [ "${UEFI:-}" = secureboot ]; then
		kernel=$(vm_uefi_kernel "$out") || return 1
		[ "$n" = 1 ] && cp "$VM_OVMF_DIR/OVMF_VARS_4M.snakeoil.fd" "$out/efivars"
		extra+=(-machine q35,smm=on
			-global driver=cfi.pflash01,property=secure,value=on
			-drive "if=pflash,format=raw,unit=0,readonly=on,file=$VM_OVMF_DIR/OVMF_CODE_4M.snakeoil.fd"
			-drive "if=pflash,format=raw,unit=1,file=$out/efivars")
	fi
	if [ "${UEFI_ENTRY:-}" = 1 ]; then
		if [ "$n" = 1 ] && ! vm_uefi_esp "$out" "$kernel" "$initrd"; then
			echo "not ok - $name/boot$n cannot make the ESP (make deps installs dosfstools and mtools): $(tail -n 1 "$out/esp.log")" >> "$out/synthetic"
			return 1
		fi
		drives+=(-drive "file=$out/esp.img,format=raw,if=virtio")
		[ "$n" = 1 ] || extra+=(-fw_cfg "name=opt/suspend2/boot,string=$n")
	fi
	# The kernel QEMU starts itself, unless the firmware's boot entry does.
	if [ "${UEFI_ENTRY:-}" != 1 ] || [ "$n" = 1 ]; then
		direct=(-kernel "$kernel" -initrd "$initrd"
			-append "console=ttyS0 rdinit=/init panic=-1 printk.devkmsg=on no_console_suspend s2.scenario=$VM_SCENARIO_DIR s2.boot=$n ${VM_APPEND:-} ${!append_var:-}")
	fi

	rm -f "$log" "$mon" "$out/qemu-boot$n.pid" "$out/killed-boot$n"
	: > "$log"
	if [ -n "${!kill_var:-}" ]; then
		vm_kill_on "$log" "${!kill_var}" "$out/qemu-boot$n.pid" \
			"$out/killed-boot$n" &
		killpid=$!
	fi
	if [ -x "$sdir/host-boot$n" ]; then
		MONITOR=$mon LOG=$log LOGDIR=$out "$sdir/host-boot$n" \
			> "$out/host-boot$n.log" 2>&1 &
		hostpid=$!
	fi

	t0=$(vm_now)
	# -no-reboot: a guest reboot, panic (panic=-1) or power-off ends QEMU.
	# (The braces' 2>/dev/null only silences the shell's "Killed" notice
	# when KILL_N pulls the plug; QEMU's stderr goes to its log.)
	{ timeout -k 5 "$timeout" "$VM_QEMU" \
		-accel tcg -cpu "${CPU:-max}" -m "${MEM:-512}" -smp "${SMP:-2}" \
		-nodefaults -display none -no-reboot \
		-serial "file:$log" \
		-monitor "unix:$mon,server=on,wait=off" \
		-pidfile "$out/qemu-boot$n.pid" \
		"${direct[@]}" "${drives[@]}" "${extra[@]}" \
		< /dev/null > "$out/qemu-boot$n.log" 2>&1; } 2>/dev/null
	rc=$?
	t1=$(vm_now)
	if [ -n "$hostpid" ]; then
		kill "$hostpid" 2>/dev/null
		wait "$hostpid" 2>/dev/null
	fi
	if [ -n "$killpid" ]; then
		kill "$killpid" 2>/dev/null
		wait "$killpid" 2>/dev/null
	fi
	[ "${TPM_FAULT:-0}" = 1 ] && vm_tpmproxy_stop "$out" "$n"
	[ "${TPM:-0}" = 1 ] && vm_swtpm_stop "$out" "$n"
	# Killed on purpose (KILL_N): a power loss, not a failure.
	[ -f "$out/killed-boot$n" ] && rc=0
	awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "boot%s %.1f\n", n, b - a }' >> "$out/times"
	return $rc
}

# vm_uefi_kernel OUT: VM_KERNEL signed for the firmware of UEFI=secureboot
# (the db key of OVMF's snakeoil variables; its PEM key is encrypted with
# the password the package documents), made once per kernel in OUT.
# Prints its path.
VM_OVMF_DIR=${VM_OVMF_DIR:-/usr/share/OVMF}
vm_uefi_kernel() {
	local out=$1 signed=$1/bzImage-signed key=$1/snakeoil.key

	if [ ! -f "$signed" ] || [ "$VM_KERNEL" -nt "$signed" ]; then
		if ! openssl rsa -in /usr/share/ovmf/PkKek-1-snakeoil.key \
			-passin pass:snakeoil -out "$key" 2> "$out/sbsign.log" ||
		   ! sbsign --key "$key" --cert /usr/share/ovmf/PkKek-1-snakeoil.pem \
			--output "$signed" "$VM_KERNEL" >> "$out/sbsign.log" 2>&1; then
			echo "not ok - ${out##*/}/uefi cannot sign $VM_KERNEL for the firmware (make deps installs ovmf and sbsigntool): $(tail -n 1 "$out/sbsign.log")" >> "$out/synthetic"
			return 1
		fi
	fi
	echo "$signed"
}

# vm_uefi_esp OUT KERNEL INITRD: OUT/esp.img, a FAT file system (no
# partition table: the firmware reads it whole) with the signed kernel as
# \EFI\suspend2\linux.efi and the initramfs as \EFI\suspend2\initrd.gz.
vm_uefi_esp() {
	local out=$1 esp=$1/esp.img size

	size=$(( ($(stat -c %s "$2") + $(stat -c %s "$3")) / 1024 + 8192 ))
	rm -f "$esp"
	{ mkfs.vfat -C -n ESP "$esp" "$size" &&
		mmd -i "$esp" ::/EFI ::/EFI/suspend2 &&
		mcopy -i "$esp" "$2" ::/EFI/suspend2/linux.efi &&
		mcopy -i "$esp" "$3" ::/EFI/suspend2/initrd.gz; } > "$out/esp.log" 2>&1
}

# vm_wait_socket SOCK OUT N WHO: wait up to 5 s for WHO to make SOCK;
# a failed test line in OUT/synthetic if it does not.
vm_wait_socket() {
	local i

	for i in $(seq 50); do
		[ -S "$1" ] && return 0
		sleep 0.1
	done
	echo "not ok - ${2##*/}/boot$3 $4 made no socket in 5 s" >> "$2/synthetic"
	return 1
}

# vm_swtpm_start OUT N: a software TPM 2.0 for boot N, its state in
# OUT/tpm (a new chip at the scenario's first boot; the same chip, with its
# seeds and NV indexes, at the next).  Every boot is a power cycle: PCRs
# start from their reset values.  Sets VM_SWTPM_SOCK for QEMU's chardev.
vm_swtpm_start() {
	local out=$1 n=$2

	VM_SWTPM_SOCK=$out/swtpm.sock
	# Too long for a unix socket: one in /tmp of this scenario's own, as
	# the TPM scenarios may run side by side (VM_JOBS).
	[ ${#VM_SWTPM_SOCK} -lt 100 ] ||
		VM_SWTPM_SOCK=/tmp/suspend2-swtpm-$BASHPID-${out##*/}.sock
	rm -f "$VM_SWTPM_SOCK"
	mkdir -p "$out/tpm"
	# --terminate: swtpm ends when QEMU closes the control channel.
	if ! swtpm socket --tpm2 --tpmstate "dir=$out/tpm" \
		--ctrl "type=unixio,path=$VM_SWTPM_SOCK" --terminate \
		--pid "file=$out/swtpm-boot$n.pid" \
		--log "file=$out/swtpm-boot$n.log,level=${SWTPM_LOG_LEVEL:-2}" --daemon; then
		echo "not ok - ${out##*/}/boot$n swtpm did not start (make deps installs swtpm)" >> "$out/synthetic"
		return 1
	fi
	vm_wait_socket "$VM_SWTPM_SOCK" "$out" "$n" swtpm
}

# vm_tpmproxy_start OUT N: with TPM_FAULT=1, QEMU reaches swtpm through
# tests/vm/tpmproxy.py, which answers every TPM command with
# TPM_RC_INITIALIZE while OUT/tpm-fault exists (a host script makes it).
# Sets VM_TPMPROXY_SOCK, the socket QEMU connects to.
vm_tpmproxy_start() {
	local out=$1 n=$2

	VM_TPMPROXY_SOCK=$out/tpmproxy.sock
	[ ${#VM_TPMPROXY_SOCK} -lt 100 ] ||
		VM_TPMPROXY_SOCK=/tmp/suspend2-tpmproxy-$BASHPID-${out##*/}.sock
	rm -f "$VM_TPMPROXY_SOCK" "$out/tpm-fault"
	python3 "$VM_DIR/tpmproxy.py" "$VM_TPMPROXY_SOCK" "$VM_SWTPM_SOCK" \
		"$out/tpm-fault" > "$out/tpmproxy-boot$n.log" 2>&1 &
	echo $! > "$out/tpmproxy-boot$n.pid"
	vm_wait_socket "$VM_TPMPROXY_SOCK" "$out" "$n" "the TPM proxy"
}

vm_tpmproxy_stop() {
	local pidfile=$1/tpmproxy-boot$2.pid

	[ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
	rm -f "$pidfile" "$VM_TPMPROXY_SOCK" "$1/tpm-fault"
	return 0
}

# vm_swtpm_stop OUT N: swtpm normally ended with QEMU; make sure.
vm_swtpm_stop() {
	local pidfile=$1/swtpm-boot$2.pid

	[ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
	rm -f "$pidfile" "$VM_SWTPM_SOCK"
	return 0
}

# vm_scenario NAME: run every boot of scenario NAME, then its host check.
# Writes build/vm/NAME/results: a TAP line "ok - NAME/RESULT detail" or
# "not ok - NAME/RESULT detail" per result, guest RESULT lines first, then
# synthetic failures.  Returns 1 if any result failed.
vm_scenario() {
	local name=$1 sdir out=$VM_BUILD/$1
	local n i size req rc line check res=$VM_BUILD/$1/results

	vm_scenario_dir "$name"
	sdir=$VM_DIR/scenarios/$VM_SCENARIO_DIR

	rm -rf "$out"
	mkdir -p "$out"
	: > "$res"
	if [ ! -f "$sdir/scenario.conf" ]; then
		echo "not ok - $name/scenario no such scenario ($sdir/scenario.conf)" >> "$res"
		return 1
	fi

	# The configuration is read in a subshell-free way but reset first so
	# nothing leaks from one scenario into the next.
	unset BOOTS MEM SMP CPU DISKS TIMEOUT EXPECT REQUIRES MANUAL SUITE VARIANTS TPM TPM_FAULT EXCLUSIVE
	unset HOST_CHECK SWTPM_LOG_LEVEL
	unset "${!APPEND_@}" "${!QEMU_@}" "${!DRIVE_OPTS_@}" "${!KILL_@}"
	# shellcheck disable=SC1090,SC1091
	. "$sdir/scenario.conf"
	# A caller (the benchmark) may override settings for one run.
	# shellcheck disable=SC1090
	[ -z "${VM_OVERRIDE:-}" ] || . "$VM_OVERRIDE"
	BOOTS=${BOOTS:-1}

	for req in ${REQUIRES:-}; do
		local where=$VM_TOP/build/$req
		case "$req" in *.ko) where=$VM_MODULES/$req ;; esac
		if [ ! -e "$where" ]; then
			echo "not ok - $name/requires ${where#"$VM_TOP"/} is missing (build it first: make)" >> "$res"
			return 1
		fi
	done

	i=0
	for size in ${DISKS:-}; do
		truncate -s "${size}M" "$out/disk$i.img"
		i=$((i + 1))
	done
	if [ -x "$sdir/host-prepare" ] &&
	   ! LOGDIR=$out VM_KERNEL=$VM_KERNEL VM_TOP=$VM_TOP \
		"$sdir/host-prepare" > "$out/host-prepare.log" 2>&1; then
		echo "not ok - $name/host-prepare failed: $(tail -n 3 "$out/host-prepare.log" | tr '\n' ' ')" >> "$res"
		return 1
	fi

	for ((n = 1; n <= BOOTS; n++)); do
		vm_log "$name: boot $n of $BOOTS"
		vm_boot "$name" "$n"
		rc=$?
		if [ $rc = 124 ] || [ $rc = 137 ]; then
			echo "not ok - $name/boot$n timed out after $(( ${TIMEOUT:-120} * VM_TIMEOUT_SCALE )) s (QEMU killed)" >> "$out/synthetic"
		elif [ $rc != 0 ]; then
			echo "not ok - $name/boot$n QEMU exited with status $rc: $(tail -n 3 "$out/qemu-boot$n.log" | tr '\n' ' ')" >> "$out/synthetic"
		fi
		[ -f "$out/killed-boot$n" ] && vm_log "$name: boot $n: $(cat "$out/killed-boot$n")"
		if [ -x "$sdir/host-after$n" ]; then
			LOGDIR=$out "$sdir/host-after$n" > "$out/host-after$n.log" 2>&1
		fi
		# The guest said this boot was the last (last_boot): the
		# checks below look at the boots that ran.
		if [ $n -lt "$BOOTS" ] &&
		   tr -d '\r' < "$out/console-boot$n.log" | grep -q '\] LAST-BOOT$'; then
			vm_log "$name: boot $n was the last one needed"
			BOOTS=$n
		fi
	done

	# Guest results, in console order, then the host check's.
	for ((n = 1; n <= BOOTS; n++)); do
		tr -d '\r' < "$out/console-boot$n.log"
	done | vm_parse_results "$name" >> "$res"
	for ((n = 1; n <= BOOTS; n++)); do
		[ -f "$out/host-after$n.log" ] &&
			vm_parse_results "$name" < "$out/host-after$n.log" >> "$res"
	done
	check=$sdir/host-check
	[ -z "${HOST_CHECK:-}" ] || check=$VM_DIR/$HOST_CHECK
	if [ -x "$check" ]; then
		LOGDIR=$out "$check" 2>&1 | tee "$out/host-check.log" |
			vm_parse_results "$name" >> "$res"
	fi

	# Every expected name must have shown up.
	for req in ${EXPECT:-}; do
		grep -q -e "^ok - $name/$req " -e "^not ok - $name/$req " "$res" ||
			echo "not ok - $name/$req missing: no RESULT $req line from the guest" >> "$res"
	done

	# The kernel must not have complained, whatever the guest said.
	for ((n = 1; n <= BOOTS; n++)); do
		while IFS= read -r line; do
			echo "not ok - $name/kernel-log boot $n: $line" >> "$res"
		done < <(tr -d '\r' < "$out/console-boot$n.log" |
			awk -v t="$VM_KERNEL_TROUBLE" -v k="$VM_KERNEL_EARLY_KNOWN" '
				/GUEST scenario=/ { guest = 1 }
				$0 ~ t && !(!guest && $0 ~ k) { print }' | head -n 5)
	done

	[ -f "$out/synthetic" ] && cat "$out/synthetic" >> "$res"
	! grep -q '^not ok ' "$res"
}

# vm_kill_on LOG REGEX PIDFILE MARK: kill QEMU (its pid in PIDFILE) with
# SIGKILL as soon as LOG matches REGEX, as a power loss would stop it, and
# write what happened into MARK.
vm_kill_on() {
	local log=$1 re=$2 pidfile=$3 mark=$4 pid line
	while sleep 0.05; do
		# Each in-place update of the progress line (after a CR) on
		# a line of its own.
		line=$(tr '\r' '\n' < "$log" | grep -a -m 1 -E -e "$re") || continue
		pid=$(cat "$pidfile" 2>/dev/null) || continue
		[ -n "$pid" ] || continue
		kill -KILL "$pid" 2>/dev/null || return 0
		echo "QEMU killed (power loss) when the console showed: $line" > "$mark"
		return 0
	done
}

# vm_parse_results NAME: RESULT lines on stdin -> TAP lines
# "ok - NAME/result detail" (PASS) or "not ok - NAME/result detail".
# A RESULT may follow a kernel timestamp or other text on the same line.
vm_parse_results() {
	awk -v scen="$1" '
	match($0, /RESULT [^ ]+ (PASS|FAIL)( |$)/) {
		rest = substr($0, RSTART + 7)
		split(rest, f, " ")
		detail = rest
		sub(/^[^ ]+ [^ ]+ ?/, "", detail)
		printf "%s - %s/%s %s\n", f[2] == "PASS" ? "ok" : "not ok", scen, f[1], detail
	}'
}

# vm_tail_logs NAME: the last 40 lines of each console log of NAME.
vm_tail_logs() {
	local f
	for f in "$VM_BUILD/$1"/console-boot*.log "$VM_BUILD/$1"/host-*.log; do
		[ -s "$f" ] || continue
		echo "----- $1: last 40 lines of ${f#"$VM_TOP"/} -----"
		tail -n 40 "$f" | tr -d '\r'
	done
	echo "----- end of $1 -----"
}

# vm_prepare: check the kernel and (re)build the initramfs.
vm_prepare() {
	if [ ! -f "$VM_KERNEL" ]; then
		echo "vm: kernel $VM_KERNEL not found (make kernel, or set VM_KERNEL)" >&2
		return 1
	fi
	if ! command -v "$VM_QEMU" > /dev/null; then
		echo "vm: $VM_QEMU not found (make deps installs qemu-system-x86)" >&2
		return 1
	fi
	"$VM_DIR/mkinitramfs" > /dev/null
}

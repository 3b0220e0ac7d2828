#!/bin/bash
# What hibernate tells the user when something is missing or cannot
# work: no target, --force where it cannot help, what --invalidate did,
# the resume parameter by a stable name; one program name throughout.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T
mkdir -p "$T/run"

fake_tree() {
	local d=$1
	rm -rf "$d"
	mkdir -p "$d/profiles/p" "$d/results"
	echo idle >"$d/state"
	printf 'compressors: none lzo lz4\nwriters: swap swapfile file bdev\nchecksums: none crc32c\npowerdown: shutdown platform reboot\nactions: hibernate test resume invalidate\n' >"$d/capabilities"
	: >"$d/profile"
	: >"$d/action"
}

# Every line of stderr is "hibernate: ...".
one_name() { ! grep -qv "^hibernate: " "$T/err"; }
not() { ! "$@"; }

CFS=$T/cfs
fake_tree "$CFS"
touch "$T/target"

# The shipped configuration names no target: say what to set, exit 3.
# --resume and --invalidate exit 10 instead (nothing was hibernated with
# it, the initramfs goes on); an unknown profile, a missing
# configuration or one with errors stays 3.
for a in --resume --invalidate; do
	expect_rc "shipped hibernate.conf without a target: $a exits 10" 10 \
		"$HIB" -c "$TOP/etc/hibernate.conf" --configfs "$CFS" $a
	check "$a, no target: says which profile" \
		grep -q "^hibernate: no target: profile 'default' of $TOP/etc/hibernate.conf" "$T/err"
	expect_rc "shipped hibernate.conf, [battery] without a target: $a exits 10" 10 \
		"$HIB" -c "$TOP/etc/hibernate.conf" --configfs "$CFS" -p battery $a
	expect_rc "$a, unknown profile: exits 3" 3 \
		"$HIB" -c "$TOP/etc/hibernate.conf" --configfs "$CFS" -p nosuch $a
	expect_rc "$a, missing configuration: exits 3" 3 \
		"$HIB" -c "$T/nosuch.conf" --configfs "$CFS" $a
	printf '[default]\nbogus_key = 1\n' >"$T/bad.conf"
	expect_rc "$a, configuration with errors: exits 3" 3 \
		"$HIB" -c "$T/bad.conf" --configfs "$CFS" $a
	expect_rc "$a, no target but a resume_location: exits 3" 3 \
		"$HIB" -c "$TOP/etc/hibernate.conf" --configfs "$CFS" $a \
		--set resume_location=/dev/nosuch:0
done
expect_rc "shipped hibernate.conf without a target exits 3" 3 \
	"$HIB" -c "$TOP/etc/hibernate.conf" --configfs "$CFS" -n
check "no target: says which profile of which file" \
	grep -q "^hibernate: no target: profile 'default' of $TOP/etc/hibernate.conf does not say where the image goes" "$T/err"
check "no target: says what to set where" \
	grep -q '^hibernate: set "target = ..." in \[default\], e.g. ' "$T/err"
check "no target: one program name" one_name
expect_rc "shipped hibernate.conf, [battery] without a target exits 3" 3 \
	"$HIB" -c "$TOP/etc/hibernate.conf" --configfs "$CFS" -n -p battery
check "no target in [battery]: names [default] too" \
	grep -q 'in \[battery\] (or in \[default\], which every profile inherits)' "$T/err"
expect_rc "shipped hibernate.conf with --set target" 0 \
	"$HIB" -c "$TOP/etc/hibernate.conf" --configfs "$CFS" -n -f --set target="$T/target"

# A comment after the target.
printf '[default]\ntarget = %s   # the image goes here\nforce = yes ; bdev only\n' \
	"$T/target" >"$T/c.conf"
expect_rc "target with a trailing comment" 0 \
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -n -f
check "trailing comment not in the target" \
	grep -qx "$CFS/profiles/default/target = $T/target" "$T/out"
check "force = yes written as 1" \
	grep -qx "$CFS/profiles/default/force = 1" "$T/out"

# A block device that is not active swap: --force cannot help, so the
# message says what does.  Not one holding a mounted filesystem: that
# is refused first, and no hint names swapon for it (trust.sh).  Not a
# loop device, zram or a RAM disk either: those are refused first too,
# since no boot could read an image back from them (dryrun.sh).
blk=
for d in /sys/class/block/*; do
	n=/dev/$(basename "$d")
	[[ $n =~ ^/dev/(loop|zram|ram)[0-9]+$ ]] && continue
	if [[ -b $n ]] && ! grep -q "^$n " /proc/swaps &&
		[[ -z $(lsblk -nro MOUNTPOINT "$n" 2>/dev/null | tr -d '\n') ]]; then
		blk=$n
		break
	fi
done
if [[ -n $blk ]]; then
	printf '[default]\ntarget = %s\n' "$blk" >"$T/b.conf"
	expect_rc "not active swap exits 1" 1 "$HIB" -c "$T/b.conf" --configfs "$CFS" -n
	check "not active swap: says swapon and swap_on_demand" \
		grep -q "^hibernate: target $blk is not an active swap area, and the swap writer writes only to one: enable it first (swapon $blk, or an fstab line), or set swap_on_demand = yes" "$T/err"
	check "not active swap: does not suggest --force" \
		not grep -q -- "--force" "$T/err"
	check "not active swap: one program name" one_name
else
	skip "no block device here: the not-active-swap hint"
fi

# --invalidate says whether there was an image (the fake module does
# not erase anything, so a signature that stays is an error).
printf '[default]\ntarget = %s\n' "$T/target" >"$T/i.conf"
fake_tree "$CFS"
mkdir -p "$CFS/profiles/default"
fake_profile "$CFS" default
echo "$T/dev:1" >"$CFS/profiles/default/resume_location"
head -c 8192 /dev/zero >"$T/dev"
expect_rc "--invalidate without an image exits 0" 0 \
	"$HIB" -c "$T/i.conf" --configfs "$CFS" --invalidate -f
check "--invalidate without an image says so" \
	grep -qx "hibernate: no image on $T/target ($T/dev:1): nothing to invalidate" "$T/err"
printf 'S2SUSPEND\0' | dd of="$T/dev" bs=1 seek=$((8192 - 10)) conv=notrunc status=none
expect_rc "--invalidate, signature still there, exits 1" 1 \
	"$HIB" -c "$T/i.conf" --configfs "$CFS" --invalidate -f
check "--invalidate: a signature that stays is reported" \
	grep -q "^hibernate: the image on $T/target ($T/dev:1) is still there" "$T/err"
rm "$CFS/profiles/default/resume_location"
expect_rc "--invalidate, location unknown, exits 0" 0 \
	"$HIB" -c "$T/i.conf" --configfs "$CFS" --invalidate -f
check "--invalidate, location unknown: does not claim an image" \
	grep -q "^hibernate: any image on $T/target is invalidated (could not read" "$T/err"
check "--invalidate: one program name" one_name

# The resume parameter names the device by UUID (root: a loop device
# holding a swap area).
uuid=5a5a5a5a-1111-4222-8333-0123456789ab
loop=
if [[ $(id -u) != 0 ]]; then
	skip "not root: stable names of a loop device"
elif ! truncate -s 64M "$T/swap.img" "$T/old.img" ||
	! mkswap -q -U "$uuid" "$T/swap.img" ||
	! mkswap -q -U 5a5a5a5a-2222-4222-8333-0123456789ab "$T/old.img"; then
	fail "cannot make a swap area in $T/swap.img for the stable names"
elif ! loop=$(losetup --find --show "$T/old.img" 2>/dev/null); then
	skip "no loop device here: stable names of a loop device"
else
	# The loop device held another swap area a moment ago, and
	# libblkid's shared cache remembers it (a reused device, as
	# after a mkswap): the look-up must not trust that cache.
	blkid "$loop" >/dev/null 2>&1
	losetup -d "$loop"
	if ! loop=$(losetup --show "$loop" "$T/swap.img" 2>/dev/null); then
		skip "the loop device was taken: stable names of a loop device"
		loop=
	fi
fi
if [[ -n $loop ]]; then
	fake_tree "$CFS"
	printf '[default]\ntarget = %s\n' "$loop" >"$T/l.conf"
	expect_rc "dry run on a loop device" 0 "$HIB" -c "$T/l.conf" --configfs "$CFS" -n -f
	check "resume parameter: suspend2.resume=UUID=...:0" \
		grep -q "^# resume parameter: suspend2.resume=UUID=$uuid:0 ($loop:0; " "$T/out"
	expect_rc "--resume with resume_location = UUID=...:0" 0 \
		"$HIB" -c "$T/l.conf" --configfs "$CFS" -n -f --resume \
		--set "resume_location=UUID=$uuid:0"
	check "resume_location by UUID resolved for the module" \
		grep -qx "$CFS/profiles/default/target = $loop:0" "$T/out"
	expect_rc "--resume with an unknown UUID exits 1" 1 \
		"$HIB" -c "$T/l.conf" --configfs "$CFS" -n -f --resume \
		--set "resume_location=UUID=00000000-dead-beef-0000-000000000000:0"
	check "unknown UUID: said so" grep -q "libblkid finds no device by that name" "$T/err"
	# --invalidate with resume_location (as the initramfs passes it)
	# looks at that page: page 1 of the swap area is not an anchor.
	mkdir -p "$CFS/profiles/default"
	fake_profile "$CFS" default
	expect_rc "--invalidate at resume_location UUID=...:1" 0 \
		"$HIB" -c "$T/l.conf" --configfs "$CFS" --invalidate -f \
		--set "resume_location=UUID=$uuid:1"
	check "--invalidate at resume_location: looked there" \
		grep -qx "hibernate: no image on $loop:1 ($loop:1): nothing to invalidate" "$T/err"
	losetup -d "$loop"
fi

# The initramfs scripts take what the resume parameter prints:
# suspend2.resume=UUID=...:PAGE goes to hibernate as resume_location.
mkdir -p "$T/ir"
cat >"$T/ir/hibernate" <<'FAKE'
#!/bin/sh
echo "$*" >>"$IR_LOG"
case "$1" in
--resume) exit "${IR_RESUME_RC:-0}" ;;
--invalidate) exit "${IR_INVALIDATE_RC:-0}" ;;
esac
FAKE
chmod +x "$T/ir/hibernate"
printf 'log_begin_msg() { :; }\nlog_end_msg() { :; }\nlog_warning_msg() { :; }\npanic() { echo STOP >>"$IR_LOG"; }\n' >"$T/ir/functions"
export IR_LOG=$T/ir/log
sed -e "s|/proc/cmdline|$T/ir/cmdline|; s|/sbin/hibernate|$T/ir/hibernate|g" \
	-e "s|/scripts/functions|$T/ir/functions|; s|/dev/kmsg|$T/ir/kmsg|" \
	"$TOP/etc/initramfs-tools/scripts/local-premount/suspend2" >"$T/ir/premount"
# dracut's helpers, as dracut-lib.sh defines them, over the same file.
cat >"$T/ir/dracut" <<EOD
getarg() {
	for x in \$(cat $T/ir/cmdline); do
		case "\$x" in "\$1") return 0 ;; "\$1"*) echo "\${x#"\$1"}"; return 0 ;; esac
	done
	return 1
}
getargbool() {
	v=\$(getarg "\$2=") || return 0
	case "\$v" in 0 | no | off | false) return 1 ;; esac
	return 0
}
info() { :; }
warn() { :; }
die() { echo STOP >>"\$IR_LOG"; }
. $T/ir/resume.sh
EOD
sed -e "s|/sbin/hibernate|$T/ir/hibernate|g; s|/etc/default/suspend2|$T/ir/nodefault|" \
	"$TOP/etc/dracut/90suspend2/suspend2-resume.sh" >"$T/ir/resume.sh"
ir_case() {
	local name=$1 cmdline=$2 want=$3 s
	echo "$cmdline" >"$T/ir/cmdline"
	for s in premount dracut; do
		: >"$IR_LOG"
		sh "$T/ir/$s" >/dev/null 2>&1
		if [[ $(cat "$IR_LOG") == "$want" ]]; then
			pass "$s: $name"
		else
			fail "$s: $name: ran '$(cat "$IR_LOG")', wanted '$want'"
		fi
	done
}
base="-c /etc/hibernate.conf -p default"
ir_case "suspend2.resume=UUID=...:PAGE is the resume location" \
	"root=/dev/vda suspend2.resume=UUID=$uuid:34816 quiet" \
	"--resume $base --set resume_location=UUID=$uuid:34816"
ir_case "no suspend2.resume: the profile's target" "root=/dev/vda" "--resume $base"
ir_case "suspend2.resume=no still means noresume" "suspend2.resume=no" "--invalidate $base"
ir_case "noresume with a location invalidates there" \
	"noresume suspend2.resume=PARTUUID=8e1a-02:0" \
	"--invalidate $base --set resume_location=PARTUUID=8e1a-02:0"
# --resume exits 9: a refused image is still on its target.  One more
# --invalidate; when that fails too, the boot stops before the root
# filesystem is mounted (panic, die); suspend2.resume=no goes on.
export IR_RESUME_RC=9 IR_INVALIDATE_RC=0
ir_case "a stale image invalidated at the second try: the boot goes on" \
	"root=/dev/vda" "--resume $base
--invalidate $base"
export IR_INVALIDATE_RC=1
ir_case "a stale image that cannot be invalidated stops the boot" \
	"root=/dev/vda" "--resume $base
--invalidate $base
STOP"
ir_case "suspend2.resume=no goes on past a failing invalidate" \
	"suspend2.resume=no" "--invalidate $base"
# Any other failure of --resume (it could not look: a typo in
# suspend2.resume=, no module, no device): --invalidate; when that cannot
# open the target either, the boot stops; status 10 (no target) goes on,
# status 3 (a typo'd profile, a broken configuration) does not.
for rc in 1 2 5; do
	export IR_RESUME_RC=$rc IR_INVALIDATE_RC=1
	ir_case "--resume exit $rc, --invalidate fails too: the boot stops" \
		"root=/dev/vda suspend2.resume=UUID=typo:1" \
		"--resume $base --set resume_location=UUID=typo:1
--invalidate $base --set resume_location=UUID=typo:1
STOP"
done
export IR_RESUME_RC=2 IR_INVALIDATE_RC=0
ir_case "--resume exit 2, the image invalidated: the boot goes on" \
	"root=/dev/vda" "--resume $base
--invalidate $base"
export IR_RESUME_RC=3 IR_INVALIDATE_RC=10
ir_case "--invalidate: a profile with no target (exit 10): the boot goes on" \
	"root=/dev/vda" "--resume $base
--invalidate $base"
export IR_RESUME_RC=10 IR_INVALIDATE_RC=1
ir_case "--resume: a profile with no target (exit 10): on, no invalidate" \
	"root=/dev/vda" "--resume $base"
export IR_RESUME_RC=3 IR_INVALIDATE_RC=3
ir_case "--invalidate exit 3 (unknown profile, config error): the boot stops" \
	"root=/dev/vda suspend2.profile=typo" "--resume -c /etc/hibernate.conf -p typo
--invalidate -c /etc/hibernate.conf -p typo
STOP"
# --resume exits 8: an encrypted image left locked is invalidated; when
# that fails, the boot stops as for 9 (SUSPEND2_LOCKED=keep: kept, on).
export IR_RESUME_RC=8 IR_INVALIDATE_RC=0
ir_case "a locked image invalidated: the boot goes on" \
	"root=/dev/vda" "--resume $base
--invalidate $base"
export IR_INVALIDATE_RC=1
ir_case "a locked image that cannot be invalidated stops the boot" \
	"root=/dev/vda" "--resume $base
--invalidate $base
STOP"
for s in premount dracut; do
	sed "s|^SUSPEND2_LOCKED=invalidate\$|SUSPEND2_LOCKED=keep|" \
		"$T/ir/$s" >"$T/ir/$s.keep"
done
sed "s|^SUSPEND2_LOCKED=invalidate\$|SUSPEND2_LOCKED=keep|" \
	"$T/ir/resume.sh" >"$T/ir/resume.sh.keep"
sed "s|$T/ir/resume.sh\$|$T/ir/resume.sh.keep|" "$T/ir/dracut" >"$T/ir/dracut.keep"
echo root=/dev/vda >"$T/ir/cmdline"
for s in premount dracut; do
	: >"$IR_LOG"
	sh "$T/ir/$s.keep" >/dev/null 2>&1
	if [[ $(cat "$IR_LOG") == "--resume $base" ]]; then
		pass "$s: SUSPEND2_LOCKED=keep: a locked image kept, the boot goes on"
	else
		fail "$s: SUSPEND2_LOCKED=keep: ran '$(cat "$IR_LOG")'"
	fi
done
unset IR_RESUME_RC IR_INVALIDATE_RC

# The report says the program's name like every message, not the module's.
fake_tree "$CFS"
mkdir -p "$CFS/profiles/default"
fake_profile "$CFS" default
echo tested >"$CFS/results/status"
echo yes >"$CFS/results/verified"
echo default >"$CFS/results/profile"
expect_rc "--test against the fake tree" 0 \
	"$HIB" -c "$T/i.conf" --configfs "$CFS" --test -f
check "report: 'hibernate: profile ...' first" \
	test "$(head -n 1 "$T/out")" = "hibernate: profile 'default': tested"
check "--test: one program name" one_name

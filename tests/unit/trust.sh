#!/bin/bash
# Trust and truth, with the real binary: root acts on no file that
# others could have written (the configuration, a module, a key
# directory), never overwrites a mounted filesystem, and a dry run does
# nothing real.  Each section is one property of README's "What we
# guarantee".
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"
type skip >/dev/null 2>&1 || skip() { echo "ok - # SKIP $*"; }

export HIBERNATE_SYSROOT=$T
mkdir -p "$T/run"
CFS=$T/cfs
D=$T/etc/systemd/system/systemd-hibernate.service.d/suspend2.conf

fake_tree() {
	rm -rf "$CFS"
	mkdir -p "$CFS/profiles/default" "$CFS/results"
	echo idle >"$CFS/state"
	echo "suspend2 0.1 image-format 1" >"$CFS/version"
	printf 'compressors: none lzo lz4\nwriters: swap swapfile file bdev\nchecksums: none crc32c\npowerdown: shutdown platform reboot\nactions: hibernate test resume invalidate\n' >"$CFS/capabilities"
	: >"$CFS/profile"
	: >"$CFS/action"
	fake_profile "$CFS" default
	echo tested >"$CFS/results/status"
	echo yes >"$CFS/results/verified"
}

nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}
root=no
[[ $(id -u) == 0 ]] && command -v setpriv >/dev/null && root=yes

# The block device of the root filesystem (or the disk holding it).
rootdev=$(awk '$5 == "/" { print $3; exit }' /proc/self/mountinfo)
rootnode=
if [[ -n $rootdev && -e /sys/dev/block/$rootdev ]]; then
	rootnode=/dev/$(basename "$(readlink -f "/sys/dev/block/$rootdev")")
fi
[[ -b $rootnode ]] || rootnode=

# ---- 1. A configuration others may write is not read; overwrite_in_use
# never names a mounted filesystem's device.
if [[ -n $rootnode ]]; then
	tgt=$rootnode
else
	tgt=/dev/null
fi
printf '[default]\nwriter = bdev\ntarget = %s\nforce = yes\noverwrite_in_use = %s\n' \
	"$tgt" "$tgt" >"$T/open.conf"
chmod 0666 "$T/open.conf"
fake_tree
expect_rc "a 0666 configuration: the dry run exits 7" 7 \
	"$HIB" -c "$T/open.conf" --configfs "$CFS" --test -n -q
check "... and says why and the fix, even with -q" grep -q \
	"^hibernate: $T/open.conf: refused: $T/open.conf is owned by root, uid 0, mode 0666 (writable by group and others); it must be owned by root and writable by no one else: chmod go-w $T/open.conf; nothing was read from it" "$T/err"
check "... the dry run notes the refusal" grep -q \
	"^# check: configuration $T/open.conf: refused: " "$T/out"
expect_rc "a 0666 configuration: the real run exits 7" 7 \
	"$HIB" -c "$T/open.conf" --configfs "$CFS" --test -q
check "... and writes nothing" test ! -s "$CFS/action" -a ! -s "$CFS/profiles/default/target"
expect_rc "a 0666 configuration: --list-profiles exits 7" 7 \
	"$HIB" -c "$T/open.conf" --list-profiles
expect_rc "a 0666 configuration: --install-systemd exits 7" 7 \
	"$HIB" --install-systemd -c "$T/open.conf" -q
check "... says why" grep -q "$T/open.conf: refused: .*mode 0666" "$T/err"
check "... and installs nothing" test ! -e "$D"
chmod 0664 "$T/open.conf"
expect_rc "a 0664 configuration: the dry run exits 7" 7 \
	"$HIB" -c "$T/open.conf" --configfs "$CFS" --test -n
if [[ $root == yes ]]; then
	chmod 0644 "$T/open.conf"
	chown 65534 "$T/open.conf"
	expect_rc "a configuration owned by another user: root's dry run exits 7" 7 \
		"$HIB" -c "$T/open.conf" --configfs "$CFS" --test -n
	check "... names the owner and the fix" grep -q \
		"$T/open.conf is owned by uid 65534, mode 0644 (not root).*chown root $T/open.conf" "$T/err"
	expect_rc "... --install-systemd exits 7" 7 \
		"$HIB" --install-systemd -c "$T/open.conf"
	check "... and installs nothing" test ! -e "$D"
	chown 0 "$T/open.conf"
else
	skip "not root: a configuration owned by another user"
fi

if [[ -n $rootnode ]]; then
	# Root's own file, naming the mounted root disk: still refused.
	chmod 0644 "$T/open.conf"
	fake_tree
	expect_rc "overwrite_in_use = the mounted root disk $rootnode: the dry run exits 1" 1 \
		"$HIB" -c "$T/open.conf" --configfs "$CFS" --test -n -q
	check "... the error shows with -q, naming the mount" grep -q \
		"target $rootnode is in use: .*is mounted on /; it holds a mounted filesystem, which the image would destroy" "$T/err"
	check "... the dry run says overwrite_in_use cannot confirm it" grep -q \
		"^# check: target $rootnode: .*mounted on /.*: FAILED, overwrite_in_use cannot confirm a mounted filesystem" "$T/out"
	expect_rc "overwrite_in_use = the mounted root disk: the real run exits 1" 1 \
		"$HIB" -c "$T/open.conf" --configfs "$CFS" --test -q
	check "... and writes nothing" test ! -s "$CFS/action" -a ! -s "$CFS/profiles/default/target"
else
	skip "root is not on a block device here: overwrite_in_use of the mounted root disk"
fi

# A mounted loop device, and one that is only active swap: the first is
# refused whatever overwrite_in_use says, the second written when it
# names it, with a warning that -q does not hide.
loop=
if [[ $root == yes ]] && command -v mkfs.ext4 >/dev/null &&
	truncate -s 32M "$T/fs.img" && mkfs.ext4 -q -F "$T/fs.img" &&
	loop=$(losetup -f --show "$T/fs.img" 2>/dev/null) &&
	mkdir -p "$T/mnt" && mount "$loop" "$T/mnt" 2>/dev/null; then
	printf '[default]\nwriter = bdev\ntarget = %s\nforce = 1\noverwrite_in_use = %s\n' \
		"$loop" "$loop" >"$T/loop.conf"
	fake_tree
	expect_rc "overwrite_in_use = a mounted loop device: the dry run exits 1" 1 \
		"$HIB" -c "$T/loop.conf" --configfs "$CFS" --test -n -f
	check "... naming the mount point" grep -q "is mounted on $T/mnt; it holds a mounted filesystem" "$T/err"
	umount "$T/mnt"
	if mkswap -q "$loop" >/dev/null 2>&1 && swapon "$loop" 2>/dev/null; then
		fake_tree
		expect_rc "overwrite_in_use = an active swap loop device, force = 1: exits 0" 0 \
			"$HIB" -c "$T/loop.conf" --configfs "$CFS" --test -n -f -q
		check "... the warning shows with -q" grep -q \
			"^hibernate: warning: target $loop is in use (is active swap ($loop)); writing the image there anyway, as overwrite_in_use names it" "$T/err"
		swapoff "$loop"
	else
		skip "swapon refused here: overwrite_in_use of an active swap device"
	fi
	losetup -d "$loop"
else
	[[ -n $loop ]] && losetup -d "$loop"
	skip "not root, or no loop device: overwrite_in_use of a mounted loop device"
fi

# ---- 2. Every action honours --dry-run and --json, or refuses them
# (exit 2) before it does anything.
E=$T/etc/systemd/system-sleep
mkdir -p "$E"
# shellcheck disable=SC2016 # the hook's own $1 and $2
printf '#!/bin/sh\necho "$1 $2" >>%s\n' "$T/slept" >"$E/10mark"
chmod 0755 "$E/10mark"
rm -f "$T/slept"
expect_rc "--system-sleep pre --dry-run exits 0" 0 "$HIB" --system-sleep pre --dry-run
check "... runs no hook" test ! -e "$T/slept"
check "... says which it would run, with what" \
	grep -qx "would run system-sleep hook $E/10mark pre hibernate (SYSTEMD_SLEEP_ACTION=hibernate)" "$T/out"
printf '#!/bin/sh\necho open >>%s\n' "$T/slept" >"$E/20open"
chmod 0777 "$E/20open"
expect_rc "--system-sleep post --dry-run, a hook others may write: exits 7 as the real run" 7 \
	"$HIB" --system-sleep post suspend-then-hibernate -n
check "... runs no hook, says which it would refuse" \
	sh -c "test ! -e '$T/slept' && grep -q '^# check: system-sleep hook $E/20open: refused: .*chmod go-w $E/20open' '$T/out'"
expect_rc "... and the real run exits 7" 7 "$HIB" --system-sleep post
rm -f "$E/20open" "$T/slept"
expect_rc "--system-sleep pre --json: exit 2" 2 "$HIB" --system-sleep pre --json
check "... runs no hook, says why" \
	sh -c "test ! -e '$T/slept' && grep -q -- '--json: --system-sleep prints no JSON' '$T/err'"
expect_rc "--install-systemd --json: exit 2" 2 "$HIB" --install-systemd --json
check "... installs nothing" test ! -e "$D"
expect_rc "--install-systemd -n --json: exit 2" 2 "$HIB" --install-systemd -n --json
mkdir -m 0700 "$T/keys"
expect_rc "--setup-key --json: exit 2" 2 env HIBERNATE_KEYDIR="$T/keys" \
	"$HIB" --setup-key k --json --kdf insecure-test --passphrase-file /dev/null
check "... makes no key" test -z "$(ls -A "$T/keys")"
# A real run's --json is one JSON object whatever happens.
printf '[default]\nwriter = file\ntarget = %s\n' "$T/nosuch" >"$T/j.conf"
for a in --resume --invalidate --test; do
	fake_tree
	"$HIB" -c "$T/j.conf" --configfs "$CFS" $a --json >"$T/out" 2>"$T/err"
	rc=$?
	check "$a --json, a missing target (exit $rc): one JSON object with that exit status" \
		python3 -c 'import json, sys
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
assert d["exit_status"] == int(sys.argv[2]) and d["dry_run"] is False, d' "$T/out" "$rc"
done

# ---- 5. --setup-key: the key directory is root's own directory, never a
# link or a shared one; -p names a profile; Ctrl-Z at the prompt leaves
# the terminal with echo on, and fg asks again with echo off.
printf 'pass\n' >"$T/pass"
chmod 600 "$T/pass"
mkdir -m 0755 "$T/victim"
ln -s "$T/victim" "$T/keylink"
expect_rc "--setup-key, the key directory a symbolic link: exit 7" 7 \
	env HIBERNATE_KEYDIR="$T/keylink" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
check "... says so" grep -q "key directory $T/keylink is a symbolic link" "$T/err"
check "... the link's target neither chmod'ed nor written" \
	test "$(stat -c %a "$T/victim")" = 755 -a -z "$(ls -A "$T/victim")"
mkdir -m 1777 "$T/shared"
expect_rc "--setup-key, the key directory writable by others (as /tmp): exit 7" 7 \
	env HIBERNATE_KEYDIR="$T/shared" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
check "... names the mode and the fix" grep -q "$T/shared is owned by root, uid 0, mode 1777 (writable by group and others)" "$T/err"
check "... left as it was" test "$(stat -c %a "$T/shared")" = 1777 -a -z "$(ls -A "$T/shared")"
if [[ $root == yes ]]; then
	mkdir -m 0700 "$T/theirs"
	chown 65534 "$T/theirs"
	expect_rc "--setup-key, the key directory another user's: exit 7" 7 \
		env HIBERNATE_KEYDIR="$T/theirs" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
	check "... chown root in the message, nothing written" \
		sh -c "grep -q 'owned by uid 65534, mode 0700 (not root).*chown root $T/theirs' '$T/err' && test -z \"\$(ls -A '$T/theirs')\""
else
	skip "not root: a key directory owned by another user"
fi
# Every directory above the key directory, up to /, is root's alone too,
# sticky or not (as sshd judges those above authorized_keys): whoever may
# rename or replace one puts a key directory of their own in its place.
for m in 0777 0770 0757; do
	rm -rf "$T/above"
	mkdir -m "$m" "$T/above"
	mkdir -m 0700 "$T/above/keys"
	expect_rc "--setup-key, the key directory's parent mode $m: exit 7" 7 \
		env HIBERNATE_KEYDIR="$T/above/keys" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
	check "... names the parent, its mode and the fix" grep -q \
		"^hibernate: key directory $T/above/keys: a directory above it is not root's alone: $T/above is owned by root, uid 0, mode $m (writable by .*chmod go-w $T/above; nothing was made" "$T/err"
	check "... left as it was" test "$(stat -c %a "$T/above")" = "${m#0}" -a -z "$(ls -A "$T/above/keys")"
done
# Not there yet: refused before it is made.
rmdir "$T/above/keys"
expect_rc "--setup-key, a new key directory under a directory others may write: exit 7" 7 \
	env HIBERNATE_KEYDIR="$T/above/keys" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
check "... names the parent" grep -q "key directory $T/above/keys: a directory above it is not root's alone: $T/above is owned by root" "$T/err"
check "... makes no key directory" test ! -e "$T/above/keys"
# Further up, the first one that is wrong is named.
rm -rf "$T/above"
mkdir -m 0755 "$T/above" "$T/above/a" "$T/above/a/b"
chmod 0775 "$T/above"
expect_rc "--setup-key, a directory two above the key directory writable by its group: exit 7" 7 \
	env HIBERNATE_KEYDIR="$T/above/a/b/keys" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
check "... names it" grep -q "key directory $T/above/a/b/keys: a directory above it is not root's alone: $T/above is owned by root, uid 0, mode 0775 (writable by its group)" "$T/err"
check "... makes nothing" test -z "$(ls -A "$T/above/a/b")"
# A sticky one, as /tmp, is no better: others may make a name there first.
expect_rc "--setup-key, the key directory under a sticky directory others may write (as /tmp): exit 7" 7 \
	env HIBERNATE_KEYDIR="$T/shared/keys" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
check "... says so" grep -q "key directory $T/shared/keys: a directory above it is not root's alone: $T/shared is mode 1777 (writable by group and others, sticky as /tmp is)" "$T/err"
check "... makes nothing" test -z "$(ls -A "$T/shared")"
# Through a symbolic link of root's: the directory it leads to counts.
rm -rf "$T/above"
mkdir -m 0777 "$T/above"
ln -s "$T/above" "$T/abovelink"
expect_rc "--setup-key, the key directory's parent a link to a directory others may write: exit 7" 7 \
	env HIBERNATE_KEYDIR="$T/abovelink/keys" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
check "... names it" grep -q "a directory above it is not root's alone: $T/abovelink is owned by root, uid 0, mode 0777" "$T/err"
check "... makes nothing" test -z "$(ls -A "$T/above")"
rm -f "$T/abovelink"
if [[ $root == yes ]]; then
	rm -rf "$T/above"
	mkdir -m 0755 "$T/above"
	mkdir -m 0700 "$T/above/keys"
	chown 65534 "$T/above"
	expect_rc "--setup-key, the key directory's parent another user's: exit 7" 7 \
		env HIBERNATE_KEYDIR="$T/above/keys" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
	check "... names the parent, its owner and chown root" grep -q \
		"^hibernate: key directory $T/above/keys: a directory above it is not root's alone: $T/above is owned by uid 65534, mode 0755 (not root).*chown root $T/above" "$T/err"
	check "... nothing written" test -z "$(ls -A "$T/above/keys")"
else
	skip "not root: a key directory whose parent another user owns"
fi
# Root's alone all the way up: made.
rm -rf "$T/above"
mkdir -m 0755 "$T/above"
expect_rc "--setup-key, every directory above the key directory root's alone: exit 0" 0 \
	env HIBERNATE_KEYDIR="$T/above/keys" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/pass"
check "... the key made" test -s "$T/above/keys/k.pub" -a -s "$T/above/keys/k.sec"
printf '[default]\n[laptop]\nencryption = aes-gcm\nkey = keyring:lap\n' >"$T/k.conf"
mkdir -m 0700 "$T/keys5"
expect_rc "--setup-key -p naming no profile: exit 3" 3 \
	env HIBERNATE_KEYDIR="$T/keys5" "$HIB" -c "$T/k.conf" -p laptpo --setup-key --kdf insecure-test --passphrase-file "$T/pass"
check "... with a did you mean" grep -q "no profile 'laptpo' (did you mean 'laptop'?)" "$T/err"
check "... and no key made" test -z "$(ls -A "$T/keys5")"
expect_rc "--setup-key -p laptop: the profile's key" 0 \
	env HIBERNATE_KEYDIR="$T/keys5" "$HIB" -c "$T/k.conf" -p laptop --setup-key --kdf insecure-test --passphrase-file "$T/pass"
check "... lap.pub made" test -s "$T/keys5/lap.pub"
if python3 "$TOP/tests/unit/ttystop.py" /usr/bin/env HIBERNATE_KEYDIR="$T/keys5" \
	"$HIB" --setup-key z --kdf insecure-test >"$T/tty.out" 2>&1; then
	pass "--setup-key: Ctrl-Z at the prompt gives the terminal back with echo on; fg asks again with echo off"
else
	fail "--setup-key: Ctrl-Z at the prompt: $(head -c 600 "$T/tty.out")"
fi
check "... and the key was made" test -s "$T/keys5/z.pub"

# ---- 6. A module given by a relative path is checked as an absolute
# one; the live configfs tree by another spelling keeps its safeguards.
printf '[default]\nwriter = file\ntarget = %s\n' "$T/full6" >"$T/m.conf"
dd if=/dev/zero of="$T/full6" bs=64k count=4 status=none
chmod 0600 "$T/full6"
: >"$T/s2.ko"
chmod 0666 "$T/s2.ko"
fake_tree
(cd "$T" && "$HIB" -c m.conf --configfs "$CFS" --module ./s2.ko --test -f -n) >"$T/out" 2>"$T/err"
check "--module ./s2.ko, writable by others: the dry run exits 7 (exit $?)" test $? = 7
check "... naming the .ko and the fix" grep -q "refusing to load ./s2.ko: ./s2.ko is owned by root, uid 0, mode 0666 (writable by group and others).*chmod go-w ./s2.ko" "$T/err"
(cd "$T" && "$HIB" -c m.conf --configfs "$CFS" --module ./s2.ko --test -f) >"$T/out" 2>"$T/err"
check "--module ./s2.ko, writable by others: the real run exits 7 (exit $?)" test $? = 7
check "... and writes nothing" test ! -s "$CFS/action"
chmod 0644 "$T/s2.ko"
(cd "$T" && "$HIB" -c m.conf --configfs "$CFS" --module ./s2.ko --test -f -n) >"$T/out" 2>"$T/err"
check "--module ./s2.ko, root's alone: the dry run exits 0 (exit $?)" test $? = 0
for live in /sys/kernel/config/./suspend2 /sys/kernel/config//suspend2/ \
	/sys/kernel/../kernel/config/suspend2; do
	expect_rc "--configfs $live is the live tree: HIBERNATE_SYSROOT refused (exit 2)" 2 \
		"$HIB" -c "$T/m.conf" --configfs "$live" --test -n
	check "... says so" grep -q "HIBERNATE_SYSROOT is set ($T): it is for tests and image builds, not for a run against the live configfs" "$T/err"
done
if [[ $root == yes ]]; then
	expect_rc "--configfs /sys/kernel/config/./suspend2, not root: exit 7 as the live tree" 7 \
		nobody env -u HIBERNATE_SYSROOT "$HIB" -c "$TOP/etc/hibernate.conf" \
		--configfs /sys/kernel/config/./suspend2 --test
	check "... says root is needed" grep -q "must be run as root" "$T/err"
else
	skip "not root: --configfs /sys/kernel/config/./suspend2 as a plain user"
fi

# ---- 7. A configuration or passphrase file that is a FIFO or a device
# is refused at once, never waited on.
mkfifo -m 0644 "$T/fifo.conf" "$T/fifo.pass"
expect_rc "-c FIFO: refused at once (exit 3)" 3 \
	timeout 10 "$HIB" -c "$T/fifo.conf" --list-profiles
check "... says it is no regular file" grep -q "^hibernate: $T/fifo.conf: not a regular file (a FIFO); nothing was read from it" "$T/err"
expect_rc "-c FIFO, a dry run: refused at once (exit 3)" 3 \
	timeout 10 "$HIB" -c "$T/fifo.conf" --configfs "$CFS" --test -n
expect_rc "-c /dev/zero: refused at once (exit 3)" 3 \
	timeout 10 "$HIB" -c /dev/zero --list-profiles
check "... says it is a character device" grep -q "^hibernate: /dev/zero: not a regular file (a character device)" "$T/err"
expect_rc "-c a directory: refused (exit 3)" 3 "$HIB" -c "$T" --list-profiles
check "... says it is a directory" grep -q "^hibernate: $T: not a regular file (a directory)" "$T/err"
mkdir -m 0700 "$T/keys7"
expect_rc "--setup-key --passphrase-file FIFO: refused at once (exit 1)" 1 \
	timeout 10 env HIBERNATE_KEYDIR="$T/keys7" "$HIB" --setup-key k --kdf insecure-test --passphrase-file "$T/fifo.pass"
check "... says it is no regular file, makes no key" \
	sh -c "grep -q '$T/fifo.pass: not a regular file (a FIFO)' '$T/err' && test -z \"\$(ls -A '$T/keys7')\""
expect_rc "--setup-key --passphrase-file /dev/zero: refused at once (exit 1)" 1 \
	timeout 10 env HIBERNATE_KEYDIR="$T/keys7" "$HIB" --setup-key k --kdf insecure-test --passphrase-file /dev/zero

# ---- 8. An inheritance chain deeper than the limit is an error naming
# it, not a cut that resolves the profile without [default]'s target.
{
	printf '[default]\nwriter = file\ntarget = %s\n' "$T/full6"
	printf '[p1]\ninherit = default\n'
	for i in $(seq 2 70); do printf '[p%d]\ninherit = p%d\n' "$i" $((i - 1)); done
} >"$T/deep.conf"
fake_tree
expect_rc "inheritance 71 profiles deep: exit 3" 3 \
	"$HIB" -c "$T/deep.conf" --configfs "$CFS" -p p70 --test -f -n
check "... names the chain and the limit, at p64's inherit line" grep -q \
	"^hibernate: $T/deep.conf:131: key 'inherit': profile 'p64' inherits through 65 profiles, more than 64: p64 -> p63 -> p62 -> .* -> p1 -> default" "$T/err"
check "... blames no profile for a missing target" sh -c "! grep -q 'no target' '$T/err'"
expect_rc "... --list-profiles says so too (exit 3)" 3 "$HIB" -c "$T/deep.conf" --list-profiles

# ---- 9. --install-systemd checks every --set as a dry run would, and
# installs nothing when one is refused.
printf '[default]\nwriter = file\ntarget = %s\n' "$T/full6" >"$T/i.conf"
rm -rf "$T/etc/systemd/system"
isd() {
	local name=$1 want=$2
	shift 2
	expect_rc "--install-systemd $name: exit $want" "$want" \
		"$HIB" --install-systemd -c "$T/i.conf" "$@"
}
isd "--set compresor=lz4 (a typo)" 2 --set compresor=lz4
check "... with a did you mean" grep -q "^hibernate: --set: unknown key 'compresor' (did you mean 'compressor'?)" "$T/err"
check "... and installs nothing" test ! -e "$D"
isd "--set io_depth=0" 2 --set io_depth=0
check "... says the range" grep -q "^hibernate: --set: key 'io_depth': expected a value from 1 to 1024, got '0'" "$T/err"
isd "--set inherit=x" 2 --set inherit=x
isd "-n --set io_depth=0 (a dry run)" 2 -n --set io_depth=0
isd "--set compressor=brotli (no module offers it)" 3 --set compressor=brotli
check "... says what is offered" grep -q "key 'compressor': 'brotli' is not offered by the suspend2 module" "$T/err"
isd "--set encryption=aes-gcm without a key" 3 --set encryption=aes-gcm
check "... says a key is needed" grep -q "encryption aes-gcm needs key = keyring:NAME" "$T/err"
check "... and installs nothing" test ! -e "$D"
isd "--set compressor=lz4 --set io_depth=99" 0 --set compressor=lz4 --set io_depth=99
check "... installed with both" grep -q -- "--set compressor=lz4 --set io_depth=99" "$D"

# ---- 11. What the file says reaches the terminal escaped; a byte-order
# mark is skipped; a name that differs only in case is a typo.
printf '[default]\nco\033]0;owned\007mpressor = lz4\n[x\033[2J]\n' >"$T/esc.conf"
expect_rc "escape sequences in a key and a section name: exit 3" 3 \
	"$HIB" -c "$T/esc.conf" --list-profiles
check "... no control byte reaches the terminal" \
	sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$T/err'"
check "... the key shown escaped" grep -qF "unknown key 'co\\x1b]0;owned\\x07mpressor'" "$T/err"
printf '\357\273\277[default]\nwriter = file\ntarget = %s\n' "$T/full6" >"$T/bom.conf"
fake_tree
expect_rc "a configuration starting with a UTF-8 byte-order mark: the dry run exits 0" 0 \
	"$HIB" -c "$T/bom.conf" --configfs "$CFS" --test -f -n
check "... and its [default] is the profile" grep -qx "$CFS/profiles/default/target = $T/full6" "$T/out"
printf '[Default]\nwriter = file\ntarget = %s\n' "$T/full6" >"$T/case.conf"
expect_rc "[Default]: exit 3" 3 "$HIB" -c "$T/case.conf" --configfs "$CFS" --test -f -n
check "... did you mean [default]" grep -q "case.conf:1: section \[Default\] differs from \[default\] only in case: names are case-sensitive (did you mean '\[default\]'?)" "$T/err"
printf '[laptop]\nwriter = file\ntarget = %s\n' "$T/full6" >"$T/case.conf"
expect_rc "-p LAPTOP for [laptop]: exit 3" 3 "$HIB" -c "$T/case.conf" --configfs "$CFS" -p LAPTOP --test -f -n
check "... did you mean laptop" grep -q "no profile 'LAPTOP' (did you mean 'laptop'?)" "$T/err"

# ---- 3. No hint advises a destructive command (mkswap, swapon) for a
# device holding a mounted filesystem, whatever the writer.
if [[ -n $rootnode ]]; then
	for extra in "" "swap_on_demand = yes"; do
		printf '[default]\nwriter = swap\ntarget = %s\n%s\n' "$rootnode" "$extra" >"$T/sw.conf"
		fake_tree
		expect_rc "writer = swap on the mounted root disk${extra:+, $extra}: the dry run exits 1" 1 \
			"$HIB" -c "$T/sw.conf" --configfs "$CFS" --test -n
		check "... says it is mounted" grep -q "target $rootnode is in use: .*is mounted on /; it holds a mounted filesystem" "$T/err"
		check "... and advises neither mkswap nor swapon on it" \
			sh -c "! grep -q 'mkswap\|swapon $rootnode\|swapon(2)' '$T/err'"
		expect_rc "... the real run exits 1 too, with --force" 1 \
			"$HIB" -c "$T/sw.conf" --configfs "$CFS" --test -f
		check "... nothing written" test ! -s "$CFS/action"
	done
else
	skip "root is not on a block device here: writer = swap on the mounted root disk"
fi

# ---- 8. A target file holds root's memory image: one another user owns,
# or that others may read or write, is refused (exit 7) in the dry run and
# the real run, with the fix; so is one under a directory others may write,
# and a swap file swap_on_demand would enable.
mkdir -p "$T/tgt"
dd if=/dev/zero of="$T/tgt/img" bs=64k count=4 status=none
printf '[default]\nwriter = file\ntarget = %s\n' "$T/tgt/img" >"$T/tg.conf"
for m in 0644 0640 0604 0620; do
	chmod "$m" "$T/tgt/img"
	fake_tree
	expect_rc "target file mode $m: the dry run exits 7" 7 \
		"$HIB" -c "$T/tg.conf" --configfs "$CFS" --test -f -n
	check "... a failed check" grep -q "^# check: target $T/tgt/img: not root's alone: FAILED" "$T/out"
	expect_rc "target file mode $m: the real run exits 7" 7 \
		"$HIB" -c "$T/tg.conf" --configfs "$CFS" --test -f
	check "... saying chown root and chmod 0600" grep -q "$T/tg.conf:3: key 'target': refusing the target $T/tgt/img: it is owned by root, uid 0, mode $m; .*chown root $T/tgt/img; chmod 0600 $T/tgt/img" "$T/err"
	check "... and writes nothing" test ! -s "$CFS/action"
done
chmod 0600 "$T/tgt/img"
chown 65534 "$T/tgt/img"
fake_tree
expect_rc "target file of another user: the real run exits 7" 7 \
	"$HIB" -c "$T/tg.conf" --configfs "$CFS" --test -f
check "... naming the owner" grep -q "refusing the target $T/tgt/img: it is owned by uid 65534, mode 0600" "$T/err"
chown 0 "$T/tgt/img"
chmod 0777 "$T/tgt"
fake_tree
expect_rc "target file in a world-writable directory: the dry run exits 7" 7 \
	"$HIB" -c "$T/tg.conf" --configfs "$CFS" --test -f -n
check "... naming the directory" grep -q "refusing the target $T/tgt/img: $T/tgt is owned by .*mode 0777" "$T/err"
chmod 0755 "$T/tgt"
fake_tree
expect_rc "target file root's alone: the real run exits 0" 0 \
	"$HIB" -c "$T/tg.conf" --configfs "$CFS" --test -f
expect_rc "... --invalidate of a target file others may read is not refused" 0 \
	sh -c "chmod 0644 '$T/tgt/img' && echo idle >'$CFS/state' && '$HIB' -c '$T/tg.conf' --configfs '$CFS' --invalidate"
chmod 0644 "$T/tgt/img"
printf '[default]\nwriter = swapfile\ntarget = %s\nswap_on_demand = yes\n' "$T/tgt/img" >"$T/sod.conf"
fake_tree
expect_rc "swap_on_demand with a swap file others may read: the dry run exits 7" 7 \
	"$HIB" -c "$T/sod.conf" --configfs "$CFS" --test -f -n
check "... before swapon" grep -q "swap_on_demand: refusing the target $T/tgt/img: .*chmod 0600 $T/tgt/img" "$T/err"
check "... none would run" sh -c "! grep -q 'would enable swap' '$T/out'"

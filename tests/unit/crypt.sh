#!/bin/bash
# Encrypted images from the command's side, against a fake configfs tree
# and a key directory under $T: a profile with encryption needs a key,
# its public key file and its authentication key (dry run and real run
# alike), --setup-key writes the three files with the right modes and
# refuses to replace them, a cycle hands the module one 64-byte logon key,
# --resume of an encrypted image that does not unlock leaves it alone
# (exit 8), a signal at a prompt leaves the terminal's echo on (on a
# pseudo-terminal, tests/unit/ttysig.py), and the initramfs hooks never
# copy the authentication key and add the TPM 2.0 drivers.  key = tpm:
# no key file, no keyring key, no passphrase, only a module whose
# capabilities offer it; an image of a key scheme or an encryption this
# version does not know is left alone without a prompt, and so is an
# image of a keyring key with a profile of key = tpm.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T
export HIBERNATE_KEYDIR=$T/keys
mkdir -p "$T/run"
CFS=$T/cfs
# The capabilities' key lines (printf %b), NOFILE for no capabilities file;
# what results/encryption says.
CAPS_KEYS='keys: keyring'
RES_ENC=

fake_tree() {
	rm -rf "$CFS"
	mkdir -p "$CFS/profiles/p" "$CFS/results"
	echo idle >"$CFS/state"
	echo "suspend2 0.1 image-format 2" >"$CFS/version"
	printf 'compressors: none lzo lz4\nwriters: swap swapfile file bdev\nchecksums: none crc32c\nencryption: none aes-gcm chacha20-poly1305\n%b\npowerdown: shutdown platform reboot\nactions: hibernate test resume invalidate\n' "$CAPS_KEYS" >"$CFS/capabilities"
	[[ $CAPS_KEYS != NOFILE ]] || rm "$CFS/capabilities"
	echo "$RES_ENC" >"$CFS/results/encryption"
	: >"$CFS/profile"
	: >"$CFS/action"
	fake_profile "$CFS" p
	echo tested >"$CFS/results/status"
	echo yes >"$CFS/results/verified"
}

# run_both NAME WANT ARGS...: dry run and real run exit with WANT.
run_both() {
	local name=$1 want=$2 drc rrc
	shift 2
	fake_tree
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p -n "$@" >"$T/dry.out" 2>"$T/dry.err"
	drc=$?
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p "$@" >"$T/real.out" 2>"$T/real.err"
	rrc=$?
	if [[ $drc == "$want" && $rrc == "$want" ]]; then
		pass "$name: dry run and real run exit $want"
	else
		fail "$name: dry run exit $drc, real run exit $rrc, wanted $want"
		sed 's/^/    /' "$T/dry.err" "$T/real.err" | head -10
	fi
}

conf() {
	{
		printf '[default]\nwriter = file\ntarget = %s\n[p]\n' "$T/full"
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"$T/c.conf"
	chmod 0644 "$T/c.conf"
}

mode() { stat -c %a "$1"; }

dd if=/dev/zero of="$T/full" bs=64k count=4 status=none
chmod 0600 "$T/full"

conf "encryption = aes-gcm"
run_both "encryption without key" 3 --test -f
check "without key: the message says what to set" grep -q \
	"c.conf:5: profile p: encryption aes-gcm needs key = keyring:NAME (create one with hibernate --setup-key)" "$T/real.err"
conf "encryption = aes-gcm" "key = keyring:t"
run_both "encryption, no public key file" 3 --test -f
check "no .pub: the message names the file" grep -q \
	"cannot read the public key $T/keys/t.pub: No such file or directory (create it with hibernate --setup-key)" "$T/real.err"
check "no .pub: nothing written to action" test ! -s "$CFS/action"
conf "key = tpm:0x81000001"
run_both "key = tpm:0x81000001" 3 --test -f
check "tpm:...: refused with file and line" grep -qx \
	"hibernate: $T/c.conf:5: key 'key': expected keyring:NAME or tpm, got 'tpm:0x81000001'" "$T/real.err"
conf "key = TPM"
run_both "key = TPM" 3 --test -f
check "TPM: only the lower-case word" grep -q "c.conf:5: key 'key': expected keyring:NAME or tpm, got 'TPM'" "$T/real.err"
conf "compressor = lz4"
run_both "--set key=tpm:1" 2 --test -f --set key=tpm:1
check "--set key=tpm:1: said" grep -q "^hibernate: --set: key 'key': expected keyring:NAME or tpm, got 'tpm:1'$" "$T/real.err"

# key = tpm: the module makes the image key and seals it; no key file is
# looked at (there is no key directory yet, and one that would be
# refused is not read), nothing goes to the keyring, and only a module
# offering keys: tpm is asked.  The same exit for a dry run.
mkdir -m 0777 "$T/keys"
mkdir -p "$T/boot"
touch -d '-1 hour' "$T/boot/initrd.img-$(uname -r)"
conf "encryption = aes-gcm" "key = tpm   "
CAPS_KEYS='keys: keyring\ntpm: none'
run_both "key = tpm, the module offers keyring only" 3 --test -f
check "tpm refused: why, with the capabilities" grep -qx \
	"hibernate: $T/c.conf:6: profile p: key tpm is not offered: the kernel sees no TPM (none in this machine, turned off in the firmware, or its driver, tpm_tis or tpm_crb, not loaded); capabilities says: keys: keyring, tpm: none; nothing was frozen" "$T/real.err"
check "tpm refused: one message" test "$(wc -l <"$T/real.err")" = 1
check "tpm refused: the dry run fails the check" grep -qx \
	"# check: key tpm: not offered by the module (capabilities says: keys: keyring, tpm: none): FAILED" "$T/dry.out"
check "tpm refused: nothing written to action" test ! -s "$CFS/action"
CAPS_KEYS='keys: keyring tpm2\ntpm: 2.0'
run_both "key = tpm, keys: keyring tpm2 is not tpm" 3 --test -f
check "tpm2 is no tpm: capabilities quoted" grep -q "capabilities says: keys: keyring tpm2, tpm: 2.0; nothing was frozen" "$T/real.err"
CAPS_KEYS='tpm: 2.0'
run_both "key = tpm, an older module with no keys line" 3 --test -f
CAPS_KEYS='keys: keyring\ntpm: 1.2'
run_both "key = tpm, a TPM 1.2" 3 --test -f
check "TPM 1.2: refused, the tpm line quoted" grep -qx \
	"hibernate: $T/c.conf:6: profile p: key tpm is not offered: the TPM is a 1.2, and key tpm needs a TPM 2.0; capabilities says: keys: keyring, tpm: 1.2; nothing was frozen" "$T/real.err"
CAPS_KEYS=NOFILE
run_both "key = tpm, no capabilities file" 3 --test -f
check "no capabilities: said" grep -q "key tpm is not offered: the module does not say it can (no capabilities to read); cannot read $CFS/capabilities; nothing was frozen" "$T/real.err"
# The kernel's own reason, when capabilities carries it, is the one given.
CAPS_KEYS='keys: keyring\ntpm: 2.0\ntpm-refused: a kexec or crash kernel was loaded since boot, which moved PCR 4: reboot first'
run_both "key = tpm, the kernel says why not" 3 --test -f
check "kernel's reason: quoted" grep -qx \
	"hibernate: $T/c.conf:6: profile p: key tpm is not offered: a kexec or crash kernel was loaded since boot, which moved PCR 4: reboot first; capabilities says: keys: keyring, tpm: 2.0; nothing was frozen" "$T/real.err"
conf "encryption = none" "key = tpm"
run_both "key = tpm with encryption none: nothing to seal, not checked" 0 --test -f
conf "encryption = aes-gcm" "key = tpm"
CAPS_KEYS='keys: keyring tpm\ntpm: 2.0'
RES_ENC=aes-gcm
run_both "key = tpm, offered: no key file needed" 0 --test -f
check "tpm: key written as tpm" grep -qx tpm "$CFS/profiles/p/key"
check "tpm: encryption written" grep -qx aes-gcm "$CFS/profiles/p/encryption"
check "tpm: action test written" grep -qx test "$CFS/action"
check "tpm: said while testing" grep -qx \
	"hibernate: testing with profile 'p' (target $T/full, encryption aes-gcm, key sealed to the TPM)" "$T/real.err"
check "tpm: the report names the key" grep -qx \
	"  encryption               aes-gcm, key sealed to the TPM" "$T/real.out"
check "tpm: nothing refused" test "$(grep -c refus "$T/real.err")" = 0
check "tpm dry run: the encryption line" grep -qx \
	"# encryption: aes-gcm, key sealed to the TPM by the module (no key file)" "$T/dry.out"
check "tpm dry run: the capabilities checked" grep -qx \
	"# check: key tpm: offered by the module (capabilities says: keys: keyring tpm, tpm: 2.0)" "$T/dry.out"
check "tpm dry run: no logon key" test "$(grep -c 'logon key' "$T/dry.out")" = 0
check "tpm dry run: no key file named" test "$(grep -c "$T/keys" "$T/dry.out" "$T/dry.err" | awk -F: '{ n += $2 } END { print n }')" = 0
check "tpm dry run: the module seals" grep -qx \
	"# key tpm: no key to add to the keyring; the module makes the image key and seals it to the TPM" "$T/dry.out"
RES_ENC=
# Neither a key file nor the key directory is touched, nothing added to
# the keyring: seen through strace.
fake_tree
if can_strace "tpm: the key files untouched"; then
	strace -f -qq -e trace=add_key,open,openat,stat,lstat,newfstatat,statx,access,faccessat,faccessat2 \
		-o "$T/strace" "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --test -f >/dev/null 2>&1
	check "tpm: strace saw the configuration read" grep -q "$T/c.conf" "$T/strace"
	check "tpm: no add_key" test "$(grep -c 'add_key(' "$T/strace")" = 0
	check "tpm: the key directory never looked at" test "$(grep -c "$T/keys" "$T/strace")" = 0
	check "tpm: the initramfs never looked at" test "$(grep -c "$T/boot" "$T/strace")" = 0
fi
# --status: the profile's key reads as what it is; JSON keeps "tpm".
fake_tree
expect_rc "--status, key = tpm" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --status
check "--status: key sealed to the TPM" grep -qx "encryption:    aes-gcm, key sealed to the TPM (profile p)" "$T/out"
check "--status: the TPM the kernel sees" grep -qx "tpm:           2.0" "$T/out"
expect_rc "--status --json, key = tpm" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --status --json
check "--status --json: key tpm, capabilities" python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
assert s["keys"]["key"] == "tpm" and s["keys"]["encryption"] == "aes-gcm", s["keys"]
assert s["capabilities"]["keys"] == ["keyring", "tpm"], s["capabilities"]
assert s["capabilities"]["tpm"] == "2.0", s["capabilities"]' "$T/out"
# A dry run before the module is loaded (the live configfs, absent
# here) cannot see the capabilities: it says the real run checks them.
if [[ ! -e /sys/kernel/config/suspend2 ]]; then
	expect_rc "key = tpm, dry run, module not loaded" 0 env -u HIBERNATE_SYSROOT \
		-u HIBERNATE_KEYDIR "$HIB" -c "$T/c.conf" -p p --test -f -n
	check "module not loaded: the check is left to the real run" grep -qx \
		"# check: key tpm: the module is not loaded yet; the real run refuses unless its capabilities offer keys: tpm" "$T/out"
else
	skip "suspend2 is loaded here: the dry run before the module is loaded"
fi
CAPS_KEYS='keys: keyring'
rm -rf "$T/keys" "$T/boot"

# --setup-key.
conf "compressor = lz4"
printf 'pass one\n' >"$T/pass"
# A passphrase file is a secret: others may neither read nor write it.
for m in 644 640 604 620; do
	chmod "$m" "$T/pass"
	expect_rc "--setup-key, passphrase file mode $m: exit 7" 7 \
		"$HIB" -c "$T/c.conf" --setup-key t --kdf=insecure-test --passphrase-file "$T/pass"
	check "... says why, with chmod 600" grep -q "cannot read $T/pass: $T/pass is owned by root, uid 0, mode 0$m (open to .*chmod 600 $T/pass" "$T/err"
	check "... and makes no key" test ! -e "$T/keys/t.pub"
done
chmod 600 "$T/pass"
if [[ $(id -u) == 0 ]]; then
	chown 65534 "$T/pass"
	expect_rc "--setup-key, passphrase file of another user: exit 7" 7 \
		"$HIB" -c "$T/c.conf" --setup-key t --kdf=insecure-test --passphrase-file "$T/pass"
	check "... says chown root" grep -q "owned by uid 65534.*chown root $T/pass" "$T/err"
	chown 0 "$T/pass"
fi
rm -rf "$T/keys"
expect_rc "--setup-key t" 0 "$HIB" -c "$T/c.conf" --setup-key t --kdf=insecure-test --passphrase-file "$T/pass"
KDF_WARNING="hibernate: warning: --kdf insecure-test: the passphrase is hashed at libsodium's minimum cost, cheap to guess offline from the key file; for tests only"
check "--kdf insecure-test: one warning line, first" sh -c \
	"head -n 1 '$T/err' | grep -qxF \"$KDF_WARNING\" && test \$(grep -c 'insecure-test' '$T/err') = 1"
check "--setup-key: key id printed" grep -q "key 't' (id [0-9a-f]\{16\})" "$T/err"
check "--setup-key: ends saying to rebuild the running kernel's initramfs" sh -c "tail -n 1 '$T/err' | grep -q 'rebuild the initramfs now, .*update-initramfs -u -k $(uname -r) (or dracut -f)$'"
check "key directory 0700" test "$(mode "$T/keys")" = 700
check "t.sec 0600" test "$(mode "$T/keys/t.sec")" = 600
check "t.pub 0644" test "$(mode "$T/keys/t.pub")" = 644
check "t.auth 0600" test "$(mode "$T/keys/t.auth")" = 600
check "t.pub is 32 bytes" test "$(stat -c %s "$T/keys/t.pub")" = 32
check "t.auth is 32 bytes" test "$(stat -c %s "$T/keys/t.auth")" = 32
check "t.sec is 144 bytes" test "$(stat -c %s "$T/keys/t.sec")" = 144
check "--setup-key: names the authentication key" grep -q "authentication key $T/keys/t.auth" "$T/err"
check "t.sec starts with S2SK" test "$(head -c 4 "$T/keys/t.sec")" = S2SK
cp "$T/keys/t.pub" "$T/t.pub.old"
cp "$T/keys/t.auth" "$T/t.auth.old"
expect_rc "--setup-key t again: refused" 1 "$HIB" -c "$T/c.conf" --setup-key t --kdf=insecure-test --passphrase-file "$T/pass"
check "refused: images for the old key" grep -q "images written for the old key could no longer be resumed" "$T/err"
check "refused: key unchanged" cmp -s "$T/t.pub.old" "$T/keys/t.pub"
expect_rc "--setup-key t --force" 0 "$HIB" -c "$T/c.conf" --setup-key t --kdf=insecure-test --force --passphrase-file "$T/pass"
check "--force: a new key" test "$(cmp -s "$T/t.pub.old" "$T/keys/t.pub"; echo $?)" = 1
check "--force: a new authentication key" test "$(cmp -s "$T/t.auth.old" "$T/keys/t.auth"; echo $?)" = 1
: >"$T/empty"
chmod 600 "$T/empty"
expect_rc "--setup-key with an empty passphrase" 1 "$HIB" -c "$T/c.conf" --setup-key e --kdf=insecure-test --passphrase-file "$T/empty"
check "empty passphrase: refused" grep -q "empty passphrase refused" "$T/err"
expect_rc "--setup-key bad/name" 2 "$HIB" --setup-key bad/name
expect_rc "--kdf nonsense" 2 "$HIB" --setup-key x --kdf=fast
check "... names the values" grep -q "^hibernate: --kdf: expected 'moderate' or 'insecure-test', got 'fast'" "$T/err"
# --kdf min, the old name of insecure-test: a usage error that says the new
# name and why, before anything is made.
for a in --kdf=min "--kdf min"; do
	# shellcheck disable=SC2086 # "--kdf min" is two words
	expect_rc "$a: exit 2" 2 "$HIB" -c "$T/c.conf" --setup-key m $a --passphrase-file "$T/pass"
	check "... says the new name and why" grep -q \
		"^hibernate: --kdf min is now --kdf insecure-test: it hashes the passphrase at libsodium's minimum cost, cheap to guess offline, so it is for tests only" "$T/err"
	check "... makes no key" test ! -e "$T/keys/m.pub"
done
# -q hides warnings, not this one.
expect_rc "--kdf insecure-test -q" 0 "$HIB" -c "$T/c.conf" -q --setup-key q --kdf insecure-test --passphrase-file "$T/pass"
check "... still warns" grep -qxF "$KDF_WARNING" "$T/err"
# The real key directory (HIBERNATE_KEYDIR unset or empty): refused
# without --force.  HIBERNATE_SYSROOT=$T puts it at $T/etc/suspend2/keys
# (hib_path()), never in the real /etc.
rm -rf "$T/etc/suspend2"
[[ -d $T/etc ]] || mkdir -m 0755 "$T/etc"
for unset in "-u HIBERNATE_KEYDIR" "HIBERNATE_KEYDIR="; do
	# shellcheck disable=SC2086 # two words, or one
	expect_rc "--kdf insecure-test, the real key directory ($unset): exit 2" 2 \
		env $unset "$HIB" -c "$T/c.conf" --setup-key r --kdf insecure-test --passphrase-file "$T/pass"
	check "... warns" grep -qxF "$KDF_WARNING" "$T/err"
	check "... says why, naming the directory, --kdf moderate and --force" grep -q \
		"^hibernate: refusing --kdf insecure-test for the real key directory $T/etc/suspend2/keys: a key there would be cheap to brute-force; use --kdf moderate (the default), or add --force if this is a test machine; nothing was made" "$T/err"
	check "... makes nothing" test ! -e "$T/etc/suspend2"
done
# Only when the refusal named the directory under $T: else --force
# could write into the real /etc.
if grep -q "real key directory $T/etc/suspend2/keys:" "$T/err"; then
	expect_rc "--kdf insecure-test --force, the real key directory: exit 0" 0 \
		env -u HIBERNATE_KEYDIR "$HIB" -c "$T/c.conf" --setup-key r --kdf insecure-test --force --passphrase-file "$T/pass"
	check "... warns" grep -qxF "$KDF_WARNING" "$T/err"
	check "... makes the key there" test -s "$T/etc/suspend2/keys/r.pub" -a -s "$T/etc/suspend2/keys/r.sec"
	rm -rf "$T/etc/suspend2"
else
	fail "--kdf insecure-test --force, the real key directory: not run, the refusal did not name $T/etc/suspend2/keys"
fi
printf '[default]\ntarget = /x\nencryption = chacha20-poly1305\nkey = keyring:fromprofile\n' >"$T/k.conf"
expect_rc "--setup-key: the name from the profile" 0 "$HIB" -c "$T/k.conf" --setup-key --kdf=insecure-test --passphrase-file "$T/pass"
check "the profile's key name was used" test -s "$T/keys/fromprofile.pub"

id=$(sha256sum "$T/keys/t.pub" | head -c 16)
conf "encryption = aes-gcm" "key = keyring:t"
run_both "encryption with its public key" 0 --test -f
check "dry run prints the encryption line" grep -qx \
	"# encryption: aes-gcm, key keyring:t (id $id, $T/keys/t.pub)" "$T/dry.out"
check "key written as keyring:t" grep -qx "keyring:t" "$CFS/profiles/p/key"
check "dry run: one 64-byte logon key" grep -qx \
	"# would add logon key suspend2:t (keys/t.pub and keys/t.auth, 64 bytes) to the process keyring" "$T/dry.out"
# What the real run hands the kernel: add_key("logon", "suspend2:t",
# pub || auth, 64, the process keyring), seen through strace.
fake_tree
if can_strace "keyring: the logon key hibernate adds"; then
	strace -f -qq -xx -s 128 -e trace=add_key -o "$T/strace" \
		"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --test -f >/dev/null 2>&1
	# strace -xx: every byte of every string as \xHH.
	xx() { od -An -v -tx1 | tr -d ' \n' | sed 's/../\\\\x&/g'; }
	want="add_key(\"$(printf logon | xx)\", \"$(printf suspend2:t | xx)\", \"$(cat "$T/keys/t.pub" "$T/keys/t.auth" | xx)\", 64, KEY_SPEC_PROCESS_KEYRING) = [0-9]"
	check "keyring: one logon key suspend2:t, pub || auth, 64 bytes" grep -q "$want" "$T/strace"
	check "keyring: that key and no other" test "$(grep -c 'add_key(' "$T/strace")" = 1
fi
# The authentication key is needed to write an image: missing or unsafe
# is a configuration error, before anything is frozen.
mv "$T/keys/t.auth" "$T/t.auth.keep"
run_both "encryption, no authentication key" 3 --test -f
check "no .auth: says to run --setup-key" grep -q \
	"cannot read the authentication key $T/keys/t.auth: No such file or directory (make the key anew with hibernate --setup-key t --force" "$T/real.err"
check "no .auth: nothing written to action" test ! -s "$CFS/action"
mv "$T/t.auth.keep" "$T/keys/t.auth"
chmod 0644 "$T/keys/t.auth"
run_both "encryption, authentication key others may read" 7 --test -f
check "unsafe .auth: refused with the fix" grep -q \
	"refusing key 't': $T/keys/t.auth is owned by root, uid 0, mode 0644 (open to group and others); it holds a secret and must be owned by root and open to no one else: chmod 600 $T/keys/t.auth; nothing was frozen" "$T/real.err"
check "unsafe .auth: nothing written to action" test ! -s "$CFS/action"
check "unsafe .auth: the dry run says so" grep -q "^# check: key t: refused: $T/keys/t.auth is owned" "$T/dry.out"
chmod 0600 "$T/keys/t.auth"
# Whoever may write NAME.pub or the key directory chooses the key the
# next image is wrapped for; whoever may read NAME.sec has it to guess.
chmod 0664 "$T/keys/t.pub"
run_both "encryption, a .pub its group may write" 7 --test -f
check "group-writable .pub: names the file, owner, mode and fix" grep -q \
	"refusing key 't': $T/keys/t.pub is owned by root, uid 0, mode 0664 (writable by its group); it must be owned by root and writable by no one else: chmod go-w $T/keys/t.pub" "$T/real.err"
check "group-writable .pub: nothing written to action" test ! -s "$CFS/action"
chmod 0644 "$T/keys/t.pub"
chown 65534 "$T/keys/t.pub"
run_both "encryption, a .pub not root's" 7 --test -f
check "foreign .pub: chown root" grep -q "$T/keys/t.pub is owned by uid 65534, .*chown root $T/keys/t.pub" "$T/real.err"
chown 0 "$T/keys/t.pub"
chmod 0640 "$T/keys/t.sec"
run_both "encryption, a .sec its group may read" 7 --test -f
check "readable .sec: chmod 600" grep -q "$T/keys/t.sec is owned by root, uid 0, mode 0640 (open to its group).*chmod 600 $T/keys/t.sec" "$T/real.err"
chmod 0600 "$T/keys/t.sec"
chmod 0707 "$T/keys"
run_both "encryption, a key directory others may write" 7 --test -f
check "writable key directory: named" grep -q "refusing key 't': $T/keys is owned by root, uid 0, mode 0707 (writable by others)" "$T/real.err"
chmod 0700 "$T/keys"
# A .sec of another key pair (a --setup-key --force cut short between
# its renames): refused before the cycle, naming both files and the fix.
cp -p "$T/keys/t.sec" "$T/t.sec.keep"
cp -p "$T/keys/fromprofile.sec" "$T/keys/t.sec"
run_both "encryption, .sec and .pub of two key pairs" 3 --test -f
check "two key pairs: said with the fix" grep -q \
	"$T/keys/t.sec (key id [0-9a-f]\{16\}) is not the secret key of $T/keys/t.pub (key id $id): they are of two key pairs.*hibernate --setup-key t --force, then run update-initramfs -u -k $(uname -r) (or dracut -f); nothing was frozen" "$T/real.err"
check "two key pairs: nothing written to action" test ! -s "$CFS/action"
mv "$T/t.sec.keep" "$T/keys/t.sec"
# An initramfs older than the key has no copy of it (under
# HIBERNATE_SYSROOT; none at all says nothing).
mkdir -p "$T/boot"
touch -d '-1 hour' "$T/boot/initrd.img-$(uname -r)"
run_both "encryption, initramfs older than the key" 3 --test -f
check "old initramfs: says to run update-initramfs -u -k RELEASE" grep -q \
	"the initramfs $T/boot/initrd.img-$(uname -r) (.*) is older than $T/keys/t.*run update-initramfs -u -k $(uname -r) (or dracut -f) first; nothing was frozen" "$T/real.err"
check "old initramfs: the dry run fails the check" grep -q "^# check: encryption aes-gcm, key keyring:t: the initramfs is older than the key: FAILED" "$T/dry.out"
touch "$T/boot/initrd.img-$(uname -r)"
run_both "encryption, initramfs rebuilt after the key" 0 --test -f
# Fixing a key file's mode as told, after the initramfs was built, leaves
# the initramfs with a copy of the old mode: it must be rebuilt too.  A
# second's sleep: the chmod must come after the touch on a coarse clock.
sleep 1
chmod 0640 "$T/keys/t.sec"
run_both "encryption, .sec made group-readable after the initramfs" 7 --test -f
chmod 0600 "$T/keys/t.sec"
run_both "encryption, .sec mode fixed after the initramfs" 3 --test -f
check "mode fixed: the initramfs is older than the change" grep -q \
	"the initramfs $T/boot/initrd.img-$(uname -r) (.*) is older than $T/keys/t.sec (changed .*run update-initramfs -u -k $(uname -r) (or dracut -f) first" "$T/real.err"
touch "$T/boot/initrd.img-$(uname -r)"
run_both "encryption, initramfs rebuilt after the mode fix" 0 --test -f
rm -rf "$T/boot"
conf "compressor = lz4"
run_both "no encryption: key written empty" 0 --test -f
check "key cleared" test "$(cat "$CFS/profiles/p/key")" = ""

conf "encryption = aes-gcm" "key = keyring:t"
fake_tree
expect_rc "--status" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --status
check "--status: the key files and their modes" grep -q "t.sec *0600" "$T/out"
check "--status: the authentication key and its mode" grep -qx "  t.auth *0600" "$T/out"
check "--status: encryption capabilities" grep -q "^encryption: *none aes-gcm chacha20-poly1305" "$T/out"
check "--status: the profile's encryption" grep -qx "encryption:    aes-gcm, key keyring:t (profile p)" "$T/out"
chmod 0644 "$T/keys/t.sec"
chmod 0640 "$T/keys/t.auth"
expect_rc "--status --json" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --status --json
check "--status --json: keys" python3 -c 'import json, sys
k = json.load(open(sys.argv[1]))["keys"]
assert k["key"] == "keyring:t" and k["encryption"] == "aes-gcm", k
assert k["dir_mode"] == "0700", k
f = {x["name"]: x for x in k["files"]}
assert f["t.sec"]["mode"] == "0644" and f["t.sec"]["exposed"], f
assert f["t.pub"]["mode"] == "0644" and not f["t.pub"]["exposed"], f
assert f["t.auth"]["mode"] == "0640" and f["t.auth"]["exposed"], f' "$T/out"
expect_rc "--status, a .sec others may read" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --status
check "--status: flags the .sec" grep -q "t.sec *0644  (readable by others than root: chmod 600)" "$T/out"
check "--status: flags the .auth" grep -q "t.auth *0640  (readable by others than root: chmod 600)" "$T/out"
chmod 0400 "$T/keys/t.auth"
expect_rc "--status, a .auth 0400" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --status
check "--status: a .auth that is not 0600 is flagged" grep -q "t.auth *0400  (not 0600: chmod 600)" "$T/out"
chmod 0600 "$T/keys/t.sec" "$T/keys/t.auth"

# An encrypted image at a resume location: anchor page 0, header page 1.
# make_image KEY_ID_HEX [KEY_SCHEME [ENCRYPTION]]
make_image() {
	python3 - "$T/img" "$1" "${2:-1}" "${3:-1}" <<'PY'
import struct, sys
page = bytearray(8192)
page[4096 - 36:4096 - 28] = struct.pack("<Q", 1)
page[4096 - 10:4096] = b"S2SUSPEND\0"
h = 4096
page[h:h + 8] = b"SUSPEND2"
page[h + 8:h + 12] = struct.pack("<I", 2)
page[h + 24:h + 32] = b"6.12.118"
page[h + 302:h + 310] = struct.pack("<Q", 1700000000)
page[h + 354:h + 362] = struct.pack("<II", int(sys.argv[4]), int(sys.argv[3]))
page[h + 362:h + 378] = bytes(range(0xc1, 0xd1))
page[h + 378:h + 386] = bytes.fromhex(sys.argv[2])
page[h + 386:h + 418] = bytes(range(1, 33))
open(sys.argv[1], "wb").write(page)
PY
}
# The module says where the image is: profiles/p/resume_location.
resume_tree() {
	fake_tree
	echo "$T/img:0" >"$CFS/profiles/p/resume_location"
}
conf "encryption = aes-gcm" "key = keyring:t"
make_image "$id"
cp "$T/img" "$T/img.orig"
printf 'wrong\nwronger\nwrongest\nnot read\n' >"$T/wrong"
chmod 644 "$T/wrong"
resume_tree
expect_rc "--resume, a passphrase file others may read: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/wrong"
check "... says why, asks nothing" sh -c "grep -q 'cannot read $T/wrong: .*mode 0644 (open to group and others)' '$T/err' && ! grep -q 'wrong passphrase' '$T/err'"
check "... resume not written" test ! -s "$CFS/action"
chmod 600 "$T/wrong"
resume_tree
expect_rc "--resume, three wrong passphrases: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/wrong"
check "wrong passphrase (try 1 of 3)" grep -qx "hibernate: wrong passphrase (try 1 of 3)" "$T/err"
check "wrong passphrase (try 3 of 3)" grep -qx "hibernate: wrong passphrase (try 3 of 3)" "$T/err"
check "locked: says the image is intact" grep -q "stays locked and intact" "$T/err"
check "locked: resume not written" test ! -s "$CFS/action"
check "locked: image untouched" cmp -s "$T/img" "$T/img.orig"
# Files of two key pairs, or key files others may change: told before
# any passphrase is asked for, not as three wrong ones.
cp -p "$T/keys/t.sec" "$T/t.sec.keep"
cp -p "$T/keys/fromprofile.sec" "$T/keys/t.sec"
resume_tree
expect_rc "--resume, .sec of another key pair: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/pass"
check "two key pairs at resume: said, with the fix" grep -q \
	"the key files in the initramfs do not match: .* is not the secret key of $T/keys/t.pub (key id $id): they are of two key pairs; the initramfs was built before .*: boot, run update-initramfs -u -k $(uname -r) (or dracut -f) and reboot.*; not asking for a passphrase; the image is left as it is" "$T/err"
# The initramfs's copies at resume: making the key anew would lose the
# image for good, so that is never the advice there.
check "two key pairs at resume: no --setup-key advice" test "$(grep -c -e '--setup-key' "$T/err")" = 0
check "two key pairs at resume: no wrong passphrase" test "$(grep -c 'wrong passphrase' "$T/err")" = 0
check "two key pairs at resume: image untouched" cmp -s "$T/img" "$T/img.orig"
check "two key pairs at resume: resume not written" test ! -s "$CFS/action"
resume_tree
expect_rc "--resume --dry-run, .sec of another key pair: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f -n
rm "$T/keys/t.sec"
resume_tree
expect_rc "--resume, no .sec: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/pass"
check "no .sec at resume: the initramfs is to be rebuilt" grep -q \
	"the key files in the initramfs do not match: cannot read the secret key $T/keys/t.sec: No such file or directory; .*run update-initramfs -u -k $(uname -r) (or dracut -f) and reboot" "$T/err"
check "no .sec at resume: no --setup-key advice" test "$(grep -c -e '--setup-key' "$T/err")" = 0
mv "$T/t.sec.keep" "$T/keys/t.sec"
# Key files others may change, at resume: the initramfs's copies, which
# root made; refusing them would only lose the image, and a foreign key
# file cannot make the passphrase open what it should not.  Warned.
chmod 0666 "$T/keys/t.pub"
resume_tree
expect_rc "--resume, a .pub others may write: exit 8 (the image does not unwrap)" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/pass"
check "unsafe .pub at resume: warned, with the fix" grep -q \
	"^hibernate: warning: key 't': $T/keys/t.pub is owned by root, uid 0, mode 0666 (writable by group and others).*; going on all the same.*run update-initramfs -u -k $(uname -r) (or dracut -f)$" "$T/err"
check "unsafe .pub at resume: unlocked, went on to unwrap" grep -q "the image key does not unwrap" "$T/err"
chmod 0644 "$T/keys/t.pub"
chmod 0640 "$T/keys/t.sec"
resume_tree
expect_rc "--resume, a .sec its group may read: exit 8 (wrong passphrases)" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/wrong"
check "readable .sec at resume: warned" grep -q \
	"^hibernate: warning: key 't': $T/keys/t.sec is owned by root, uid 0, mode 0640 (open to its group).*chmod 600 $T/keys/t.sec; going on all the same" "$T/err"
check "readable .sec at resume: the passphrase was asked for" grep -qx "hibernate: wrong passphrase (try 1 of 3)" "$T/err"
check "readable .sec at resume: image untouched" cmp -s "$T/img" "$T/img.orig"
chmod 0600 "$T/keys/t.sec"
resume_tree
expect_rc "--resume, right passphrase, key does not unwrap: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/pass"
check "does not unwrap: said" grep -q "the image key does not unwrap" "$T/err"
check "does not unwrap: resume not written" test ! -s "$CFS/action"
resume_tree
expect_rc "--resume, passphrases run out: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/empty"
check "no more passphrases: said" grep -q "no more passphrases in $T/empty" "$T/err"
# Without --passphrase-file, cryptsetup's askpass when it is there (moved
# under HIBERNATE_SYSROOT): its output is the passphrase, its failure the
# end of the tries.
mkdir -p "$T/lib/cryptsetup"
printf '#!/bin/sh\necho "$1" >>%s/asked\nprintf wrong\n' "$T" >"$T/lib/cryptsetup/askpass"
chmod 755 "$T/lib/cryptsetup/askpass"
resume_tree
expect_rc "--resume through askpass, wrong passphrases: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "askpass: asked three times" test "$(wc -l <"$T/asked")" = 3
check "askpass: the prompt names the image and key" grep -q "^Passphrase to resume the hibernation image of .* (6.12.118), key 't' (id $id): $" "$T/asked"
check "askpass: wrong passphrase (try 3 of 3)" grep -qx "hibernate: wrong passphrase (try 3 of 3)" "$T/err"
printf '#!/bin/sh\nexit 1\n' >"$T/lib/cryptsetup/askpass"
resume_tree
expect_rc "--resume, askpass gives up: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "askpass gave up: said" grep -q "the passphrase prompt ($T/lib/cryptsetup/askpass) gave up" "$T/err"
rm -rf "$T/lib"
# Killed at a prompt with echo off (Ctrl-C, SIGTERM, a hangup), the
# terminal gets its echo back before the process dies.
tty_sig() {
	local name=$1
	shift
	if python3 "$TOP/tests/unit/ttysig.py" "$@" >"$T/tty.out" 2>&1; then
		pass "$name"
	else
		fail "$name: $(cat "$T/tty.out")"
	fi
}
resume_tree
tty_sig "--resume prompt, Ctrl-C: echo restored" INT 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "--resume prompt, Ctrl-C: image untouched" cmp -s "$T/img" "$T/img.orig"
resume_tree
tty_sig "--resume prompt, SIGTERM: echo restored" TERM 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
tty_sig "--setup-key first prompt, Ctrl-C: echo restored" INT 0 "$HIB" -c "$T/c.conf" --setup-key sig --kdf=insecure-test
tty_sig "--setup-key second prompt, SIGTERM: echo restored" TERM 1 "$HIB" -c "$T/c.conf" --setup-key sig --kdf=insecure-test
tty_sig "--setup-key second prompt, SIGHUP: echo restored" HUP 1 "$HIB" -c "$T/c.conf" --setup-key sig --kdf=insecure-test
check "killed --setup-key: no key written" test ! -e "$T/keys/sig.pub"

make_image 0011223344556677
resume_tree
expect_rc "--resume, image for another key: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/pass"
check "another key: named without asking" grep -q "was written for key id 0011223344556677, but $T/keys/t.pub is key id $id: not asking for a passphrase" "$T/err"
resume_tree
expect_rc "--resume --dry-run of an encrypted image" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f -n
check "dry run: would ask for the passphrase" grep -q "# check: image on .* is encrypted (aes-gcm, key id 0011223344556677): would ask for the passphrase of key t" "$T/out"

# A key sealed to the TPM (key_scheme 2): no passphrase, no key file, no
# keyring key; the resume action is written and the module unseals it.
# The askpass helper records any prompt.  The fake module does not
# resume: the action returns, exit 5.
mkdir -p "$T/lib/cryptsetup"
printf '#!/bin/sh\necho "$1" >>%s/asked\nprintf wrong\n' "$T" >"$T/lib/cryptsetup/askpass"
chmod 755 "$T/lib/cryptsetup/askpass"
rm -f "$T/asked"
make_image 0000000000000000 2
cp "$T/img" "$T/img.orig"
CAPS_KEYS='keys: keyring tpm\ntpm: 2.0'
resume_tree
expect_rc "--resume of an image sealed to the TPM: the action is written" 5 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "tpm image: resume written" grep -qx resume "$CFS/action"
check "tpm image: said, no passphrase" grep -qx \
	"hibernate: image on $T/full is encrypted (aes-gcm) with its key sealed to the TPM: no passphrase needed, the kernel unseals it" "$T/err"
check "tpm image: no prompt" test ! -e "$T/asked"
check "tpm image: no passphrase asked for" test "$(grep -i passphrase "$T/err" | grep -vc 'no passphrase needed')" = 0
check "tpm image: the profile's encryption written" grep -qx aes-gcm "$CFS/profiles/p/encryption"
check "tpm image: image untouched" cmp -s "$T/img" "$T/img.orig"
resume_tree
expect_rc "--resume --dry-run of an image sealed to the TPM" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f -n
check "tpm image, dry run: the module unseals" grep -qx \
	"# check: image on $T/full is encrypted (aes-gcm) with its key sealed to the TPM: no passphrase, the module unseals it" "$T/out"
check "tpm image, dry run: would write resume" grep -qx "$CFS/action = resume" "$T/out"
check "tpm image, dry run: no prompt" test ! -e "$T/asked"
# With a profile of key = tpm and no key directory at all: the same.
conf "encryption = aes-gcm" "key = tpm"
mv "$T/keys" "$T/keys.away"
resume_tree
expect_rc "--resume of a TPM image, key = tpm, no key directory" 5 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "key = tpm at resume: key written as tpm" grep -qx tpm "$CFS/profiles/p/key"
check "key = tpm at resume: resume written" grep -qx resume "$CFS/action"
mv "$T/keys.away" "$T/keys"
conf "encryption = aes-gcm" "key = keyring:t"
# An older module (no capabilities file): the module decides.
CAPS_KEYS=NOFILE
resume_tree
expect_rc "--resume of a TPM image, no capabilities: the action is written" 5 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "no capabilities: resume written" grep -qx resume "$CFS/action"
# A kernel that cannot unseal now (no TPM seen: a driver missing from
# the initramfs): the image is left as it is, exit 8, no prompt.
CAPS_KEYS='keys: keyring\ntpm: none'
resume_tree
expect_rc "--resume of a TPM image, the module offers no tpm: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "no tpm at resume: said, with the capabilities" grep -qx \
	"hibernate: image on $T/full is encrypted (aes-gcm) with its key sealed to the TPM, but this kernel cannot unseal it now: the kernel sees no TPM (none in this machine, turned off in the firmware, or its driver, tpm_tis or tpm_crb, not loaded) (capabilities says: keys: keyring, tpm: none; no TPM seen: is its driver in the initramfs?); the image is left as it is, for a boot where the TPM works" "$T/err"
check "no tpm at resume: resume not written" test ! -s "$CFS/action"
check "no tpm at resume: no prompt" test ! -e "$T/asked"
check "no tpm at resume: image untouched" cmp -s "$T/img" "$T/img.orig"
CAPS_KEYS='keys: keyring\ntpm: 2.0'
resume_tree
expect_rc "--resume of a TPM image, a TPM 2.0 but no keys: tpm: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "TPM 2.0 without keys: tpm: no driver hint" grep -q \
	"but this kernel cannot unseal it now: .* (capabilities says: keys: keyring, tpm: 2.0); the image is left as it is, for a boot where the TPM works$" "$T/err"
# A TPM that stopped answering: the kernel's own words (tpm-refused).
CAPS_KEYS='keys: keyring\ntpm: 2.0\ntpm-refused: the TPM did not answer a PCR read'
resume_tree
expect_rc "--resume of a TPM image, the TPM does not answer: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "TPM not answering at resume: the kernel's reason" grep -q \
	"but this kernel cannot unseal it now: the TPM did not answer a PCR read (capabilities says: keys: keyring, tpm: 2.0); the image is left as it is, for a boot where the TPM works$" "$T/err"
check "TPM not answering at resume: resume not written" test ! -s "$CFS/action"
CAPS_KEYS='keys: keyring\ntpm: 2.0'
resume_tree
expect_rc "--resume --dry-run of a TPM image, the module offers no tpm: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f -n
# No tpm line at all (a module that does not say): the driver hint too.
CAPS_KEYS='keys: keyring'
resume_tree
expect_rc "--resume of a TPM image, no tpm line: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "no tpm line at resume: the driver hint" grep -qx \
	"hibernate: image on $T/full is encrypted (aes-gcm) with its key sealed to the TPM, but this kernel cannot unseal it now: the module does not say which TPM it sees (a module too old for key tpm?) (capabilities says: keys: keyring, tpm: (not said); no TPM seen: is its driver in the initramfs?); the image is left as it is, for a boot where the TPM works" "$T/err"
check "no tpm line at resume: resume not written" test ! -s "$CFS/action"
# A TPM 1.2: seen, so no driver hint; the tpm line says why.
CAPS_KEYS='keys: keyring\ntpm: 1.2'
resume_tree
expect_rc "--resume of a TPM image, a TPM 1.2: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "TPM 1.2 at resume: said, no driver hint" grep -qx \
	"hibernate: image on $T/full is encrypted (aes-gcm) with its key sealed to the TPM, but this kernel cannot unseal it now: the TPM is a 1.2, and key tpm needs a TPM 2.0 (capabilities says: keys: keyring, tpm: 1.2); the image is left as it is, for a boot where the TPM works" "$T/err"
check "TPM 1.2 at resume: resume not written" test ! -s "$CFS/action"
check "TPM 1.2 at resume: no prompt" test ! -e "$T/asked"
CAPS_KEYS='keys: keyring tpm\ntpm: 2.0'
# A key scheme this version does not know, or none with encryption set:
# refused as such, never taken for tpm, never a prompt.
for scheme in 3 4294967295 0; do
	make_image 0000000000000000 "$scheme"
	cp "$T/img" "$T/img.orig"
	resume_tree
	expect_rc "--resume, key scheme $scheme: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
	check "key scheme $scheme: said" grep -qx \
		"hibernate: image on $T/full is encrypted (aes-gcm) with key scheme $scheme, which this hibernate does not know (1: keyring, 2: tpm): not asking for a passphrase; the image is left as it is" "$T/err"
	check "key scheme $scheme: not taken for tpm" test "$(grep -c TPM "$T/err")" = 0
	check "key scheme $scheme: resume not written" test ! -s "$CFS/action"
	check "key scheme $scheme: no prompt" test ! -e "$T/asked"
	check "key scheme $scheme: image untouched" cmp -s "$T/img" "$T/img.orig"
	resume_tree
	expect_rc "--resume --dry-run, key scheme $scheme: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f -n
done
# Key scheme 2 with an encryption this version does not know: as an
# unknown scheme, never handed to the kernel.
make_image 0000000000000000 2 99
cp "$T/img" "$T/img.orig"
resume_tree
expect_rc "--resume, scheme 2, encryption 99: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "encryption 99: said" grep -qx \
	"hibernate: image on $T/full is encrypted with encryption 99, which this hibernate does not know: not asking for a passphrase; the image is left as it is" "$T/err"
check "encryption 99: not said to be sealed to the TPM" test "$(grep -c TPM "$T/err")" = 0
check "encryption 99: resume not written" test ! -s "$CFS/action"
check "encryption 99: no prompt" test ! -e "$T/asked"
check "encryption 99: image untouched" cmp -s "$T/img" "$T/img.orig"
resume_tree
expect_rc "--resume --dry-run, scheme 2, encryption 99: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f -n
check "encryption 99, dry run: resume not planned" test "$(grep -c "action = resume" "$T/out")" = 0
# A profile of key = tpm and an image of a keyring key (scheme 1): no key
# file is guessed and no passphrase asked for; --set names the key.  An
# askpass that fails the test if called, and strace, when there is one,
# shows the key directory never opened.
make_image "$id" 1
cp "$T/img" "$T/img.orig"
printf '#!/bin/sh\necho "$1" >>%s/asked\nexit 1\n' "$T" >"$T/lib/cryptsetup/askpass"
conf "encryption = aes-gcm" "key = tpm"
resume_tree
expect_rc "--resume, key = tpm, a keyring image: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "key = tpm, keyring image: said, with the way out" grep -qx \
	"hibernate: image on $T/full is encrypted (aes-gcm) with a keyring key (scheme 1, key id $id), but profile p has key = tpm: not asking for a passphrase; to resume it, run hibernate --resume --set key=keyring:NAME; the image is left as it is" "$T/err"
check "key = tpm, keyring image: askpass never run" test ! -e "$T/asked"
check "key = tpm, keyring image: no passphrase asked for" test "$(grep -ci 'wrong passphrase\|passphrase of' "$T/err")" = 0
check "key = tpm, keyring image: no key file named" test "$(grep -c "$T/keys" "$T/err")" = 0
check "key = tpm, keyring image: resume not written" test ! -s "$CFS/action"
check "key = tpm, keyring image: image untouched" cmp -s "$T/img" "$T/img.orig"
if can_strace "key = tpm, keyring image: the files read"; then
	resume_tree
	strace -f -e trace=file -o "$T/strace" "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f >/dev/null 2>&1
	check "key = tpm, keyring image: strace saw the image read" grep -q "$T/img" "$T/strace"
	check "key = tpm, keyring image: the key directory never looked at" test "$(grep -c "$T/keys" "$T/strace")" = 0
fi
resume_tree
expect_rc "--resume --dry-run, key = tpm, a keyring image: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f -n
check "key = tpm, keyring image, dry run: FAILED noted" grep -qx \
	"# check: image on $T/full: keyring key, profile key = tpm: FAILED" "$T/out"
check "key = tpm, keyring image, dry run: askpass never run" test ! -e "$T/asked"
conf "encryption = aes-gcm" "key = keyring:t"
# An unencrypted image says key_scheme 2 in vain: nothing to unseal.
make_image 0000000000000000 2 0
resume_tree
expect_rc "--resume, unencrypted image with key scheme 2" 5 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f
check "unencrypted, scheme 2: no TPM said" test "$(grep -c TPM "$T/err")" = 0
CAPS_KEYS='keys: keyring'
rm -rf "$T/lib"

# An image for another key of the directory: that key is asked for.
printf 'pass two\n' >"$T/pass2"
chmod 600 "$T/pass2"
expect_rc "--setup-key u" 0 "$HIB" -c "$T/c.conf" --setup-key u --kdf=insecure-test --passphrase-file "$T/pass2"
uid=$(sha256sum "$T/keys/u.pub" | head -c 16)
make_image "$uid"
resume_tree
expect_rc "--resume --dry-run, image for key u, profile key t" 0 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f -n
check "dry run: key u found by its id" grep -q "^hibernate: image on .* was written for key id $uid: that is key 'u', not 't'; using 'u'$" "$T/err"
check "dry run: would ask for the passphrase of key u" grep -q "would ask for the passphrase of key u$" "$T/out"
resume_tree
expect_rc "--resume, image for key u: u's passphrase, wrap does not open: exit 8" 8 "$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --resume -f --passphrase-file "$T/pass2"
check "key u: said in one line" test "$(grep -c "that is key 'u', not 't'" "$T/err")" = 1
check "key u: unlocked, then does not unwrap" grep -q "not written with key 'u' and its authentication key, or it was forged or tampered with" "$T/err"
check "key u: no wrong passphrase" test "$(grep -c 'wrong passphrase' "$T/err")" = 0
check "key u: resume not written" test ! -s "$CFS/action"

# The initramfs gets NAME.pub and NAME.sec, never NAME.auth: run both
# hooks over the key directory under $T with their helpers faked.
check "hooks: no glob of the key directory but *.pub and *.sec" test -z "$(grep -n 'suspend2/keys/\*' \
	"$TOP/etc/initramfs-tools/hooks/suspend2" "$TOP/etc/dracut/90suspend2/module-setup.sh" |
	grep -v 'keys/\*\.pub /etc/suspend2/keys/\*\.sec;')"
check "hooks: *.auth named nowhere as a file to copy" test -z "$(grep -n '\.auth' \
	"$TOP/etc/initramfs-tools/hooks/suspend2" "$TOP/etc/dracut/90suspend2/module-setup.sh" | grep -v '^[^:]*:[0-9]*:[[:space:]]*#')"
mkdir -p "$T/ir/dest" "$T/ir/bin"
cat >"$T/ir/hook-functions" <<EOF2
copy_exec() { :; }
manual_add_modules() { echo "\$@" >>"$T/ir/added"; }
force_load() { echo "\$@" >>"$T/ir/forced"; }
# tpm_crb built in (or missing) on this kernel: modinfo -k V NAME fails.
modinfo() { [ "\$3" != tpm_crb ]; }
EOF2
sed -e "s|/usr/share/initramfs-tools/hook-functions|$T/ir/hook-functions|" \
	-e "s|/etc/suspend2/keys|$T/keys|g; s|/etc/hibernate.conf|$T/c.conf|g" \
	-e "s|/etc/default/suspend2|$T/ir/nodefault|; s|/usr/sbin/hibernate|$HIB|" \
	"$TOP/etc/initramfs-tools/hooks/suspend2" >"$T/ir/hook"
DESTDIR=$T/ir/dest version=0 sh "$T/ir/hook" >/dev/null 2>&1
check "initramfs-tools hook: t.pub and t.sec copied" test -s "$T/ir/dest$T/keys/t.pub" -a -s "$T/ir/dest$T/keys/t.sec"
check "initramfs-tools hook: no .auth copied" test -z "$(find "$T/ir/dest" -name '*.auth')"
# The TPM 2.0 drivers for an image sealed to the TPM, whatever the
# profiles say; what this kernel lacks as a module is skipped.
for m in tpm tpm_tis_core tpm_tis tpm_tis_spi; do
	check "initramfs-tools hook: TPM driver $m added" grep -qx "$m" "$T/ir/added"
done
check "initramfs-tools hook: a TPM driver modinfo does not find is skipped" test "$(grep -cx tpm_crb "$T/ir/added")" = 0
# The compressors, asked for by name (modules on Debian's kernel), all of
# them whatever the profiles say: the resume goes by the image's header.
for m in lzo lz4 lz4hc zstd deflate; do
	check "initramfs-tools hook: compressor $m added" grep -qx "$m" "$T/ir/added"
done
check "initramfs-tools hook: suspend2 still added" grep -qx suspend2 "$T/ir/added"
# The ACPI button driver, loaded before the resume, or the power button is
# dead after it (the resuming kernel turned its event off).
check "initramfs-tools hook: button loaded before the resume" grep -qx button "$T/ir/forced"
mkdir -p "$T/ir/initdir"
cat >"$T/ir/dracut-install" <<EOF2
inst_binary() { :; }
inst_hook() { :; }
inst_simple() { mkdir -p "$T/ir/initdir\$(dirname "\$1")" && cp -p "\$1" "$T/ir/initdir\$1"; }
instmods() { printf '%s\n' "\$@" >>"$T/ir/instmods"; }
initdir=$T/ir/initdir
moddir=$TOP/etc/dracut/90suspend2
EOF2
sed -e "s|/etc/suspend2/keys|$T/keys|g; s|/etc/hibernate.conf|$T/c.conf|g" \
	-e "s|/etc/default/suspend2|$T/ir/nodefault|" \
	"$TOP/etc/dracut/90suspend2/module-setup.sh" >"$T/ir/module-setup.sh"
(. "$T/ir/dracut-install" && . "$T/ir/module-setup.sh" && install && installkernel) >/dev/null 2>&1
check "dracut module: t.pub and t.sec installed" test -s "$T/ir/initdir$T/keys/t.pub" -a -s "$T/ir/initdir$T/keys/t.sec"
check "dracut module: no .auth installed" test -z "$(find "$T/ir/initdir" -name '*.auth')"
for m in tpm tpm_tis_core tpm_tis tpm_crb tpm_tis_spi; do
	check "dracut module: TPM driver $m installed" grep -qx "$m" "$T/ir/instmods"
done
for m in lzo lz4 lz4hc zstd deflate; do
	check "dracut module: compressor $m installed" grep -qx "$m" "$T/ir/instmods"
done
check "dracut module: button installed" grep -qx button "$T/ir/instmods"
check "dracut resume: button loaded before hibernate --resume" test "$(grep -n -e 'modprobe -q button' -e '/sbin/hibernate --resume' \
	"$TOP/etc/dracut/90suspend2/suspend2-resume.sh" | cut -d: -f2 | tr -d '\t' | cut -c1-8 | tr '\n' ' ')" = "modprobe /sbin/hi "
check "dracut module: suspend2 still installed" grep -qx suspend2 "$T/ir/instmods"

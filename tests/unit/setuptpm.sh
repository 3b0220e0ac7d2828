#!/bin/bash
# hibernate --setup-key tpm, and --setup-key for a profile with key = tpm:
# no key file is made (tpm is no key name), the module is asked through
# its capabilities (a fake configfs tree here) whether this kernel seals
# images to the TPM, and the answer is said in words: exit 0 with what
# key = tpm needs, or exit 3, as a cycle refuses the profile, with why.
# A dry run writes nothing, not even the lock file.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T
export HIBERNATE_KEYDIR=$T/keys
CFS=$T/cfs

# fake_caps LINES: a loaded module whose capabilities are LINES (printf
# %b); NOFILE for a module with no capabilities file.
fake_caps() {
	rm -rf "$CFS" "$T/run"
	mkdir -p "$CFS/profiles" "$T/run"
	echo idle >"$CFS/state"
	printf 'compressors: none lz4\nwriters: swap file\nchecksums: none crc32c\nencryption: none aes-gcm\n%b\npowerdown: shutdown\nactions: hibernate test resume invalidate\n' "$1" >"$CFS/capabilities"
	[[ $1 != NOFILE ]] || rm "$CFS/capabilities"
	touch -d '-1 minute' "$CFS"/* "$CFS"
	touch "$T/stamp"
}

# setup NAME RC ARGS...: hibernate -c c.conf --configfs CFS ARGS... exits
# with RC and leaves no key directory, no key file anywhere.
setup() {
	local name=$1 want=$2
	shift 2
	# No terminal and no input: a passphrase prompt fails, never waits.
	expect_rc "$name: exit $want" "$want" timeout 60 setsid -w "$HIB" -c "$T/c.conf" --configfs "$CFS" "$@" </dev/null
	check "$name: no key file" test ! -e "$T/keys" -a \
		"$(find "$T" -name '*.pub' -o -name '*.sec' -o -name '*.auth' | wc -l)" = 0
}

printf '[default]\ntarget = /x\n[sealed]\nencryption = aes-gcm\nkey = tpm   # comment\n[kr]\nencryption = aes-gcm\nkey = keyring:k\n' >"$T/c.conf"

# A passphrase at hand, as for a key file: none is made all the same.
printf 'pass one\n' >"$T/pass"
chmod 600 "$T/pass"
fake_caps 'keys: keyring tpm\ntpm: 2.0'
setup "--setup-key tpm, the module offers tpm" 0 --setup-key tpm --kdf=insecure-test --passphrase-file "$T/pass"
check "offered: said" grep -qx "hibernate: key tpm: this kernel can seal hibernation images to the TPM (capabilities says: keys: keyring tpm, tpm: 2.0)" "$T/err"
check "offered: nothing to keep" grep -q "nothing to make or keep: no key file, no passphrase; the kernel makes a new image key at each hibernation, and its TPM counter the first time" "$T/err"
check "offered: ends saying to rebuild the initramfs" sh -c "tail -n 1 '$T/err' | grep -qx 'hibernate: rebuild the initramfs now, so that it has the TPM drivers to unseal the image at resume: update-initramfs -u -k $(uname -r) (or dracut -f)'"
check "offered: nothing written to configfs" test "$(find "$CFS" -newer "$T/stamp" | wc -l)" = 0
check "offered: no plan on stdout" test ! -s "$T/out"
setup "--setup-key=tpm" 0 --setup-key=tpm
setup "--setup-key tpm -q" 0 --setup-key tpm -q
check "-q: nothing said" test ! -s "$T/err"
setup "--setup-key tpm --force" 0 --setup-key tpm --force
check "--force: said to change nothing" grep -qx "hibernate: --force: key tpm has no key file to replace; it changes nothing" "$T/err"
echo hibernating >"$CFS/state"
setup "--setup-key tpm, the state is not idle: only the capabilities count" 0 --setup-key tpm

# No name: the profile's key, tpm with its blanks and comment gone.
fake_caps 'keys: keyring tpm\ntpm: 2.0'
setup "--setup-key, profile key = tpm" 0 -p sealed --setup-key --kdf=insecure-test --passphrase-file "$T/pass"
check "profile key = tpm: the TPM checked" grep -q "this kernel can seal hibernation images to the TPM" "$T/err"
setup "--setup-key --set key=tpm" 0 -p kr --set key=tpm --setup-key
check "--set key=tpm: the TPM checked" grep -q "this kernel can seal hibernation images to the TPM" "$T/err"
setup "--setup-key, --set nonsense" 2 -p sealed --set nosuch=1 --setup-key
setup "--setup-key tpm, no such profile" 3 -p nosuch --setup-key tpm
check "no such profile: said" grep -q "nosuch" "$T/err"

# What capabilities say when the kernel cannot seal, in words; exit 3 as
# a cycle with key = tpm is refused.
fake_caps 'keys: keyring\ntpm: none'
setup "no TPM" 3 --setup-key tpm
check "no TPM: why" grep -qx "hibernate: key tpm: this kernel cannot seal hibernation images to the TPM: the kernel sees no TPM (none in this machine, turned off in the firmware, or its driver, tpm_tis or tpm_crb, not loaded); capabilities says: keys: keyring, tpm: none; no key file was made" "$T/err"
check "no TPM: one message" test "$(wc -l <"$T/err")" = 1
setup "no TPM, profile key = tpm" 3 -p sealed --setup-key --kdf=insecure-test --passphrase-file "$T/pass"
check "no TPM, profile: why" grep -q "the kernel sees no TPM" "$T/err"
fake_caps 'keys: keyring\ntpm: 1.2'
setup "TPM 1.2" 3 --setup-key tpm
check "TPM 1.2: why" grep -q "cannot seal hibernation images to the TPM: the TPM is a 1.2, and key tpm needs a TPM 2.0; capabilities says: keys: keyring, tpm: 1.2" "$T/err"
fake_caps 'keys: keyring\ntpm: 2.0'
setup "TPM 2.0, no PCR 23 restriction" 3 --setup-key tpm
check "no PCR 23 restriction: why" grep -q "the TPM is a 2.0, but the kernel will not seal to it: it was built without CONFIG_TCG_TPM_RESTRICT_PCR (kernel patch 0004), so user space could change PCR 23, or the TPM is a virtual one" "$T/err"
fake_caps 'keys: keyring\ntpm: 2.0\ntpm-refused: a kexec or crash kernel was loaded since boot, which moved PCR 4: reboot first'
setup "TPM 2.0, the kernel says why not" 3 --setup-key tpm
check "kernel's reason: given, not guessed" grep -qx "hibernate: key tpm: this kernel cannot seal hibernation images to the TPM: a kexec or crash kernel was loaded since boot, which moved PCR 4: reboot first; capabilities says: keys: keyring, tpm: 2.0; no key file was made" "$T/err"
fake_caps 'keys: keyring'
setup "an older module: no tpm line" 3 --setup-key tpm
check "no tpm line: why" grep -q "the module does not say which TPM it sees" "$T/err"
fake_caps NOFILE
setup "no capabilities file" 3 --setup-key tpm
check "no capabilities: why" grep -q "the module does not say it can (no capabilities to read); cannot read $CFS/capabilities" "$T/err"
fake_caps 'keys: keyring tpm2\ntpm: 2.0'
setup "keys: keyring tpm2 is not tpm" 3 --setup-key tpm
fake_caps 'keys: keyring\ntpm: 3.0'
setup "a TPM version not known" 3 --setup-key tpm
check "unknown version: said" grep -q "the module names a TPM this hibernate does not know; capabilities says: keys: keyring, tpm: 3.0" "$T/err"

# Hostile capabilities: control bytes never reach the terminal, and a
# line too long to read whole is not read as the word tpm at its end.
fake_caps 'keys: keyring\ntpm: \033[2J\033]0;owned\a2.0\r'
setup "control bytes in the tpm line" 3 --setup-key tpm
check "control bytes: none on the terminal" test "$(tr -d '\n' <"$T/err" | tr -d '[:print:]' | wc -c)" = 0
check "control bytes: shown as ?" grep -q "tpm: ?\[2J?\]0;owned?2.0; no key file" "$T/err"
fake_caps "keys: keyring $(printf 'x%.0s' {1..300}) tpm\ntpm: 2.0"
setup "an overlong keys line ending in tpm" 3 --setup-key tpm
fake_caps "tpm: 2.0\n$(printf 'y%.0s' {1..5000})\nkeys: keyring tpm"
setup "keys line past a page of junk" 3 --setup-key tpm
printf 'keys: keyring t\0pm\ntpm: 2.0\n' >"$CFS/capabilities"
setup "a NUL in capabilities: the rest unread" 3 --setup-key tpm

# --dry-run: what would be done, with the same exit, and nothing written:
# no lock file, no key directory, no configfs file.
fake_caps 'keys: keyring tpm\ntpm: 2.0'
setup "dry run, tpm offered" 0 --setup-key tpm -n
check "dry run: the check in the plan" grep -qx "# check: key tpm: offered by the module (capabilities says: keys: keyring tpm, tpm: 2.0)" "$T/out"
check "dry run: the initramfs in the plan" grep -qx "# key tpm: no key file to make; the real run says to rebuild the initramfs: update-initramfs -u -k $(uname -r) (or dracut -f)" "$T/out"
check "dry run: no lock file" test "$(find "$T/run" -type f | wc -l)" = 0
check "dry run: nothing written to configfs" test "$(find "$CFS" -newer "$T/stamp" | wc -l)" = 0
setup "dry run, profile key = tpm" 0 -p sealed --setup-key -n
check "dry run, profile: the plan names the profile" grep -q "^# hibernate --dry-run: --setup-key for key tpm, profile 'sealed'" "$T/out"
setup "dry run --json" 0 --setup-key tpm -n --json
check "dry run --json: one JSON object with the plan" python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
assert s["exit_status"] == 0 and s["action"] == "setup-key", s
assert s["profile"] == "default", s
assert any(c.startswith("key tpm: offered") for c in s["checks"]), s["checks"]' "$T/out"
fake_caps 'keys: keyring\ntpm: none'
setup "dry run, no TPM" 3 --setup-key tpm -n
check "dry run, no TPM: the check fails in the plan" grep -qx "# check: key tpm: not offered by the module (capabilities says: keys: keyring, tpm: none): FAILED" "$T/out"
check "dry run, no TPM: said" grep -q "the kernel sees no TPM" "$T/err"
check "dry run, no TPM: no lock file" test "$(find "$T/run" -type f | wc -l)" = 0
setup "dry run of a key file: refused" 2 --setup-key k -n
check "dry run of a key file: why" grep -q "only --setup-key tpm (which makes none) has a dry run" "$T/err"
setup "dry run, profile with a keyring key: refused" 2 -p kr --setup-key -n

# Missing module: no configfs tree, or a --module file that is not there.
rm -rf "$CFS"
setup "no configfs tree" 1 --setup-key tpm
check "no configfs tree: said" grep -qx "hibernate: $CFS does not exist" "$T/err"
if [[ ! -e /sys/kernel/config/suspend2 ]]; then
	expect_rc "default configfs under HIBERNATE_SYSROOT: refused" 2 "$HIB" -c "$T/c.conf" --setup-key tpm -n
	expect_rc "dry run, module not loaded" 0 env -u HIBERNATE_SYSROOT -u HIBERNATE_KEYDIR \
		"$HIB" -c "$T/c.conf" --setup-key tpm -n
	check "module not loaded: would load it" grep -q "^# would load the module: modprobe suspend2 resume=$" "$T/out"
	check "module not loaded: the real run says" grep -qx "# check: key tpm: the module is not loaded yet; the real run loads it, reads its capabilities and says whether this kernel can seal images to the TPM (exit 3 when it cannot)" "$T/out"
	expect_rc "dry run, --module missing" 1 env -u HIBERNATE_SYSROOT -u HIBERNATE_KEYDIR \
		"$HIB" -c "$T/c.conf" --setup-key tpm -n --module "$T/nosuch.ko"
	check "--module missing: said" grep -q "cannot load $T/nosuch.ko: No such file or directory" "$T/err"
	check "module not loaded: no key file" test ! -e "$T/keys"
else
	skip "suspend2 is loaded here: the dry run before the module is loaded"
fi

# key = keyring:tpm (key files named tpm, from before key = tpm) still
# parses, so that such a configuration still resumes; its --setup-key
# makes those files, as it always did; --setup-key tpm is the TPM.
printf '[default]\ntarget = /x\nencryption = aes-gcm\nkey = keyring:tpm\n' >"$T/kt.conf"
fake_caps 'keys: keyring tpm\ntpm: 2.0'
"$HIB" -c "$T/kt.conf" --configfs "$CFS" --test -n >"$T/out" 2>"$T/err"
check "key = keyring:tpm: parses" sh -c "! grep -q 'kt.conf:4' '$T/err'"
printf 'pw-for-tpm-files\npw-for-tpm-files\n' >"$T/pw"
chmod 600 "$T/pw"
expect_rc "--setup-key with key = keyring:tpm: key files" 0 "$HIB" -c "$T/kt.conf" --configfs "$CFS" --setup-key --kdf=insecure-test --passphrase-file "$T/pw"
check "key = keyring:tpm: key files named tpm" test -e "$T/keys/tpm.pub"
rm -rf "$T/keys"
expect_rc "--setup-key tpm/x: refused" 2 "$HIB" --setup-key tpm/x

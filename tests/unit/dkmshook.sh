#!/bin/bash
# suspend2-dkms's kernel hook (kernel/dkms/kernel-hook.in), run as
# run-parts runs it from /etc/kernel/postinst.d and header_postinst.d, with
# its paths moved under $T and dkms and update-initramfs faked.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/bin" "$T/src/suspend2-0.9" "$T/boot" \
	"$T/etc/kernel/postinst.d" "$T/etc/kernel/header_postinst.d"
# A fake dkms: "status" for this module, version and kernel prints
# $FAKE_STATUS (any other status query is logged); anything else is
# logged and exits with $FAKE_RC.
cat >"$T/bin/dkms" <<'FAKE'
#!/bin/sh
if [ "$*" = "status -m suspend2 -v 0.9 -k $FAKE_KVER" ]; then
	printf '%s' "$FAKE_STATUS"
	exit 0
fi
echo "dkms $*" >>"$FAKE_LOG"
exit "${FAKE_RC:-0}"
FAKE
cat >"$T/bin/update-initramfs" <<'FAKE'
#!/bin/sh
echo "update-initramfs $*" >>"$FAKE_LOG"
FAKE
chmod +x "$T/bin/dkms" "$T/bin/update-initramfs"
for d in postinst.d header_postinst.d; do
	sed -e "s|@VERSION@|0.9|; s|/lib/modules|$T/lib/modules|g" \
		-e "s|/usr/src|$T/src|g; s|/boot|$T/boot|g" \
		"$TOP/kernel/dkms/kernel-hook.in" >"$T/etc/kernel/$d/dkms-suspend2"
	chmod +x "$T/etc/kernel/$d/dkms-suspend2"
done
suspend2=6.12.118-suspend2-cloud-amd64
export PATH=$T/bin:$PATH FAKE_LOG=$T/calls FAKE_STATUS='' FAKE_RC=0 FAKE_KVER=$suspend2
post=$T/etc/kernel/postinst.d/dkms-suspend2
header=$T/etc/kernel/header_postinst.d/dkms-suspend2
headers() { mkdir -p "$T/lib/modules/$1/build/include"; }

check "the hook's paths were all moved for the test" \
	test "$(grep -c -E '"/(lib/modules|usr/src|boot)/' "$post")" = 0

# A Debian kernel, with its headers: nothing built, success.
headers 6.1.0-28-amd64
: >"$T/calls"
expect_rc "a Debian kernel: exit 0" 0 "$post" 6.1.0-28-amd64
check "a Debian kernel: dkms not run" test ! -s "$T/calls"
expect_rc "a Debian kernel's headers: exit 0" 0 "$header" 6.1.0-28-amd64
check "a Debian kernel's headers: dkms not run" test ! -s "$T/calls"

# A suspend2 kernel before its headers: said, nothing built, success.
expect_rc "suspend2 kernel, no headers yet: exit 0" 0 "$post" "$suspend2"
check "no headers yet: said, with what to do" grep -q "no headers for $suspend2: suspend2.ko is not built; install linux-headers-$suspend2, then run 'dpkg-reconfigure linux-image-$suspend2'" "$T/err"
check "no headers yet: dkms not run" test ! -s "$T/calls"

# With its headers: dkms install for that kernel; from postinst.d the
# kernel's own initramfs hook comes after, so no update-initramfs here.
headers "$suspend2"
touch "$T/boot/initrd.img-$suspend2"
expect_rc "suspend2 kernel: exit 0" 0 "$post" "$suspend2"
check "suspend2 kernel: dkms install of this version for this kernel" \
	test "$(cat "$T/calls")" = "dkms install -m suspend2 -v 0.9 -k $suspend2"

# From header_postinst.d: the initramfs was made before the module.
: >"$T/calls"
expect_rc "suspend2 headers after the kernel: exit 0" 0 "$header" "$suspend2"
check "headers after the kernel: dkms install, then update-initramfs" \
	test "$(tr '\n' '|' <"$T/calls")" = "dkms install -m suspend2 -v 0.9 -k $suspend2|update-initramfs -u -k $suspend2|"

# Already installed for that kernel: nothing again.
: >"$T/calls"
FAKE_STATUS="suspend2/0.9, $suspend2, x86_64: installed" expect_rc "already installed: exit 0" 0 "$header" "$suspend2"
check "already installed: dkms install not run again" test ! -s "$T/calls"

# A failed build fails the hook, so dpkg says so.
FAKE_RC=10 expect_rc "dkms install fails: the hook fails" 10 "$post" "$suspend2"
# A kernel dkms.conf's BUILD_EXCLUSIVE_CONFIG refuses (77): said, success.
FAKE_RC=77 expect_rc "kernel without HIBERNATION (dkms 77): exit 0" 0 "$post" "$suspend2"
check "kernel without HIBERNATION: said" grep -q "$suspend2 lacks CONFIG_HIBERNATION or CONFIG_CONFIGFS_FS; suspend2.ko skipped" "$T/err"
# run-parts given a relative directory: still the header_postinst.d case.
: >"$T/calls"
expect_rc "header_postinst.d by a relative path: exit 0" 0 \
	sh -c 'cd "$1/etc/kernel" && ./header_postinst.d/dkms-suspend2 "$2"' sh "$T" "$suspend2"
check "header_postinst.d by a relative path: update-initramfs too" grep -q "^update-initramfs -u -k $suspend2\$" "$T/calls"

# Removed but not purged: the source is gone, the hook stays quiet.
rm -rf "$T/src/suspend2-0.9"
: >"$T/calls"
expect_rc "source removed: exit 0" 0 "$post" "$suspend2"
check "source removed: dkms not run" test ! -s "$T/calls"
expect_rc "no release given: fails" 2 "$post"

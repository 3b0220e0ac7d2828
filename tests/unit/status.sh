#!/bin/bash
# hibernate --status (issue 36): whether an image waits on the profile's
# target and whose it is, read from its header as a resume reads it;
# what to do when the module is not loaded; no all-zero report before
# the first cycle; no restore time the module could not measure.  The
# real binary against a fake configfs tree and image files.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T TZ=UTC
mkdir -p "$T/run"
CFS=$T/cfs
RUNNING=$(uname -r)

fake_tree() {
	rm -rf "$CFS"
	mkdir -p "$CFS/profiles" "$CFS/results"
	echo idle >"$CFS/state"
	echo "suspend2 0.1 image-format 2" >"$CFS/version"
	printf 'compressors: none lzo lz4\nwriters: swap swapfile file bdev\nchecksums: none crc32c\npowerdown: shutdown platform reboot\nactions: hibernate test resume invalidate\n' >"$CFS/capabilities"
	: >"$CFS/profile"
	: >"$CFS/action"
	fake_profile "$CFS" p
	echo "${1:-none}" >"$CFS/results/status"
}

# mkimg FILE [RELEASE [ENCRYPTION [KEY_SCHEME [VERSION [MAGIC]]]]]: an
# image as the module leaves it: page 0 the anchor (header_page 1, the
# signature last), page 1 the header (kernel/suspend2/image/format.h).
mkimg() {
	python3 - "$@" <<'PY'
import struct, sys
a = sys.argv[1:] + [None] * 6
path, rel = a[0], a[1] or "6.1.0-test"
enc, scheme = int(a[2] or 0), int(a[3] or 0)
ver, magic = int(a[4] or 2), (a[5] or "SUSPEND2").encode()
p = 4096
b = bytearray(3 * p)
b[p - 36:p - 28] = struct.pack("<Q", 1)
b[p - 10:p] = b"S2SUSPEND\0"
h = p
b[h:h + 8] = magic
b[h + 8:h + 12] = struct.pack("<I", ver)
b[h + 24:h + 24 + len(rel)] = rel.encode()
b[h + 219:h + 222] = b"lz4"
b[h + 254:h + 262] = struct.pack("<Q", 131072)          # image_pages
b[h + 262:h + 270] = struct.pack("<Q", 200 << 20)       # data_bytes
b[h + 302:h + 310] = struct.pack("<Q", 1796642400)      # created_sec
b[h + 354:h + 358] = struct.pack("<I", enc)
b[h + 358:h + 362] = struct.pack("<I", scheme)
b[h + 378:h + 386] = bytes(range(0xa0, 0xa8))           # key_id
open(path, "wb").write(b)
PY
}

# json_ok FILE PYTHON: FILE is one JSON object and PYTHON holds of it (j).
json_ok() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
exec(sys.argv[2])' "$1" "$2"
}

# lacks REGEX FILE: no line of FILE matches.
lacks() { ! grep -q "$1" "$2"; }

status() { "$HIB" -c "$T/h.conf" --configfs "$CFS" -p p --status "$@"; }

printf '[p]\ntarget = %s\nresume_location = %s:0\n' "$T/img" "$T/img" >"$T/h.conf"

# Before the first cycle: no report of zeros.
fake_tree none
mkimg "$T/img" "$RUNNING"
expect_rc "--status before the first cycle exits 0" 0 status
check "no cycle yet: said so" grep -qx "last results:  none (no cycle since the module was loaded)" "$T/out"
check "no cycle yet: no report of zeros" lacks "0\.000\|time offline\|image size" "$T/out"

# An image waits: whose it is, from its header.
check "an image: waiting, where" grep -qx "image:         waiting on $T/img ($T/img:0, profile 'p')" "$T/out"
check "an image: its kernel, the running one" grep -qx "  kernel                   $RUNNING (the running kernel)" "$T/out"
check "an image: when it was written" grep -qx "  written                  2026-12-07 11:20:00 UTC" "$T/out"
check "an image: its size" grep -qx "  size                     131072 pages (512 MiB), 200 MiB stored, compressor lz4" "$T/out"
check "an image: not encrypted" grep -qx "  encryption               none" "$T/out"
expect_rc "--status --json with an image exits 0" 0 status --json
check "--status --json: the image's facts as members" json_ok "$T/out" '
i = j["image"]
assert j["results"]["status"] == "none"
assert i["present"] is True and i["error"] is None, i
assert i["location"] == sys.argv[1].rsplit("/", 1)[0] + "/img:0", i
assert i["release"] == "'"$RUNNING"'" and i["running_kernel"] is True, i
assert i["created_sec"] == 1796642400 and i["image_pages"] == 131072, i
assert i["bytes_raw"] == 512 << 20 and i["bytes_stored"] == 200 << 20, i
assert i["compressor"] == "lz4" and i["encryption"] == "none", i
assert i["sealed"] is False and i["key_id"] is None, i'

# Sealed to the TPM, or wrapped for a key file; another kernel's.
mkimg "$T/img" 5.10.0-other 1 2
expect_rc "--status, a sealed image" 0 status
check "a sealed image: said so" grep -qx "  encryption               aes-gcm, key sealed to the TPM" "$T/out"
check "another kernel's image: said so" grep -qx "  kernel                   5.10.0-other (not the running kernel, $RUNNING: only a boot of 5.10.0-other resumes it)" "$T/out"
expect_rc "--status --json, a sealed image" 0 status --json
check "--status --json: sealed, another kernel" json_ok "$T/out" '
i = j["image"]
assert i["sealed"] is True and i["encryption"] == "aes-gcm", i
assert i["release"] == "5.10.0-other" and i["running_kernel"] is False, i'
mkimg "$T/img" "$RUNNING" 2 1
expect_rc "--status, an image for a key file" 0 status
check "an image for a key file: the key id" grep -qx "  encryption               chacha20-poly1305, key wrapped for key id a0a1a2a3a4a5a6a7" "$T/out"
expect_rc "--status --json, an image for a key file" 0 status --json
check "--status --json: the key id" json_ok "$T/out" '
i = j["image"]
assert i["sealed"] is False and i["key_id"] == "a0a1a2a3a4a5a6a7", i'

# An anchor without a header, a format this hibernate does not read.
mkimg "$T/img" "$RUNNING" 0 0 2 NOTANIMG
expect_rc "--status, an anchor without a header" 0 status
check "an anchor without a header: said so" grep -qx "image:         an anchor on $T/img ($T/img:0, profile 'p'), but its header page is not an image header" "$T/out"
mkimg "$T/img" "$RUNNING" 0 0 3
expect_rc "--status, another image format" 0 status
check "another image format: said so" grep -q "^image:         waiting on $T/img ($T/img:0, profile 'p'), image format 3, which" "$T/out"

# No image: said so, not guessed.
head -c 12288 /dev/zero >"$T/img"
expect_rc "--status, no image" 0 status
check "no image: said so" grep -qx "image:         none on $T/img ($T/img:0, profile 'p')" "$T/out"
check "no image: no image facts" lacks "^  kernel\|^  written" "$T/out"
expect_rc "--status --json, no image" 0 status --json
check "--status --json: present false" json_ok "$T/out" '
assert j["image"]["present"] is False and "release" not in j["image"], j["image"]'

# Without resume_location: where the module said it put the profile's
# image, else the target's first page.
mkimg "$T/img2" "$RUNNING"
: >"$T/target"
printf '[p]\ntarget = %s\n' "$T/target" >"$T/h.conf"
echo "$T/img2:0" >"$CFS/profiles/p/resume_location"
expect_rc "--status, the module's resume_location" 0 status
check "the module's resume_location is where the image is looked for" grep -qx "image:         waiting on $T/target ($T/img2:0, profile 'p')" "$T/out"
: >"$CFS/profiles/p/resume_location"
expect_rc "--status, the target's first page" 0 status
check "the target's first page, an empty file: no image" grep -qx "image:         none on $T/target ($T/target:0, profile 'p')" "$T/out"
printf '[p]\ncompressor = lz4\n' >"$T/h.conf"
expect_rc "--status, a profile without a target" 0 status
check "a profile without a target: said so" grep -qx "image:         unknown: profile 'p' has no target" "$T/out"

# The restore phase: shown when the module measured it, else left out.
fake_tree resumed
printf '[p]\ntarget = %s\nresume_location = %s:0\n' "$T/img" "$T/img" >"$T/h.conf"
echo 120000 >"$CFS/results/time_read_us"
echo 0 >"$CFS/results/time_restore_us"
expect_rc "--status after a resume" 0 status
check "a resume: the report is there" grep -q "^  read image  *120.000 ms$" "$T/out"
check "a restore the module could not measure: no line" lacks "^  restore " "$T/out"
echo 1500 >"$CFS/results/time_restore_us"
expect_rc "--status after a resume, restore measured" 0 status
check "a measured restore: its line" grep -qx "  restore                           1.500 ms" "$T/out"

# The module not loaded: what to do next, and the image all the same.
mkimg "$T/img" "$RUNNING"
expect_rc "--status, --configfs missing, exits 1" 1 \
	"$HIB" -c "$T/h.conf" --configfs "$T/nosuch" -p p --status
check "not loaded: said so on stdout" grep -qx "module:        not loaded ($T/nosuch does not exist)" "$T/out"
check "not loaded: what to do next" grep -q "^next:          name the configfs directory of a loaded suspend2 with --configfs" "$T/out"
check "not loaded: the image all the same" grep -qx "image:         waiting on $T/img ($T/img:0, profile 'p')" "$T/out"
expect_rc "--status --json, --configfs missing, exits 1" 1 \
	"$HIB" -c "$T/h.conf" --configfs "$T/nosuch" -p p --status --json
check "not loaded, --json: next and the image as members" json_ok "$T/out" '
assert j["loaded"] is False and j["next"].startswith("name the configfs"), j
assert j["image"]["present"] is True, j'
if [[ -e /sys/kernel/config/suspend2 ]]; then
	skip "suspend2 is loaded here: the default configfs's next step"
else
	printf '[p]\ntarget = %s\nresume_location = %s:0\nmodule = /lib/s2/suspend2.ko\n' "$T/img" "$T/img" >"$T/m.conf"
	expect_rc "--status, suspend2 not loaded, exits 1" 1 \
		"$HIB" -c "$T/m.conf" -p p --status
	check "not loaded: the command that loads the profile's module" \
		grep -q "^next:          load the module: insmod /lib/s2/suspend2.ko resume= " "$T/out"
	expect_rc "--status, suspend2 not loaded, no configuration" 1 \
		"$HIB" -c "$T/none.conf" --status
	check "not loaded, no configuration: modprobe suspend2" \
		grep -q "^next:          load the module: modprobe suspend2 resume= " "$T/out"
fi

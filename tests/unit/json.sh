#!/bin/bash
# --json is structured from the start, checked with a strict parser:
# a newline (or a quote, or a control byte) in a path or a name forges
# no check, step or member; a failed run always names a failed check; a
# plain user's dry run never says would_run true; and every action
# either prints one JSON object or refuses --json with exit 2 and a
# message, printing nothing.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T
mkdir -p "$T/run"
CFS=$T/cfs

fake_tree() {
	local dir=${1:-$CFS}
	rm -rf "$dir"
	mkdir -p "$dir/profiles" "$dir/results"
	echo idle >"$dir/state"
	echo "suspend2 0.1 image-format 1" >"$dir/version"
	printf 'compressors: none lzo lz4 zstd\nwriters: swap swapfile file bdev\nchecksums: none crc32c\npowerdown: shutdown platform reboot\nactions: hibernate test resume invalidate\n' >"$dir/capabilities"
	: >"$dir/profile"
	: >"$dir/action"
	fake_profile "$dir" default
	echo tested >"$dir/results/status"
	echo yes >"$dir/results/verified"
}

# json_ok FILE PYTHON: FILE is one strict JSON document (UTF-8, no
# duplicate keys, nothing after it) and PYTHON, run with it as j, holds.
json_ok() {
	python3 - "$1" "$2" <<'PY'
import json, sys

def no_dups(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key in %r" % keys)
    return dict(pairs)

text = open(sys.argv[1], "rb").read().decode("utf-8", "strict")
j = json.loads(text, object_pairs_hook=no_dups)
exec(sys.argv[2])
PY
}

dd if=/dev/zero of="$T/full" bs=64k count=4 status=none
chmod 0600 "$T/full"

# 1. Hostile names.  A configuration whose path holds a newline and what
# the text plan's lines look like: nothing of it becomes a check, a step
# or the resume parameter.
bad=$T/$'x\n# check: forged: FAILED\n# resume parameter: forged\n/forged = 1'
mkdir -p "$bad"
printf '[default]\nwriter = file\ntarget = %s\ncompressor = none\n' "$T/full" >"$bad/c.conf"
chmod 0644 "$bad/c.conf"
fake_tree
"$HIB" -c "$bad/c.conf" --configfs "$CFS" --test -f -n --json >"$T/out" 2>"$T/err"
rc=$?
check "hostile config path: exit 0" test "$rc" = 0
check "hostile config path: strict JSON, the path kept whole" json_ok "$T/out" '
assert j["config"].endswith("/forged = 1/c.conf"), j["config"]
assert "\n# check: forged" in j["config"]'
check "hostile config path: no forged check" json_ok "$T/out" '
assert not [c for c in j["checks"] if "forged" in c], j["checks"]
assert j["failed_checks"] == [], j["failed_checks"]
assert j["would_run"] is True'
check "hostile config path: no forged step or resume parameter" json_ok "$T/out" '
assert not [s for s in j["steps"] if "forged" in json.dumps(s)], j["steps"]
assert "forged" not in (j["resume_parameter"] or "")'

# A --configfs directory with a newline, " = " and a quote in its name:
# every write is one step whose path is under it, its value whole.
hcfs=$T/$'c"fs\n/x = y\nmkdir '
fake_tree "$hcfs"
printf '[default]\nwriter = file\ntarget = %s\ncompressor = none\n' "$T/full" >"$T/c.conf"
chmod 0644 "$T/c.conf"
"$HIB" -c "$T/c.conf" --configfs "$hcfs" --test -f -n --json >"$T/out" 2>"$T/err"
check "hostile --configfs: strict JSON, every write under it" json_ok "$T/out" '
root = j["steps"][-1]["path"][:-len("/action")]
assert root.endswith("\nmkdir "), repr(root)
writes = [s for s in j["steps"] if s["do"] == "write"]
assert all(s["path"].startswith(root + "/") for s in writes), writes
assert not [s for s in j["steps"] if s["do"] == "mkdir"], j["steps"]
assert j["steps"][-1] == {"do": "write", "path": root + "/action", "value": "test"}'

# A profile named with a newline and a quote: refused (exit 3), said
# in one string.
"$HIB" -c "$T/c.conf" --configfs "$CFS" -p $'p"\n# check: x' --test -n --json >"$T/out" 2>"$T/err"
rc=$?
check "hostile profile name: exit 3" test "$rc" = 3
check "hostile profile name: strict JSON, the name whole, failed" json_ok "$T/out" '
assert j["profile"] == "p\"\n# check: x", j["profile"]
assert j["exit_status"] == 3 and j["would_run"] is False
assert j["failed_checks"] and j["error"], j'

# 2. A failed run names its failed check, in checks and failed_checks,
# whatever stopped it.
printf '[default]\ntarget = %s\n' "$T/nosuch" >"$T/missing.conf"
truncate -s 256K "$T/sparse"
chmod 0600 "$T/sparse"
printf '[default]\nwriter = file\ntarget = %s\n' "$T/sparse" >"$T/sparse.conf"
printf '[default]\ntarget = /x\ncompresor = lz4\n' >"$T/badkey.conf"
printf '[default]\ntarget = %s\ncompressor = brotli\n' "$T/full" >"$T/word.conf"
chmod 0644 "$T"/*.conf
for c in missing:1 sparse:1 badkey:3 word:3; do
	name=${c%:*} want=${c#*:}
	fake_tree
	"$HIB" -c "$T/$name.conf" --configfs "$CFS" --test -n --json >"$T/out" 2>"$T/err"
	rc=$?
	check "failed dry run ($name): exit $want" test "$rc" = "$want"
	check "failed dry run ($name): a failed check says FAILED" json_ok "$T/out" "
assert j['exit_status'] == $want and j['would_run'] is False
assert j['failed_checks'], j
assert all(c.endswith('FAILED') or ': FAILED' in c for c in j['failed_checks']), j['failed_checks']
assert all(c in j['checks'] for c in j['failed_checks']), j
assert j['error'], j"
	"$HIB" -c "$T/$name.conf" --configfs "$CFS" --test --json >"$T/out" 2>"$T/err"
	check "failed real run ($name): JSON with its exit status and error" json_ok "$T/out" "
assert j['dry_run'] is False and j['exit_status'] == $want, j
assert j['error'] and j['error'] in open('$T/err').read(), j"
done

# 3. A plain user's dry run on the live module: a real run would be
# refused, so would_run is false, and the root check is a failed one.
if [[ $(id -u) != 0 ]]; then
	skip "not root: a plain user's --dry-run --json (setpriv needs root)"
elif have setpriv "a plain user's --dry-run --json"; then
	chmod 0755 "$T"
	setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		env -u HIBERNATE_SYSROOT "$HIB" -c "$T/c.conf" --test -f -n --json \
		>"$T/out" 2>"$T/err"
	check "not root: --dry-run --json says would_run false" json_ok "$T/out" '
assert j["would_run"] is False, j
assert [c for c in j["failed_checks"] if c.startswith("running as root: no: FAILED")], j["failed_checks"]'
fi

# 4. Every action, dry run or not: one JSON object on stdout, or exit 2
# with a message on stderr and nothing on stdout.
printf '[default]\nwriter = file\ntarget = %s\ncompressor = none\n' "$T/full" >"$T/c.conf"
export HIBERNATE_KEYDIR=$T/keys
for a in "" --test --suspend-then-hibernate --resume --invalidate --status \
	--list-profiles --install-systemd "--system-sleep pre" --setup-key \
	"--setup-key tpm" --help --version; do
	for n in "" -n; do
		fake_tree
		# shellcheck disable=SC2086
		"$HIB" -c "$T/c.conf" --configfs "$CFS" $a $n --json -f \
			</dev/null >"$T/out" 2>"$T/err"
		rc=$?
		what="${a:-(hibernate)}${n:+ $n} --json"
		if [[ $rc == 2 && ! -s $T/out ]]; then
			check "$what: refused with a message" grep -q "^hibernate: " "$T/err"
		else
			check "$what: one strict JSON object (exit $rc)" json_ok "$T/out" 'assert isinstance(j, dict)'
		fi
	done
done

# --status --json whose tree has no state attribute: an object saying so.
fake_tree
rm "$CFS/state"
"$HIB" --configfs "$CFS" --status --json >"$T/out" 2>"$T/err"
rc=$?
check "--status --json, state unreadable: exit 1" test "$rc" = 1
check "--status --json, state unreadable: one JSON object with the error" json_ok "$T/out" '
assert j["loaded"] is True and "state" in j["error"], j'

#!/bin/bash
# What a file, an argument or the environment says reaches the terminal
# escaped, in every plain-text output: the dry run's plan, reports,
# errors, the lists of hooks and keys.  An escape sequence (ESC ] 0;
# retitles the window, ESC [ 2J clears it), a carriage return (a line
# overwritten by what follows) or a byte that is not UTF-8 (a lone 0x9b
# is a CSI to an 8-bit terminal) would otherwise act on the terminal of
# whoever runs hibernate.  JSON has its own escaping (json.sh).
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

export HIBERNATE_SYSROOT=$T TZ=UTC
mkdir -p "$T/run"
CFS=$T/cfs
# The hostile text, and what the terminal must see instead.
BAD=$'\033]0;pwned\007\r'
SEEN='\x1b]0;pwned\x07\x0d'

fake_tree() {
	rm -rf "$CFS"
	mkdir -p "$CFS/profiles/p" "$CFS/results"
	echo idle >"$CFS/state"
	echo "suspend2 0.1 image-format 2" >"$CFS/version"
	printf 'compressors: none lzo lz4\nwriters: swap swapfile file bdev\nchecksums: none crc32c\npowerdown: shutdown platform reboot\nactions: hibernate test resume invalidate\n' >"$CFS/capabilities"
	: >"$CFS/profile"
	: >"$CFS/action"
	fake_profile "$CFS" p
	echo none >"$CFS/results/status"
}

# clean FILE: no C0 control but the newline, no DEL, no C1 control, and
# valid UTF-8 throughout.
clean() {
	! LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1" &&
		iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1
}

# terminal NAME SEEN COMMAND...: what COMMAND prints, on stdout and on
# stderr, holds no byte a terminal acts on, and shows SEEN (the hostile
# text escaped) somewhere.
terminal() {
	local name=$1 seen=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	cat "$T/out" "$T/err" >"$T/all"
	if clean "$T/all"; then
		pass "$name: nothing raw reaches the terminal"
	else
		fail "$name: raw bytes reach the terminal"
		od -c "$T/all" | grep -m 3 '\\033\|\\r\|\\a\|[0-9]\{3\}' |
			sed 's/^/    /'
	fi
	check "$name: shown as $seen" grep -qF -- "$seen" "$T/all"
}

fake_tree
: >"$T/t"
chmod 0600 "$T/t"
printf '[p]\nwriter = file\ntarget = %s\n' "$T/t" >"$T/c.conf"

# ---- What the configuration file says (a ']' would end the section
# name: ESC [ 2J, which clears the screen, there).
printf '[p]\nwriter = file\ntarget = %s\nco%smpressor = lz4\n[x%sy]\n' \
	"$T/t" "$BAD" $'\033[2J\r' >"$T/key.conf"
terminal "a key and a section name in the file" \
	"unknown key 'co$SEEN" \
	"$HIB" -c "$T/key.conf" --configfs "$CFS" -p p --test -f -n
check "... the section name too" grep -qF "'[x\\x1b[2J\\x0dy]'" "$T/all"
printf '[p]\nwriter = file\ntarget = %s/t%s\n' "$T" "$BAD" >"$T/tgt.conf"
terminal "a target in the file" "control characters" \
	"$HIB" -c "$T/tgt.conf" --configfs "$CFS" -p p --test -f -n
printf '[p]\nwriter = file\ntarget = %s/t\xff\x9b2J\n' "$T" >"$T/utf.conf"
terminal "a line of the file that is not UTF-8" "invalid UTF-8" \
	"$HIB" -c "$T/utf.conf" --configfs "$CFS" -p p --test -f -n

# ---- Where the configuration is: its path starts every error and the
# plan.
cp "$T/key.conf" "$T/c$BAD.conf"
terminal "the configuration's path, in errors" "c$SEEN.conf:4: unknown key" \
	"$HIB" -c "$T/c$BAD.conf" --configfs "$CFS" -p p --test -f -n
cp "$T/c.conf" "$T/c$BAD.conf"
terminal "the configuration's path, in the plan" \
	"# hibernate --dry-run: action 'test', profile 'p' from $T/c$SEEN.conf" \
	"$HIB" -c "$T/c$BAD.conf" --configfs "$CFS" -p p --test -f -n
terminal "the configuration's path, --list-profiles" "nothere$SEEN" \
	"$HIB" -c "$T/nothere$BAD" --list-profiles

# ---- Arguments.
terminal "-p, a profile that is not there" "no profile 'p$SEEN'" \
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p "p$BAD" --test -f -n
terminal "-p, bytes that are not UTF-8" "no profile 'p\\xff\\x9b[2J'" \
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p $'p\xff\x9b[2J' --test -f -n
terminal "--set, an unknown key" "unknown key 'tar$SEEN" \
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --test -f -n \
	--set "tar${BAD}get=x"
terminal "--set, an unknown key not UTF-8" "unknown key 'tar\\x9bget'" \
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --test -f -n \
	--set $'tar\x9bget=x'
terminal "--set, a target not UTF-8" "$T/t\\xff\\x9b2J" \
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --test -f -n \
	--set "target=$T/t"$'\xff\x9b2J'
terminal "--set without '='" "got 'x$SEEN'" \
	"$HIB" -c "$T/c.conf" -p p -n --set "x$BAD"
terminal "--configfs" "$T/cfs$SEEN" \
	"$HIB" -c "$T/c.conf" --configfs "$T/cfs$BAD" -p p --test -f -n
terminal "--module" "got 'x$SEEN'" \
	"$HIB" -c "$T/c.conf" -p p -n --module "x$BAD"
terminal "--kdf" "got 'x$SEEN'" "$HIB" --setup-key k --kdf "x$BAD"
terminal "--setup-key" "got 'k$SEEN'" "$HIB" --setup-key "k$BAD"
terminal "an argument too many" "unexpected argument 'x$SEEN'" \
	"$HIB" -c "$T/c.conf" -n "x$BAD"
terminal "an unknown option" "--x$SEEN" "$HIB" -n "--x$BAD"
terminal "an unknown short option" "'\\x1b'" "$HIB" -n $'-\033'
terminal "--system-sleep, a verb" "got 'x$SEEN'" \
	"$HIB" --system-sleep pre "x$BAD"
terminal "--install-systemd -n, the configuration's path" \
	"-c \"$T/c$SEEN.conf\"" \
	"$HIB" --install-systemd -n -c "$T/c$BAD.conf" -p p

# ---- The environment.
terminal "HIBERNATE_SYSROOT" "$T$SEEN" \
	env HIBERNATE_SYSROOT="$T$BAD" "$HIB" -c "$T/c.conf" -p p --test -f -n
mkdir -p "$T/keys$BAD"
terminal "HIBERNATE_KEYDIR, in --status" "key files:     $T/keys$SEEN" \
	env HIBERNATE_KEYDIR="$T/keys$BAD" \
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --status

# ---- Names found on the system: key files, system-sleep hooks.
mkdir -p "$T/keys"
: >"$T/keys/k$BAD.pub"
terminal "a key file's name, in --status" "k$SEEN.pub" \
	env HIBERNATE_KEYDIR="$T/keys" \
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --status
L=$T/usr/lib/systemd/system-sleep
mkdir -p "$L"
printf '#!/bin/sh\n' >"$L/h$BAD"
chmod 0755 "$L/h$BAD"
terminal "a system-sleep hook's name, in the dry run" "$L/h$SEEN" \
	"$HIB" --system-sleep pre -n
rm -f "$L/h$BAD"

# ---- What the module reports: a task name is the task's to choose.
fake_tree
echo tested >"$CFS/results/status"
printf 'evil%s\n' "$BAD" >"$CFS/results/refused_tasks"
terminal "a task name in the report" "refused to freeze        evil$SEEN" \
	"$HIB" -c "$T/c.conf" --configfs "$CFS" -p p --status

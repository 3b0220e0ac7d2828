#!/bin/bash
# One list of words for the module and the command: kernel/suspend2/names.h.
# hibernate takes its built-in lists from it; this checks that the
# module's own tables (compressor, checksum and powerdown names, the
# writers' names in registration order) say exactly the same, so a name
# added to one and not the other fails here.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

K=$TOP/kernel/suspend2

# header NAME: the words of S2_NAME_NAMES, blank-separated.
header() {
	printf '#include "%s"\n#define X(s) s " "\nconst char *l = S2_%s_NAMES(X);\n' \
		"$K/names.h" "$1" | gcc -E -P -x c - |
		python3 -c 'import re, sys
print(" ".join("".join(re.findall(r"\"([^\"]*)\"", sys.stdin.read())).split()))'
}

# table FILE ARRAY: the strings of "ARRAY[...] = { ... };" in FILE.
table() {
	python3 - "$1" "$2" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
m = re.search(re.escape(sys.argv[2]) + r"\s*\[[^]]*\]\s*=\s*\{(.*?)\};", src, re.S)
print(" ".join(re.findall(r"\"([^\"]*)\"", m.group(1))) if m else "?")
PY
}

# writers: the .name of each entry of s2_writers[], in its order.
writers() {
	python3 - "$K" <<'PY'
import glob, re, sys
k = sys.argv[1]
names = {}
for f in glob.glob(k + "/writers/*.c"):
    for var, name in re.findall(r"struct s2_writer_ops\s+(\w+)\s*=\s*\{[^}]*?\.name\s*=\s*\"([^\"]+)\"", open(f).read(), re.S):
        names[var] = name
m = re.search(r"s2_writers\[\]\s*=\s*\{(.*?)\};", open(k + "/writers/writer.c").read(), re.S)
print(" ".join(names.get(v, "?" + v) for v in re.findall(r"&(\w+)", m.group(1))))
PY
}

same() {
	if [[ "$2" == "$3" && -n "$2" && "$2" != *'?'* ]]; then
		pass "names.h: $1: '$2'"
	else
		fail "names.h: $1: header '$2', module '$3'"
	fi
}

same compressors "$(header COMPRESSOR)" "$(table "$K/compress/compress.c" s2_compressor_names)"
same checksums "$(header CHECKSUM)" "$(table "$K/core/settings.c" s2_checksum_names)"
same powerdown "$(header POWERDOWN)" "$(table "$K/core/settings.c" s2_powerdown_names)"
same writers "$(header WRITER)" "$(writers)"

# And hibernate offers exactly these before the module is loaded.
printf '[default]\ntarget = /dev/null\ncompressor = nosuch\n' >"$T/c.conf"
"$HIB" -c "$T/c.conf" --configfs "$T/none" -n >/dev/null 2>"$T/err"
got=$(sed -n "s/.*it offers: \(.*\))$/\1/p" "$T/err")
same "hibernate's built-in compressors" "$(header COMPRESSOR)" "$got"

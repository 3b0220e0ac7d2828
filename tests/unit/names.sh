#!/bin/bash
# One source for the facts the module and the command share:
# kernel/suspend2/names.h.  Both build their tables from it; this checks
# what is still written elsewhere against it: the writers' names in
# registration order, and (names-docs.py) the order of hibernate's K_
# keys and the tables of docs/configfs.md and man/hibernate.conf.5.
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

same writers "$(header WRITER)" "$(writers)"

# The header's rows, one Python tuple a line, for names-docs.py.
{
	printf '#include "%s"\n#define W(s) s,\n' "$K/names.h"
	printf '#define T(n, s, d, lo, hi, k, w) ("T", #n, #k, #s, lo, hi, #d, [w(W)]);\n'
	printf '#define P(id, n, title) ("P", #n);\n#define R(n, k) ("R", #n);\n'
	printf 'S2_TUNABLES(T) S2_RESULTS_HEAD(R) S2_PHASES(P) S2_RESULTS_TAIL(R)\n'
} | gcc -E -P -x c - | tr ';' '\n' | python3 "$(dirname "$0")/names-docs.py" "$TOP"

# And hibernate offers exactly these before the module is loaded.
printf '[default]\ntarget = /dev/null\ncompressor = nosuch\n' >"$T/c.conf"
"$HIB" -c "$T/c.conf" --configfs "$T/none" -n >/dev/null 2>"$T/err"
got=$(sed -n "s/.*it offers: \(.*\))$/\1/p" "$T/err")
same "hibernate's built-in compressors" "$(header COMPRESSOR)" "$got"

# The initramfs hooks add a module for every compressor but "none": the
# module asks the crypto API for them by name, so nothing else brings them.
want=$(header COMPRESSOR | sed 's/^none //')
same "initramfs-tools hook's compressors" "$want" \
	"$(sed -n 's/^[[:space:]]*add_present \(lzo.*\)$/\1/p' "$TOP/etc/initramfs-tools/hooks/suspend2")"
same "dracut module's compressors" "$want" \
	"$(sed -n "s/^[[:space:]]*hostonly='' instmods \(lzo.*\)$/\1/p" "$TOP/etc/dracut/90suspend2/module-setup.sh")"

# The compressor levels: docs/configfs.md and etc/hibernate.conf give the
# ranges names.h gives (hibernate and the module take them from it).
levels=$(printf '#include "%s"\n#define L(n, lo, hi) n ":" #lo ":" #hi " "\nconst char *l = S2_COMPRESSOR_LEVELS(L);\n' \
	"$K/names.h" | gcc -E -P -x c - | python3 -c 'import re, sys
print(" ".join("".join(re.findall(r"\"([^\"]*)\"", sys.stdin.read())).split()))')
if [[ $(wc -w <<<"$levels") != 3 ]]; then
	fail "names.h: S2_COMPRESSOR_LEVELS read as '$levels'"
fi
for l in $levels; do
	IFS=: read -r n lo hi <<<"$l"
	check "docs/configfs.md: $n levels $lo..$hi" \
		grep -q "\`$n\` $lo\.\.$hi" "$TOP/docs/configfs.md"
	check "etc/hibernate.conf: $n levels $n:$lo to $n:$hi" \
		grep -q "$n:$lo to $n:$hi" "$TOP/etc/hibernate.conf"
done

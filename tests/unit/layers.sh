#!/bin/bash
# cli/ is layered, in folders (docs/layout.md).  A file includes only the
# headers of its own folder and of the folders below it:
#
#   lib/     helpers that know nothing of the configuration
#   conf/    the configuration, the options, struct run     (lib)
#   system/  systemd, suspend to RAM, hooks, the initramfs  (lib conf)
#   check/   the checks before a cycle                      (lib conf)
#   keys/    the image key                                  (lib conf system check)
#   cycle/   the cycle, the module, reports, --status       (all of the above)
#
# and cli/hibernate.c, main(), on top of all.  Every include of the
# command's own names its path from cli/ ("lib/strutil.h"), so that the
# line itself says which layer it reaches into; the kernel's names.h is
# "../kernel/suspend2/names.h" from anywhere.
#
# Within cycle/, run.c is the top: it calls the steps (check/trust.c,
# cycle/module.c, keys/imgkey.c, check/target.c), which share struct run
# and note() through conf/step.h; nothing below run.c includes run.h or
# calls back up into it.  A file that includes run.h again brings back
# the circle this once was (the steps calling run.c's note() and run.c
# calling the steps).
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

# The folders a file of each folder may include from ("." is cli/).
declare -A ALLOW=(
	[lib]="lib"
	[conf]="lib conf"
	[system]="lib conf system"
	[check]="lib conf check"
	[keys]="lib conf system check keys"
	[cycle]="lib conf system check keys cycle"
	[.]="lib conf system check keys cycle"
)

# layer_errors DIR: what breaks the rule in the tree DIR (a cli/), one
# line each; nothing when it holds.
layer_errors() {
	local dir=$1 f rel from inc to
	while IFS= read -r f; do
		rel=${f#"$dir"/}
		from=.
		[[ $rel == */* ]] && from=${rel%/*}
		if [[ -z ${ALLOW[$from]:-} ]]; then
			echo "$rel: $from/ is no layer"
			continue
		fi
		if [[ $from == . && $rel != hibernate.c ]]; then
			echo "$rel: only hibernate.c is above the layers"
		fi
		# Every #include "...", whatever its spacing.
		while IFS= read -r inc; do
			[[ $inc == ../kernel/* ]] && continue
			to=${inc%%/*}
			if [[ $inc != */* || $inc == */*/* || $to == . ||
			      -z ${ALLOW[$to]:-} ]]; then
				echo "$rel: #include \"$inc\" names no layer (write \"lib/NAME.h\")"
			elif [[ ! -e $dir/$inc ]]; then
				echo "$rel: #include \"$inc\": no such file"
			elif [[ " ${ALLOW[$from]} " != *" $to "* ]]; then
				echo "$rel: #include \"$inc\" reaches up from $from/ into $to/"
			fi
		done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1/p' "$f")
	done < <(find "$dir" -name '*.[ch]' | sort)
}

errs=$(layer_errors "$TOP/cli")
if [[ -z $errs ]]; then
	pass "cli/: every include points down the layers"
else
	fail "cli/: every include points down the layers"
	while IFS= read -r l; do echo "    $l"; done <<<"$errs"
fi
check "cli/: the layers hold files (the check finds them)" \
	test "$(find "$TOP/cli"/{lib,conf,system,check,keys,cycle} -name '*.c' | wc -l)" -gt 30

# The check fails where it should: in a copy of cli/, an include up from
# lib/, one with no folder, one outside the layers, a file in no layer.
cp -r "$TOP/cli" "$T/cli"
echo '#include "cycle/run.h"' >>"$T/cli/lib/strutil.c"
echo '# include  "strutil.h"' >>"$T/cli/lib/msg.c"
echo '#include "../cli/conf/conf.h"' >>"$T/cli/conf/ini.c"
: >"$T/cli/stray.c"
errs=$(layer_errors "$T/cli")
check "the check finds an include up from lib/ into cycle/" \
	grep -qF 'lib/strutil.c: #include "cycle/run.h" reaches up from lib/ into cycle/' <<<"$errs"
check "the check finds an include that names no folder" \
	grep -qF 'lib/msg.c: #include "strutil.h" names no layer' <<<"$errs"
check "the check finds an include by another path" \
	grep -qF 'conf/ini.c: #include "../cli/conf/conf.h" names no layer' <<<"$errs"
check "the check finds a file above the layers" \
	grep -qxF 'stray.c: only hibernate.c is above the layers' <<<"$errs"
check "the check finds nothing else in the copy" \
	test "$(wc -l <<<"$errs")" = 4

# Every #include "run.h" under cli/, whatever its spacing or path.
includers=$(grep -rlE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*/)?run\.h"' \
	"$TOP/cli" --include='*.c' --include='*.h' | sed "s|^$TOP/||" | sort)
bad=$(grep -vxE 'cli/(.*/)?(hibernate|run)\.c' <<<"$includers")
if [[ -z $bad ]]; then
	pass "only hibernate.c and run.c include run.h"
else
	fail "only hibernate.c and run.c include run.h; also: $(tr '\n' ' ' <<<"$bad")"
fi
check "run.c includes run.h (the check finds includes)" \
	grep -qxE 'cli/(.*/)?run\.c' <<<"$includers"

# Nor does anything call what run.c defines but hib_run(): linked from
# objects, so no declaration elsewhere can hide a call.  Objects are
# named by their path from cli/ (cycle-run.o).
if ! have nm "calls into run.c"; then
	:
else
	mkdir -p "$T/o"
	ok=1
	while read -r f; do
		o=${f#"$TOP"/cli/}
		o=${o%.c}.o
		gcc -std=gnu11 -D_GNU_SOURCE -I"$TOP/cli" \
			-c -o "$T/o/${o//\//-}" "$f" || ok=0
	done < <(find "$TOP/cli" -name '*.c')
	if [[ $ok == 0 ]]; then
		fail "cli/ compiles file by file"
	elif [[ ! -e $T/o/cycle-run.o ]]; then
		fail "cli/cycle/run.c is where the check looks for run.c"
	else
		defs=$(nm --defined-only "$T/o/cycle-run.o" | awk '$2 ~ /[TDBR]/ { print $3 }')
		callers=$(for o in "$T"/o/*.o; do
			[[ $o == */cycle-run.o || $o == */hibernate.o ]] && continue
			nm --undefined-only "$o" | awk '{ print $2 }' |
				grep -qxF -f <(echo "$defs") && basename "$o" .o
		done)
		check "nothing below run.c calls into it${callers:+ (called from: $(tr '\n' ' ' <<<"$callers"))}" \
			test -z "$callers"
	fi
fi

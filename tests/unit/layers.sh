#!/bin/bash
# cli/ is layered: run.c, the top, calls the steps (trust.c, module.c,
# imgkey.c, target.c), which share struct run and note() through step.h;
# nothing below run.c includes run.h or calls back up into it.  A file
# that includes run.h again brings back the circle this once was (the
# steps calling run.c's note() and run.c calling the steps).
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

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
# objects, so no declaration elsewhere can hide a call.
if ! have nm "calls into run.c"; then
	:
else
	mkdir -p "$T/o"
	ok=1
	while read -r f; do
		# shellcheck disable=SC2046
		gcc -std=gnu11 -D_GNU_SOURCE $(find "$TOP/cli" -type d -printf '-I%p ') \
			-c -o "$T/o/$(basename "$f" .c).o" "$f" || ok=0
	done < <(find "$TOP/cli" -name '*.c')
	if [[ $ok == 0 ]]; then
		fail "cli/ compiles file by file"
	else
		defs=$(nm --defined-only "$T/o/run.o" | awk '$2 ~ /[TDBR]/ { print $3 }')
		callers=$(for o in "$T"/o/*.o; do
			[[ $o == */run.o || $o == */hibernate.o ]] && continue
			nm --undefined-only "$o" | awk '{ print $2 }' |
				grep -qxF -f <(echo "$defs") && basename "$o" .o
		done)
		check "nothing below run.c calls into it${callers:+ (called from: $(tr '\n' ' ' <<<"$callers"))}" \
			test -z "$callers"
	fi
fi

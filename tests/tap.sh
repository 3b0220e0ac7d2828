# shellcheck shell=bash
# The one result format of every suite: TAP, as kselftest and KUnit print
# it ("ok N - name", "not ok N - name", "# diagnostic", a plan "1..N").
# A suite prints test lines in any numbering, from as many producers as it
# runs (each cmocka binary, the shell tests, the VM scenarios), and pipes
# everything through tap_summary, which numbers them in one sequence and
# computes the closing line "N passed, N failed" that .ci/run,
# tests/run-all, the README and CI read as a suite's last line.

# tap_summary: filter a suite's output (stdin) into TAP (stdout).  Test
# lines are numbered in one sequence; any other line becomes a "# "
# diagnostic; a producer's plan "1..N" is checked (a producer that planned
# more tests than it reported, e.g. a crashed cmocka binary, adds a failed
# test) and kept as a diagnostic; then the plan of the whole, and last
# "N passed, N failed" (a "# SKIP" test counts as neither).  Returns 1
# when anything failed.
tap_summary() {
	local awk=(awk)

	# mawk (Debian's awk) reads a pipe in blocks: a suite's lines would
	# show only when the next block is full or the suite ended.
	awk -W version 2> /dev/null | grep -q mawk && awk=(awk -W interactive)
	# shellcheck disable=SC2016 # an awk program, not shell
	"${awk[@]}" '
	function out(s) { print s; fflush() }
	function test(verdict, desc) {
		n++
		skip = desc ~ /^# *[Ss][Kk][Ii][Pp]/
		passed += !skip && verdict == "ok"
		failed += !skip && verdict != "ok"
		out(verdict " " n (desc == "" ? "" : desc ~ /^#/ ? " " desc : " - " desc))
	}
	function missing(want, got) {
		test("not ok", sprintf("%d of %d planned tests did not report", want - got, want))
	}
	# A plan before its tests stays open until they are all in.  A plan
	# after them (the one a suite ends with, under tests/run-all) checks
	# nothing: it may follow the tests of other producers.
	function plan(want) {
		if (planned)
			missing(planned, seen)
		planned = seen && !planned ? 0 : want
		seen = 0
	}
	/^(not )?ok( |$)/ {
		verdict = /^not / ? "not ok" : "ok"
		desc = $0
		sub(/^(not )?ok *[0-9]* *-? */, "", desc)
		test(verdict, desc)
		seen++
		if (planned && seen == planned)
			planned = seen = 0
		next
	}
	/^1\.\.[0-9]+( |$)/ {
		out("# " $0)
		plan(substr($1, 4) + 0)
		next
	}
	/^Bail out!/ { out($0); test("not ok", "bailed out"); next }
	/^#/ { out($0); next }
	{ out("# " $0) }
	END {
		if (planned)
			missing(planned, seen)
		out("1.." n)
		out(passed + 0 " passed, " failed + 0 " failed")
		exit (failed > 0)
	}'
}

# tap_suite CMD...: run a suite (one that ends with "N passed, N failed"),
# its output and stderr on stdout, for a tap_summary that adds several
# suites up.  A suite that did not print the closing line, or exited with
# a failure it did not count, adds a failed test.
tap_suite() {
	local log rc last
	log=$(mktemp)
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	last=$(tail -n 1 "$log")
	rm -f "$log"
	if [[ ! $last =~ ^[0-9]+\ passed,\ ([0-9]+)\ failed$ ]]; then
		echo "not ok - '$*' printed no closing 'N passed, N failed' line (status $rc)"
	elif [ "$rc" != 0 ] && [ "${BASH_REMATCH[1]}" = 0 ]; then
		echo "not ok - '$*' exited with status $rc although it reported no failure"
	fi
	return "$rc"
}

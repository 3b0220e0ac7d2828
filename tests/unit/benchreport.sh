#!/bin/bash
# tests/bench/report.py on a made-up run: the table's medians and
# speed-ups, and the chart written beside the document it rewrites (the
# document links it by name); --chart draws it from a document's table.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

R=$TOP/tests/bench/report.py
mkdir -p "$T/out" "$T/docs"
{
	printf 'speed\tcell\trun\tok\thibernate_s\twrite_s\tresume_s\tread_s\timage_bytes\traw_bytes\tdisk_bytes\n'
	printf '20\tmainline:lzo\t1\tyes\t10\t8\t11\t8\t100\t300\t100\n'
	printf '20\tmainline:lzo\t2\tyes\t12\t6\t13\t9\t100\t300\t100\n'
	printf '20\tmainline:lzo\t3\tyes\t11\t7\t12\t10\t100\t300\t100\n'
	printf '20\tsuspend2:lzo:0\t1\tyes\t9\t3.5\t9\t4\t90\t300\t\n'
	printf '20\tsuspend2:lzo:0\t2\tno\t1\t1\t1\t1\t90\t300\t\n'
} >"$T/raw.tsv"
(cd "$TOP" && python3 "$R" "$T/raw.tsv" "$T/out" "$T/docs/b.md") >"$T/stdout" 2>"$T/err"
check "report.py exits 0" test $? = 0
check "mainline: the medians of 3 runs" \
	grep -q '^| 20 MB/s | mainline:lzo | 3/3 | 11.00 | 7.00 | 12.00 | 9.00 |' "$T/docs/b.md"
check "suspend2: a failed run is counted and left out, write speed-up 2.00x" \
	grep -q '^| 20 MB/s | suspend2:lzo:0 | 1/2 | 9.00 | 3.50 | 9.00 | 4.00 | .* | 2.00x |' "$T/docs/b.md"
check "the chart beside the document" test -s "$T/docs/b.png"
check "the document links it by name" grep -q '^!\[chart\](b.png)' "$T/docs/b.md"
check "the chart is a PNG" test "$(head -c 4 "$T/docs/b.png" | tail -c 3)" = PNG
rm -f "$T/docs/b.png"
python3 "$R" --chart "$T/docs/b.md" 2>"$T/err"
check "--chart: from the document's table alone" test -s "$T/docs/b.png"
check "--chart: no data file left" test ! -e "$T/docs/b.dat"
printf '# Empty\n\nNo table.\n' >"$T/docs/e.md"
python3 "$R" --chart "$T/docs/e.md" 2>"$T/err"
check "--chart without a table: exit 1" test $? = 1
check "... and says so" grep -q "has no table with hibernate and resume times" "$T/err"

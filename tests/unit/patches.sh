#!/bin/bash
# make patches (kernel/scripts/make-patches): the real series becomes
# mail that git can send, numbered in order, addressed, with a cover
# letter; and on a small made-up tree and series, the size it reports,
# the recipients, and a patch that does not apply or a missing cover
# letter refused with the file named.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

MP=$TOP/kernel/scripts/make-patches
SRC=/usr/src/linux-source-6.12.tar.xz
if [[ ! -r $SRC ]]; then
	fail "make-patches: $SRC missing (make deps installs linux-source-6.12)"
	exit 0
fi

# --- the real series -----------------------------------------------------
mapfile -t series < <(grep -v '^\s*\(#\|$\)' "$TOP/kernel/patches/series")
n=${#series[@]}
if "$MP" "$T/real" >"$T/out" 2>"$T/err"; then
	pass "make-patches: the series ($n patches) applies with git am and is written as mail"
else
	fail "make-patches failed: $(cat "$T/err")"
	exit 0
fi
mapfile -t mails < <(cd "$T/real" && LC_ALL=C ls)
check "make-patches: a cover letter and $n patches" \
	test "${#mails[@]}" = $((n + 1)) -a "${mails[0]}" = 0000-cover-letter.patch

# Each patch's subject, unfolded, is [RFC PATCH i/n] and the subject of
# the series' i-th file; git pads i (and the cover letter's 0) to the
# width of n.
subject() {
	awk '/^Subject:/ { s = $0; on = 1; next }
		on && /^[ \t]/ { s = s $0; next }
		on { print s; exit }' "$1" | sed 's/^Subject: //'
}
bad=
for i in $(seq 1 "$n"); do
	want=$(subject "$TOP/kernel/patches/${series[i - 1]}" | sed 's/^\[PATCH[^]]*\] //')
	got=$(subject "$T/real/${mails[i]}")
	printf -v num "%0${#n}d" "$i"
	[[ $got == "[RFC PATCH $num/$n] $want" ]] || bad+=" $i:'$got'"
done
check "make-patches: subjects [RFC PATCH i/$n] in series order${bad:+ (wrong:$bad)}" test -z "$bad"

cover=$T/real/0000-cover-letter.patch
printf -v num "%0${#n}d" 0
check "make-patches: the cover letter has its subject and text, no placeholders" \
	bash -c "grep -q '^Subject: \[RFC PATCH $num/$n\] PM: hibernate: hooks' '$cover' &&
		grep -q '^Tested in QEMU' '$cover' && ! grep -q 'HERE \*\*\*' '$cover'"
check "make-patches: the cover letter gives the size outside comments" \
	grep -Eq '^Size: [0-9]+ added, [0-9]+ removed lines outside comments' "$cover"
check "make-patches: linux-pm is copied on the freezer patch" \
	bash -c "sed -n '/^Cc:/,/^$/p' '$T/real/0003-'*.patch | grep -q linux-pm@vger.kernel.org"
check "make-patches: the kexec patch goes to the kexec maintainer" \
	bash -c "sed -n '/^To:/,/^[A-Z][a-z]*:/p' '$T/real/0007-'*.patch | grep -q 'Eric Biederman'"
# git itself reads each mail back: mailinfo finds the author and subject.
bad=
for m in "${mails[@]:1}"; do
	git mailinfo "$T/msg" "$T/patch" <"$T/real/$m" >"$T/info" 2>/dev/null &&
		grep -q '^Author: Seed' "$T/info" && [[ -s $T/patch ]] || bad+=" $m"
done
check "make-patches: git mailinfo reads every patch back${bad:+ (not:$bad)}" test -z "$bad"

# --- a made-up tree and series -------------------------------------------
top=$T/tree/linux-source-6.12
mkdir -p "$top/kernel" "$top/Documentation" "$top/scripts"
tar -xJf "$SRC" -C "$T/tree" linux-source-6.12/scripts/get_maintainer.pl \
	linux-source-6.12/scripts/checkpatch.pl linux-source-6.12/scripts/spelling.txt \
	linux-source-6.12/scripts/const_structs.checkpatch
for f in COPYING CREDITS Kbuild Makefile README; do echo "$f" >"$top/$f"; done
cat >"$top/MAINTAINERS" <<'EOF'
FOO DRIVER
M:	Foo Maintainer <foo@example.org>
R:	Rev Iewer <rev@example.org>
L:	foo-list@example.org
S:	Maintained
F:	kernel/foo.c
EOF
printf 'int a;\nint b;\n' >"$top/kernel/foo.c"
printf 'Foo.\n' >"$top/Documentation/foo.txt"
tar -cJf "$T/src.tar.xz" -C "$T/tree" linux-source-6.12

mkdir -p "$T/s"
cat >"$T/s/0001-foo.patch" <<'EOF'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Ann Author <ann@example.org>
Date: Thu, 3 Dec 2026 08:00:00 +0000
Subject: [PATCH] foo: count

Count.

Signed-off-by: Ann Author <ann@example.org>
---
diff --git a/Documentation/foo.txt b/Documentation/foo.txt
--- a/Documentation/foo.txt
+++ b/Documentation/foo.txt
@@ -1 +1,2 @@
-Foo.
+Foo counts.
+It counts.
diff --git a/kernel/foo.c b/kernel/foo.c
--- a/kernel/foo.c
+++ b/kernel/foo.c
@@ -1,2 +1,15 @@
 int a;
-int b;
+/* Eight lines of code, five of comment, one blank. */
+int c;
+
+// c and d
+int d;
+int e;
+/*
+   a comment line without a star
+ */
+int *p;
+void f(void)
+{
+	*p = 0;
+}
diff --git a/kernel/Kconfig.foo b/kernel/Kconfig.foo
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/kernel/Kconfig.foo
@@ -0,0 +1,6 @@
+# two lines of code, four of comment
+config FOO
+	bool "Foo"
+	help
+	  Foo help.
+
diff --git a/MAINTAINERS b/MAINTAINERS
--- a/MAINTAINERS
+++ b/MAINTAINERS
@@ -4,3 +4,4 @@ R:	Rev Iewer <rev@example.org>
 L:	foo-list@example.org
 S:	Maintained
 F:	kernel/foo.c
+F:	kernel/Kconfig.foo
-- 
2.39.5
EOF
printf 'foo & bar\\n: a test series\n\nThe text.\n' >"$T/s/cover-letter"
echo 0001-foo.patch >"$T/s/series"
if PATCHES=$T/s LINUX_SOURCE=$T/src.tar.xz "$MP" "$T/out1" >"$T/out" 2>"$T/err"; then
	c=$T/out1/0000-cover-letter.patch
	check "make-patches: size counts code only (10 added, 1 removed; 4 lines of Documentation/ and MAINTAINERS)" \
		bash -c "grep -q '^Size: 10 added, 1 removed lines outside comments and blank lines, and 4$' '$c' &&
			grep -q '^lines of Documentation/ and MAINTAINERS' '$c'"
	check "make-patches: the cover's subject is taken as text (& and backslash kept)" \
		grep -qF 'Subject: [RFC PATCH 0/1] foo & bar\n: a test series' "$c"
	p=$T/out1/0001-foo-count.patch
	check "make-patches: maintainer and reviewer in To:, the list in Cc:" \
		bash -c "sed -n '/^To:/,/^Cc:/p' '$p' | grep -q 'Foo Maintainer <foo@example.org>' &&
			sed -n '/^To:/,/^Cc:/p' '$p' | grep -q 'Rev Iewer <rev@example.org>' &&
			grep -q '^Cc: foo-list@example.org$' '$p'"
	check "make-patches: the series is sent as its author" \
		grep -q '^From: Ann Author <ann@example.org>' "$c"
else
	fail "make-patches on the made-up series: $(cat "$T/err")"
fi

# A patch whose context is not in the tree is named, and no mail is left
# half written as if it were the series: the earlier run's mail stays.
sed 's/^ int a;$/ int z;/' "$T/s/0001-foo.patch" >"$T/s/0002-bad.patch"
printf '0001-foo.patch\n0002-bad.patch' >"$T/s/series"	# no final newline
sum=$(cat "$T/out1"/*.patch 2>/dev/null | md5sum)
PATCHES=$T/s LINUX_SOURCE=$T/src.tar.xz expect_rc \
	"make-patches: a patch that does not apply fails, naming it" 1 "$MP" "$T/out1"
check "make-patches: ... in words, the series' last line read without its newline" \
	grep -q '0002-bad.patch does not apply with git am' "$T/err"
check "make-patches: ... and the earlier mail is left as it was" \
	test "$(cat "$T/out1"/*.patch 2>/dev/null | md5sum)" = "$sum" -a -s "$T/out1/0000-cover-letter.patch"

# An output directory holding anything but mail is refused and kept.
mkdir -p "$T/keep"
echo mine >"$T/keep/notes.txt"
echo 0001-foo.patch >"$T/s/series"
PATCHES=$T/s LINUX_SOURCE=$T/src.tar.xz expect_rc \
	"make-patches: an output directory with other files is refused" 1 "$MP" "$T/keep"
check "make-patches: ... naming the file, which is still there" \
	bash -c "grep -q 'holds notes.txt' '$T/err' && test \"\$(cat '$T/keep/notes.txt')\" = mine"

echo 0001-foo.patch >"$T/s/series"
rm "$T/s/cover-letter"
PATCHES=$T/s LINUX_SOURCE=$T/src.tar.xz expect_rc \
	"make-patches: no cover letter, refused" 1 "$MP" "$T/out3"
check "make-patches: ... saying which file is missing" grep -q 'cover-letter is missing' "$T/err"

#!/bin/bash
# The man pages are lint-clean and mention every option and every key.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

for page in "$TOP/man/hibernate.8" "$TOP/man/hibernate.conf.5"; do
	out=$(mandoc -Tlint "$page" 2>&1)
	if [[ -z $out ]]; then
		pass "mandoc -Tlint $(basename "$page")"
	else
		fail "mandoc -Tlint $(basename "$page"): $out"
	fi
done

# Rendered as plain ASCII, so hyphens and quotes are what --help says.
MAN8=$(mandoc -Tascii "$TOP/man/hibernate.8" | col -b)
MAN5=$(mandoc -Tascii "$TOP/man/hibernate.conf.5" | col -b)

opts=$("$HIB" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
check "--help lists options" test -n "$opts"
for o in $opts; do
	if grep -q -- "$o" <<<"$MAN8"; then
		pass "hibernate.8 documents $o"
	else
		fail "hibernate.8 documents $o"
	fi
done

# Every key the parser accepts: from the binary's key table, by way of
# the shipped configuration (which must list them all) and the parser.
keys=$(sed -n 's/^#\{0,1\}\([a-z_]*\) = .*/\1/p' "$TOP/etc/hibernate.conf" | sort -u)
for k in $TUNABLES inherit \
	pre_hibernate post_resume hook_timeout unload_module module \
	resume_location swap_on_demand \
	ac_profile battery_profile lid power_button sleep_button; do
	if grep -qw -- "$k" <<<"$MAN5"; then
		pass "hibernate.conf.5 documents $k"
	else
		fail "hibernate.conf.5 documents $k"
	fi
	if grep -qx -- "$k" <<<"$keys"; then
		pass "etc/hibernate.conf shows $k"
	else
		fail "etc/hibernate.conf shows $k"
	fi
	# The parser knows it: an unknown key would say "unknown key".
	sect=default
	case $k in ac_profile | battery_profile | lid | power_button | sleep_button) sect=acpi ;; esac
	printf '[%s]\n%s = \n' "$sect" "$k" >"$T/k.conf"
	if "$HIB" -c "$T/k.conf" --list-profiles 2>&1 | grep -q "unknown key"; then
		fail "parser knows $k"
	else
		pass "parser knows $k"
	fi
done

# Every exit status the binary uses is documented.
for code in 0 1 2 3 4 5 6 7 8 9 10; do
	if sed -n '/^EXIT STATUS/,/^ENVIRONMENT/p' <<<"$MAN8" | grep -qE "^ +$code( |\$)"; then
		pass "hibernate.8 EXIT STATUS $code"
	else
		fail "hibernate.8 EXIT STATUS $code"
	fi
done

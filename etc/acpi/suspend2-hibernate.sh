#!/bin/sh
# suspend2-hibernate.sh - acpid action for lid close and power/sleep button.
#
# acpid runs it as "suspend2-hibernate.sh %e", e.g. with the words
# "button/lid LID close" or "button/power PBTN 00000080 00000000".  It
# picks the profile from the [acpi] section of hibernate.conf (ac_profile
# on mains power, battery_profile on battery), runs "hibernate -p PROFILE"
# and logs through logger.  A second event while a cycle runs, or within
# SUSPEND2_ACPI_GRACE seconds after one ended (the button press that woke
# the machine arrives after the thaw), is logged and ignored.
#
# The environment can move every path, for tests and odd systems:
# HIBERNATE, HIBERNATE_CONF, POWER_SUPPLY_DIR, SUSPEND2_ACPI_LOCK,
# SUSPEND2_ACPI_STAMP, SUSPEND2_ACPI_GRACE, HIBERNATE_SYSROOT.

HIBERNATE=${HIBERNATE:-hibernate}
CONF=${HIBERNATE_CONF:-/etc/hibernate.conf}
POWER_SUPPLY=${POWER_SUPPLY_DIR:-/sys/class/power_supply}
LOCK=${SUSPEND2_ACPI_LOCK:-/run/suspend2-acpi.lock}
STAMP=${SUSPEND2_ACPI_STAMP:-/run/suspend2-acpi.last}
GRACE=${SUSPEND2_ACPI_GRACE:-10}
HLOCK=${HIBERNATE_SYSROOT:-}/run/hibernate.lock

log() {
	logger -t suspend2-acpi -- "$*"
}

# conf_get KEY DEFAULT: KEY from the [acpi] section of $CONF.
conf_get() {
	v=
	if [ -r "$CONF" ]; then
		v=$(awk -v key="$1" '
			/^[ \t]*[#;]/ { next }
			/^[ \t]*\[/ {
				s = $0
				sub(/^[ \t]*\[[ \t]*/, "", s)
				sub(/[ \t]*\].*$/, "", s)
				insec = (s == "acpi")
				next
			}
			insec && index($0, "=") {
				k = substr($0, 1, index($0, "=") - 1)
				v = substr($0, index($0, "=") + 1)
				gsub(/^[ \t]+|[ \t]+$/, "", k)
				gsub(/^[ \t]+|[ \t]+$/, "", v)
				# A comment after the value, as hibernate reads it.
				sub(/^[#;].*$|[ \t]+[#;].*$/, "", v)
				if (k == key) { print v; exit }
			}' "$CONF")
	fi
	echo "${v:-$2}"
}

is_yes() {
	case "$1" in
	[Yy][Ee][Ss] | [Tt][Rr][Uu][Ee] | 1 | [Oo][Nn]) return 0 ;;
	esac
	return 1
}

# On mains power, or no mains supply known at all (a desktop)?
on_ac() {
	found=0
	for d in "$POWER_SUPPLY"/*; do
		[ -r "$d/type" ] || continue
		[ "$(cat "$d/type")" = Mains ] || continue
		found=1
		[ "$(cat "$d/online" 2>/dev/null)" = 1 ] && return 0
	done
	[ "$found" = 0 ]
}

# acpid may pass the event as one word or several.
# shellcheck disable=SC2048,SC2086
set -- $*
event="$*"

case "$1" in
button/lid*)
	[ "$3" = close ] || exit 0
	key=lid
	;;
button/power*)
	key=power_button
	;;
button/sleep*)
	key=sleep_button
	;;
*)
	log "ignoring event '$event'"
	exit 0
	;;
esac

if ! is_yes "$(conf_get "$key" yes)"; then
	log "'$event': $key = no in $CONF; ignoring"
	exit 0
fi

exec 9>"$LOCK" || exit 1
if ! flock -n 9; then
	log "'$event': a hibernate cycle is running; ignoring"
	exit 0
fi
if [ -e "$HLOCK" ] && ! flock -n "$HLOCK" true; then
	log "'$event': hibernate is running ($HLOCK is locked); ignoring"
	exit 0
fi
if [ -r "$STAMP" ]; then
	last=$(cat "$STAMP")
	now=$(date +%s)
	case "$last" in
	'' | *[!0-9]*) ;;
	*)
		if [ $((now - last)) -lt "$GRACE" ]; then
			log "'$event': a cycle ended $((now - last)) s ago; ignoring"
			exit 0
		fi
		;;
	esac
fi

if on_ac; then
	profile=$(conf_get ac_profile default)
else
	profile=$(conf_get battery_profile default)
fi

log "'$event': hibernate -p $profile"
"$HIBERNATE" -q -c "$CONF" -p "$profile" 9>&-
rc=$?
date +%s >"$STAMP"
if [ "$rc" = 0 ]; then
	log "hibernate -p $profile: done"
else
	log "hibernate -p $profile: failed with exit status $rc"
fi
exit "$rc"

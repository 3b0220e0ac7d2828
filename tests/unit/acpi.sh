#!/bin/bash
# The acpid event files and action script, invoked as acpid would: the
# action line of the event file with %e replaced, run by /bin/sh -c.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

ACPI=$TOP/etc/acpi
mkdir -p "$T/bin" "$T/ps/AC" "$T/ps/BAT0"
# A fake hibernate that records its arguments and can take its time.
cat >"$T/bin/hibernate" <<'FAKE'
#!/bin/sh
echo "$*" >>"$FAKE_LOG"
sleep "${FAKE_SLEEP:-0}"
exit "${FAKE_RC:-0}"
FAKE
cat >"$T/bin/logger" <<'FAKE'
#!/bin/sh
echo "$*" >>"$LOGGER_LOG"
FAKE
chmod +x "$T/bin/hibernate" "$T/bin/logger"
echo Mains >"$T/ps/AC/type"
echo Battery >"$T/ps/BAT0/type"
cat >"$T/h.conf" <<'CONF'
[default]
target = /dev/vda
[acpi]
ac_profile = plugged   # a comment, as hibernate.conf(5) allows
battery_profile = onbatt
sleep_button = no ; the sleep button stays the desktop's
CONF

export PATH=$T/bin:$PATH FAKE_LOG=$T/calls LOGGER_LOG=$T/log
export HIBERNATE_CONF=$T/h.conf POWER_SUPPLY_DIR=$T/ps
export SUSPEND2_ACPI_LOCK=$T/acpi.lock SUSPEND2_ACPI_STAMP=$T/stamp
export HIBERNATE_SYSROOT=$T SUSPEND2_ACPI_GRACE=0
mkdir -p "$T/run"

# acpid EVENTFILE EVENT: run the event file's action for EVENT.
acpid() {
	local match action
	match=$(sed -n 's/^event=//p' "$ACPI/events/$1")
	action=$(sed -n 's/^action=//p' "$ACPI/events/$1")
	[[ $2 =~ ^$match$ ]] || return 99
	action=${action//\/etc\/acpi/$ACPI}
	/bin/sh -c "${action//%e/$2}"
}

reset() { : >"$T/calls"; : >"$T/log"; rm -f "$T/stamp"; }

check "event files name the script" \
	grep -q "^action=/etc/acpi/suspend2-hibernate.sh %e" \
	"$ACPI/events/suspend2-lid" "$ACPI/events/suspend2-power" "$ACPI/events/suspend2-sleep"
check "script is executable" test -x "$ACPI/suspend2-hibernate.sh"

reset
echo 1 >"$T/ps/AC/online"
acpid suspend2-lid "button/lid LID close"
check "lid close on AC uses ac_profile" grep -qx -- "-q -c $T/h.conf -p plugged" "$T/calls"
check "lid close is logged" grep -q "hibernate -p plugged" "$T/log"

reset
echo 0 >"$T/ps/AC/online"
acpid suspend2-power "button/power PBTN 00000080 00000000"
check "power button on battery uses battery_profile" grep -qx -- "-q -c $T/h.conf -p onbatt" "$T/calls"

reset
acpid suspend2-lid "button/lid LID open"
check "lid open does nothing" test ! -s "$T/calls"

reset
acpid suspend2-sleep "button/sleep SBTN 00000080 00000000"
check "sleep_button = no is honoured" test ! -s "$T/calls"
check "disabled event is logged" grep -q "sleep_button = no" "$T/log"

# A second event while the first cycle runs is ignored.
reset
FAKE_SLEEP=2 acpid suspend2-lid "button/lid LID close" &
first=$!
sleep 0.5
acpid suspend2-power "button/power PBTN 00000080 00000000"
wait "$first"
check "second event during a cycle runs nothing" test "$(wc -l <"$T/calls")" = 1
check "second event is logged as ignored" grep -q "cycle is running; ignoring" "$T/log"

# ... and so is one right after the cycle (the wake-up press).
reset
SUSPEND2_ACPI_GRACE=30 acpid suspend2-lid "button/lid LID close"
SUSPEND2_ACPI_GRACE=30 acpid suspend2-power "button/power PBTN 00000080 00000000"
check "event within the grace period is ignored" test "$(wc -l <"$T/calls")" = 1

# A failing hibernate is logged with its status.
reset
FAKE_RC=5 acpid suspend2-lid "button/lid LID close"
check "failure is logged" grep -q "failed with exit status 5" "$T/log"

# No power supply information: treated as AC (a desktop).
reset
rm -rf "$T/ps"/*
acpid suspend2-power "button/power PBTN 00000080 00000000"
check "no supplies means AC" grep -q -- "-p plugged" "$T/calls"

# Without an [acpi] section the default profile is used.
reset
printf '[default]\ntarget = /dev/vda\n' >"$T/h.conf"
acpid suspend2-lid "button/lid LID close"
check "no [acpi] section uses default" grep -q -- "-p default" "$T/calls"

#!/bin/sh
# dracut pre-mount hook of suspend2: restore a suspend2 image if there is
# one (hibernate --resume does not return then); otherwise go on.
SUSPEND2_RESUME=yes
SUSPEND2_PROFILE=default
# shellcheck disable=SC1091
[ -r /etc/default/suspend2 ] && . /etc/default/suspend2
getargbool 1 suspend2.resume && ! getarg noresume > /dev/null || SUSPEND2_RESUME=no
p=$(getarg suspend2.profile=) && [ -n "$p" ] && SUSPEND2_PROFILE=$p
if [ "$SUSPEND2_RESUME" = yes ]; then
	info "suspend2: looking for a hibernation image (profile $SUSPEND2_PROFILE)"
	/sbin/hibernate --resume -c /etc/hibernate.conf -p "$SUSPEND2_PROFILE" ||
		warn "suspend2: hibernate --resume exited with status $?"
fi

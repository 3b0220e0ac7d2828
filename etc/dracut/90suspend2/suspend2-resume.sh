#!/bin/sh
# dracut pre-mount hook of suspend2: restore a suspend2 image if there is
# one (hibernate --resume does not return then); otherwise go on.
#
# A boot told not to resume (noresume, hibernate=noresume,
# suspend2.resume=no) invalidates the image instead of leaving it: this
# boot mounts and changes the filesystems, so an image restored by a later
# boot would put back a kernel whose idea of them is out of date (data
# loss).  Invalidating needs only the module and the target device, not
# the root filesystem, so it runs here too.  SUSPEND2_RESUME=no in
# /etc/default/suspend2 is different: the initramfs leaves suspend2 alone.
# An encrypted image that stays locked (hibernate --resume exits 8) is
# invalidated likewise, unless SUSPEND2_LOCKED=keep (and the boot stops
# when that fails).  A refused image
# still on its target (exit 9), or any other failure of --resume, gets one
# --invalidate; when that cannot open the target either, the boot stops
# before the root filesystem is mounted.  Status 10 (from --resume or
# --invalidate) is a profile that names no target: the boot goes on; 3
# (unknown profile, configuration errors) is not.
SUSPEND2_RESUME=yes
SUSPEND2_PROFILE=default
SUSPEND2_LOCKED=invalidate
# shellcheck disable=SC1091
[ -r /etc/default/suspend2 ] && . /etc/default/suspend2
# dracut's init sources this file: no exit, only tests.
case "$SUSPEND2_RESUME" in
[Nn][Oo] | 0 | [Ff]alse | [Oo]ff) SUSPEND2_RESUME=no ;;
*) SUSPEND2_RESUME=yes ;;
esac
noresume=
getargbool 1 suspend2.resume || noresume=1
getarg noresume > /dev/null && noresume=1
[ "$(getarg hibernate=)" = noresume ] && noresume=1
p=$(getarg suspend2.profile=) && [ -n "$p" ] && SUSPEND2_PROFILE=$p
# Where the image is, as hibernate prints it: suspend2.resume=UUID=...:PAGE
# (/dev/mapper/VG-LV:PAGE on a logical volume).
loc=$(getarg suspend2.resume=)
case "$loc" in
*:*) ;;
*) loc= ;;
esac
if [ "$SUSPEND2_RESUME" = no ]; then
	: # the settings leave suspend2 out of this initramfs's boot
elif [ -n "$noresume" ]; then
	# warn: the console shows it even with "quiet", and the journal keeps it.
	warn "suspend2: noresume: not resuming; invalidating any hibernation image of profile $SUSPEND2_PROFILE so that no later boot restores it"
	if /sbin/hibernate --invalidate -c /etc/hibernate.conf -p "$SUSPEND2_PROFILE" \
		${loc:+--set resume_location=$loc}; then
		warn "suspend2: noresume: hibernate --invalidate done; this boot goes on without the image"
	else
		warn "suspend2: noresume: hibernate --invalidate exited with status $?: an image may still be there and a later boot may restore it; run 'hibernate --invalidate -p $SUSPEND2_PROFILE' before rebooting"
	fi
else
	info "suspend2: looking for a hibernation image (profile $SUSPEND2_PROFILE)"
	# The power button must be on when the image is restored (see
	# module-setup.sh): its driver, before the resume.
	modprobe -q button 2> /dev/null
	/sbin/hibernate --resume -c /etc/hibernate.conf -p "$SUSPEND2_PROFILE" \
		${loc:+--set resume_location=$loc}
	rc=$?
	# 10: the profile names no target: no image to look for.
	if [ $rc = 10 ]; then
		:
	# 8: an encrypted image was not unlocked; hibernate left it intact.
	elif [ $rc = 8 ] && [ "$SUSPEND2_LOCKED" = keep ]; then
		warn "suspend2: the encrypted hibernation image of profile $SUSPEND2_PROFILE was not unlocked and is kept (SUSPEND2_LOCKED=keep); this boot changes the filesystems, so resuming that image later can lose data: run 'hibernate --invalidate -p $SUSPEND2_PROFILE' unless you reboot now to unlock it"
	elif [ $rc = 8 ]; then
		warn "suspend2: the encrypted hibernation image of profile $SUSPEND2_PROFILE was not unlocked: invalidating it, as for noresume, so that no later boot restores it (SUSPEND2_LOCKED=keep in /etc/default/suspend2 keeps it)"
		/sbin/hibernate --invalidate -c /etc/hibernate.conf -p "$SUSPEND2_PROFILE" \
			${loc:+--set resume_location=$loc} ||
			die "suspend2: cannot invalidate the locked hibernation image of profile $SUSPEND2_PROFILE: a later boot would restore it over what this boot changes; boot with suspend2.resume=no to go on anyway, or set SUSPEND2_LOCKED=keep"
	elif [ $rc = 9 ]; then
		# A refused image still on its target: once more, then stop
		# before the root filesystem is mounted.
		warn "suspend2: the refused hibernation image of profile $SUSPEND2_PROFILE is still on its target: trying hibernate --invalidate once more"
		/sbin/hibernate --invalidate -c /etc/hibernate.conf -p "$SUSPEND2_PROFILE" \
			${loc:+--set resume_location=$loc} ||
			die "suspend2: cannot invalidate the refused hibernation image of profile $SUSPEND2_PROFILE: a later boot would restore it over what this boot changes; boot with suspend2.resume=no to go on anyway"
	elif [ $rc != 0 ]; then
		# --resume could not look: invalidate what can be found;
		# when nothing can be opened, stop (status 10: no target).
		warn "suspend2: hibernate --resume exited with status $rc: it could not look for a hibernation image of profile $SUSPEND2_PROFILE; invalidating any it can find, so that no later boot restores it"
		/sbin/hibernate --invalidate -c /etc/hibernate.conf -p "$SUSPEND2_PROFILE" \
			${loc:+--set resume_location=$loc}
		rc=$?
		if [ $rc = 10 ]; then
			warn "suspend2: profile $SUSPEND2_PROFILE names no target: no image to look for; this boot goes on"
		elif [ $rc != 0 ]; then
			die "suspend2: cannot open the hibernation target of profile $SUSPEND2_PROFILE (hibernate --invalidate exited with status $rc): a later boot would restore an image there over what this boot changes; boot with suspend2.resume=no to go on anyway"
		fi
	fi
fi

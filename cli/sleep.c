// SPDX-License-Identifier: GPL-2.0
/*
 * Suspend-then-hibernate, as systemd-sleep does it: a CLOCK_BOOTTIME_ALARM
 * timer (the kernel's alarmtimer programs the RTC that can wake the
 * machine, at the suspend), then "mem" into /sys/power/state, which
 * returns once the machine is back.  Disarming the timer returns the time
 * it had left.  The alarm woke the machine when almost none was left (an
 * RTC is set in whole seconds, and one that cannot reach that far wakes
 * a little early: rtc-cmos without a day alarm at 86399 s) and the sleep
 * did not last much longer than asked (an alarm that never rang, and a
 * user who came back later, would look the same otherwise).  Nothing
 * here decides what happens next; run.c hibernates, or not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "sleep.h"

/* How early the alarm may ring, and how late the machine may be back. */
#define SLEEP_ALARM_EARLY_S	5
#define SLEEP_ALARM_LATE_S	120

static bool offers_mem(const char *state_path)
{
	char buf[256], *tok, *save;
	bool found = false;
	FILE *f = fopen(state_path, "re");

	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f))
		for (tok = strtok_r(buf, " \n", &save); tok && !found;
		     tok = strtok_r(NULL, " \n", &save))
			found = !strcmp(tok, "mem");
	fclose(f);
	return found;
}

/*
 * timerfd_create() takes CLOCK_BOOTTIME_ALARM whether or not an RTC can
 * wake the machine; clock_getres() says EINVAL when none can.
 */
static int alarm_timer(char *why, size_t len)
{
	struct timespec res;
	int fd, err;

	if (clock_getres(CLOCK_BOOTTIME_ALARM, &res)) {
		snprintf(why, len,
			 "no RTC here can wake the machine from suspend (the kernel's alarm clock has none)");
		return -EOPNOTSUPP;
	}
	fd = timerfd_create(CLOCK_BOOTTIME_ALARM, TFD_CLOEXEC);
	if (fd >= 0)
		return fd;
	err = errno;
	if (err == EPERM)
		snprintf(why, len,
			 "a wake alarm needs CAP_WAKE_ALARM (run as root)");
	else
		snprintf(why, len, "cannot make a wake alarm: %s",
			 strerror(err));
	return -err;
}

int sleep_check(const char *state_path, char *why, size_t len)
{
	int fd;

	if (!offers_mem(state_path)) {
		snprintf(why, len,
			 "%s does not offer 'mem': this kernel or machine cannot suspend to RAM",
			 state_path);
		return -EOPNOTSUPP;
	}
	fd = alarm_timer(why, len);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static uint64_t boottime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec;
}

int sleep_until_alarm(const char *state_path, uint64_t delay,
		      uint64_t *slept, char *why, size_t len)
{
	struct itimerspec arm = { .it_value = { .tv_sec = delay } };
	struct itimerspec off = { 0 }, left;
	uint64_t t0;
	int fd, sfd, err = 0;

	*slept = 0;
	if (!offers_mem(state_path)) {
		snprintf(why, len, "%s does not offer 'mem'", state_path);
		return -EOPNOTSUPP;
	}
	fd = alarm_timer(why, len);
	if (fd < 0)
		return fd;
	if (timerfd_settime(fd, 0, &arm, NULL)) {
		err = errno;
		snprintf(why, len, "cannot set the wake alarm %llu s ahead: %s",
			 (unsigned long long)delay, strerror(err));
		close(fd);
		return -err;
	}
	t0 = boottime_s();
	sfd = open(state_path, O_WRONLY | O_CLOEXEC);
	/* Returns once the machine is back, or at once if it did not sleep. */
	if (sfd < 0 || write(sfd, "mem", 3) != 3) {
		err = errno;
		snprintf(why, len, "the kernel did not suspend to RAM: %s",
			 strerror(err));
	}
	if (sfd >= 0)
		close(sfd);
	*slept = boottime_s() - t0;
	/* Disarmed here: an alarm due later must not wake anything. */
	if (timerfd_settime(fd, 0, &off, &left) && !err) {
		err = errno;
		snprintf(why, len, "cannot cancel the wake alarm: %s",
			 strerror(err));
	}
	close(fd);
	if (err)
		return -err;
	return left.it_value.tv_sec < SLEEP_ALARM_EARLY_S &&
	       *slept <= delay + SLEEP_ALARM_LATE_S;
}

int sleep_again(const char *state_path)
{
	int fd = open(state_path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0 || write(fd, "mem", 3) != 3)
		err = errno;
	if (fd >= 0)
		close(fd);
	return -err;
}

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

#include "lib/common.h"
#include "system/sleep.h"

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

int sleep_check_ram(const char *state_path, char *why, size_t len)
{
	if (!offers_mem(state_path)) {
		snprintf(why, len,
			 "%s does not offer 'mem': this kernel or machine cannot suspend to RAM",
			 state_path);
		return -EOPNOTSUPP;
	}
	return 0;
}

int sleep_check(const char *state_path, char *why, size_t len)
{
	int fd, ret = sleep_check_ram(state_path, why, len);

	if (ret)
		return ret;
	fd = alarm_timer(why, len);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* "mem" into STATE_PATH: 0 once the machine is back, else an errno. */
static int write_mem(const char *state_path)
{
	int fd = open(state_path, O_WRONLY | O_CLOEXEC), err = 0;
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, "mem", 3);
	if (n != 3)
		err = n < 0 ? errno : EIO;
	close(fd);
	return err;
}

/* The kernel's count of wakeup events, or -1 when it cannot be read. */
static long long wakeup_count(const char *path)
{
	long long n = -1;
	FILE *f = fopen(path, "re");

	if (f) {
		if (fscanf(f, "%lld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static uint64_t boottime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec;
}

int sleep_until_alarm(const char *state_path, const char *count_path,
		      uint64_t delay, uint64_t *slept, char *why, size_t len)
{
	struct itimerspec arm = { .it_value = { .tv_sec = delay } };
	struct itimerspec off = { 0 }, left;
	long long events;
	uint64_t t0;
	int fd, err;

	/* sleep_check() found "mem" offered: the write below says if not. */
	*slept = 0;
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
	events = wakeup_count(count_path);
	/* Returns once the machine is back, or at once if it did not sleep. */
	err = write_mem(state_path);
	*slept = boottime_s() - t0;
	if (err == EBUSY && events >= 0 && wakeup_count(count_path) == events) {
		/* Not a wakeup event: a task would not freeze, an alarm due. */
		snprintf(why, len,
			 "the kernel did not suspend to RAM (%s, and no wakeup event: a task that would not freeze, or an alarm due)",
			 strerror(err));
		err = EAGAIN;
	} else if (err) {
		snprintf(why, len, "the kernel did not suspend to RAM: %s",
			 strerror(err));
	}
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
	return -write_mem(state_path);
}

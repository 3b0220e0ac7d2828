/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Suspend-then-hibernate: sleep in RAM first, with a wake alarm; the
 * alarm ends the sleep with a hibernation, any other wake with none.
 */
#ifndef HIB_SLEEP_H
#define HIB_SLEEP_H

#include <stddef.h>
#include <stdint.h>

/* HIBERNATE_SYSROOT moves it, so that the tests never suspend the host. */
#define SLEEP_POWER_STATE	"/sys/power/state"
#define SLEEP_WAKEUP_COUNT	"/sys/power/wakeup_count"

/*
 * Whether this machine can suspend to RAM ("mem" in STATE_PATH), as
 * powerdown = suspend needs.  0, or -EOPNOTSUPP with WHY in words.
 */
int sleep_check_ram(const char *state_path, char *why, size_t len);

/*
 * Whether this machine can suspend to RAM ("mem" in STATE_PATH) and set
 * a wake alarm (CLOCK_BOOTTIME_ALARM: an RTC that can wake it, and
 * CAP_WAKE_ALARM).  0, or -errno with WHY in words.
 */
int sleep_check(const char *state_path, char *why, size_t len);

/*
 * Suspend to RAM through STATE_PATH with a wake alarm DELAY seconds
 * ahead.  Returns 1 when the alarm woke the machine (hibernate now), 0
 * when something else did, before it or long after (the alarm is
 * cancelled), -errno when it did not suspend (WHY says why; -EBUSY: a
 * wakeup event, such as a key or the lid, stopped it, as COUNT_PATH's
 * count of them shows, or it cannot be read).  SLEPT gets the seconds
 * between the suspend and the wake.
 */
int sleep_until_alarm(const char *state_path, const char *count_path,
		      uint64_t delay, uint64_t *slept, char *why, size_t len);

/* Suspend to RAM once more, with no alarm; 0 or -errno. */
int sleep_again(const char *state_path);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for what aborts the image write (core/abort.c): an event
 * counts only while the write is armed for it and not yet closed, and
 * the first one is the one on record; an Escape press that is kept from
 * the other handlers keeps its repeats and release too, while the release
 * of a press they saw reaches them; a lid event is never kept.
 */
/* First: it sets pr_fmt before any header does. */
#include "../core/abort.c"
#include <kunit/test.h>

static struct s2_abort_handle *s2_fake_keyboard(struct kunit *test)
{
	struct s2_abort_handle *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->handle.dev = kunit_kzalloc(test, sizeof(*h->handle.dev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h->handle.dev);
	h->handle.dev->name = "test keyboard";
	return h;
}

static bool esc(struct s2_abort_handle *h, int value)
{
	return s2_abort_filter(&h->handle, EV_KEY, KEY_ESC, value);
}

/* The lid switch: 1 closed, 0 open. */
static bool lid(struct s2_abort_handle *h, int value)
{
	return s2_abort_filter(&h->handle, EV_SW, SW_LID, value);
}

static void s2_abort_unarmed(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	s2_abort_arm(0);
	KUNIT_EXPECT_FALSE(test, esc(h, 1));
	KUNIT_EXPECT_FALSE(test, esc(h, 2));
	KUNIT_EXPECT_FALSE(test, esc(h, 0));
	KUNIT_EXPECT_FALSE(test, s2_abort_requested());
}

static void s2_abort_press_kept(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	s2_abort_arm(S2_ABORT_KEY);
	KUNIT_EXPECT_FALSE(test, s2_abort_filter(&h->handle, EV_KEY, KEY_A, 1));
	KUNIT_EXPECT_FALSE(test, s2_abort_filter(&h->handle, EV_MSC, KEY_ESC, 1));
	KUNIT_EXPECT_FALSE(test, s2_abort_requested());
	KUNIT_EXPECT_TRUE(test, esc(h, 1));
	KUNIT_EXPECT_TRUE(test, s2_abort_requested());
	KUNIT_EXPECT_TRUE(test, esc(h, 2));
	/* The write stops; the key comes up after it: still kept. */
	s2_abort_arm(0);
	KUNIT_EXPECT_FALSE(test, s2_abort_requested());
	KUNIT_EXPECT_TRUE(test, esc(h, 0));
	/* The next press, unarmed, is the others' again. */
	KUNIT_EXPECT_FALSE(test, esc(h, 1));
	KUNIT_EXPECT_FALSE(test, esc(h, 0));
}

static void s2_abort_earlier_press_released(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	s2_abort_arm(0);
	KUNIT_EXPECT_FALSE(test, esc(h, 1));
	s2_abort_arm(S2_ABORT_KEY);
	/* Its repeats and release belong to those that saw the press. */
	KUNIT_EXPECT_FALSE(test, esc(h, 2));
	KUNIT_EXPECT_FALSE(test, esc(h, 0));
	KUNIT_EXPECT_FALSE(test, s2_abort_requested());
	s2_abort_arm(0);
}

static void s2_abort_closed(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	/* No press before the anchor: a later one neither counts nor is kept. */
	s2_abort_arm(S2_ABORT_KEY);
	KUNIT_EXPECT_FALSE(test, s2_abort_close());
	KUNIT_EXPECT_FALSE(test, esc(h, 1));
	KUNIT_EXPECT_FALSE(test, s2_abort_requested());
	KUNIT_EXPECT_FALSE(test, esc(h, 0));
	/* A press before the anchor: the write fails. */
	s2_abort_arm(S2_ABORT_KEY);
	KUNIT_EXPECT_TRUE(test, esc(h, 1));
	KUNIT_EXPECT_TRUE(test, s2_abort_close());
	KUNIT_EXPECT_TRUE(test, esc(h, 0));
	s2_abort_arm(0);
}

static void s2_abort_two_keyboards(struct kunit *test)
{
	struct s2_abort_handle *a = s2_fake_keyboard(test);
	struct s2_abort_handle *b = s2_fake_keyboard(test);

	s2_abort_arm(S2_ABORT_KEY);
	KUNIT_EXPECT_TRUE(test, esc(a, 1));
	KUNIT_EXPECT_TRUE(test, esc(b, 1));
	KUNIT_EXPECT_TRUE(test, s2_abort_requested());
	s2_abort_arm(0);
	KUNIT_EXPECT_TRUE(test, esc(a, 0));
	KUNIT_EXPECT_TRUE(test, esc(b, 0));
}

static void s2_abort_closed_keeps_event(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	s2_abort_arm(S2_ABORT_LID);
	KUNIT_EXPECT_FALSE(test, lid(h, 0));
	KUNIT_EXPECT_TRUE(test, s2_abort_close());
	KUNIT_EXPECT_STREQ(test, s2_abort_why(), "the lid opened");
	KUNIT_EXPECT_EQ(test, s2_abort_disarm(), S2_ABORT_LID);
	KUNIT_EXPECT_EQ(test, s2_abort_disarm(), 0);
}

static void s2_abort_lid_opened(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	/* Armed for the key only: the lid is watched, nothing happens. */
	s2_abort_arm(S2_ABORT_KEY);
	KUNIT_EXPECT_FALSE(test, lid(h, 0));
	KUNIT_EXPECT_FALSE(test, s2_abort_requested());
	/* Armed for the lid: closing it does nothing, opening aborts. */
	s2_abort_arm(S2_ABORT_LID);
	KUNIT_EXPECT_FALSE(test, lid(h, 1));
	KUNIT_EXPECT_FALSE(test, s2_abort_filter(&h->handle, EV_SW,
						 SW_TABLET_MODE, 0));
	KUNIT_EXPECT_FALSE(test, s2_abort_requested());
	KUNIT_EXPECT_FALSE(test, lid(h, 0));
	KUNIT_EXPECT_TRUE(test, s2_abort_requested());
	KUNIT_EXPECT_STREQ(test, s2_abort_why(), "the lid opened");
	/* Escape was not chosen: the press is the others'. */
	KUNIT_EXPECT_FALSE(test, esc(h, 1));
	KUNIT_EXPECT_FALSE(test, esc(h, 0));
	KUNIT_EXPECT_EQ(test, s2_abort_disarm(), S2_ABORT_LID);
}

static void s2_abort_first_event_counts(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	s2_abort_arm(S2_ABORT_KEY | S2_ABORT_LID);
	KUNIT_EXPECT_FALSE(test, lid(h, 0));
	/* Escape after the lid: kept (it was chosen), the lid on record. */
	KUNIT_EXPECT_TRUE(test, esc(h, 1));
	KUNIT_EXPECT_TRUE(test, esc(h, 0));
	KUNIT_EXPECT_STREQ(test, s2_abort_why(), "the lid opened");
	KUNIT_EXPECT_EQ(test, s2_abort_disarm(), S2_ABORT_LID);

	s2_abort_arm(S2_ABORT_KEY | S2_ABORT_LID);
	KUNIT_EXPECT_TRUE(test, esc(h, 1));
	KUNIT_EXPECT_FALSE(test, lid(h, 0));
	KUNIT_EXPECT_STREQ(test, s2_abort_why(), "Escape pressed");
	KUNIT_EXPECT_EQ(test, s2_abort_disarm(), S2_ABORT_KEY);
	KUNIT_EXPECT_TRUE(test, esc(h, 0));
}

#if IS_REACHABLE(CONFIG_POWER_SUPPLY)
static void s2_abort_plugged_in(struct kunit *test)
{
	/* As s2_abort_arm() leaves it on battery, whatever this machine is. */
	atomic_set(&s2_abort_word, S2_ABORT_ARMED | S2_ABORT_AC << 4);
	s2_abort_power(false, "test-ac");
	KUNIT_EXPECT_FALSE(test, s2_abort_requested());
	s2_abort_power(true, "test-ac");
	KUNIT_EXPECT_TRUE(test, s2_abort_requested());
	KUNIT_EXPECT_STREQ(test, s2_abort_why(), "external power plugged in");
	KUNIT_EXPECT_EQ(test, s2_abort_disarm(), S2_ABORT_AC);

	/* Not chosen, or after the close: nothing. */
	s2_abort_arm(S2_ABORT_KEY);
	s2_abort_power(true, "test-ac");
	KUNIT_EXPECT_FALSE(test, s2_abort_requested());
	atomic_set(&s2_abort_word, S2_ABORT_ARMED | S2_ABORT_AC << 4);
	KUNIT_EXPECT_FALSE(test, s2_abort_close());
	s2_abort_power(true, "test-ac");
	KUNIT_EXPECT_EQ(test, s2_abort_disarm(), 0);
}

static void s2_abort_ac_needs_battery(struct kunit *test)
{
	bool on_battery = power_supply_is_system_supplied() == 0;
	bool registered = s2_abort_power_registered;

	/* Not watching the supplies (this suite never ran s2_abort_init()). */
	s2_abort_power_registered = false;
	s2_abort_arm(S2_ABORT_AC | S2_ABORT_KEY);
	KUNIT_EXPECT_EQ(test,
			S2_ABORT_ARMED_FOR(atomic_read(&s2_abort_word)),
			S2_ABORT_KEY);
	/* Watching: armed for plugging in only when nothing supplies it. */
	s2_abort_power_registered = true;
	s2_abort_arm(S2_ABORT_AC);
	KUNIT_EXPECT_EQ(test, S2_ABORT_STATE(atomic_read(&s2_abort_word)),
			on_battery ? S2_ABORT_ARMED : S2_ABORT_OFF);
	s2_abort_arm(S2_ABORT_AC | S2_ABORT_KEY);
	KUNIT_EXPECT_EQ(test,
			S2_ABORT_ARMED_FOR(atomic_read(&s2_abort_word)),
			on_battery ? S2_ABORT_AC | S2_ABORT_KEY : S2_ABORT_KEY);
	/* Armed on battery, the state is still armed: no event yet. */
	KUNIT_EXPECT_EQ(test, S2_ABORT_STATE(atomic_read(&s2_abort_word)),
			S2_ABORT_ARMED);
	s2_abort_arm(0);
	s2_abort_power_registered = registered;
}
#endif

static struct kunit_case s2_abort_cases[] = {
	KUNIT_CASE(s2_abort_unarmed),
	KUNIT_CASE(s2_abort_press_kept),
	KUNIT_CASE(s2_abort_earlier_press_released),
	KUNIT_CASE(s2_abort_closed),
	KUNIT_CASE(s2_abort_two_keyboards),
	KUNIT_CASE(s2_abort_closed_keeps_event),
	KUNIT_CASE(s2_abort_lid_opened),
	KUNIT_CASE(s2_abort_first_event_counts),
#if IS_REACHABLE(CONFIG_POWER_SUPPLY)
	KUNIT_CASE(s2_abort_plugged_in),
	KUNIT_CASE(s2_abort_ac_needs_battery),
#endif
	{}
};

static struct kunit_suite s2_abort_suite = {
	.name = "suspend2_abort",
	.test_cases = s2_abort_cases,
};

kunit_test_suite(s2_abort_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the abort key's filter (core/abort.c): a press counts
 * only while the write is armed and not yet closed, and a press that is
 * kept from the other handlers keeps its repeats and release too, while
 * the release of a press they saw reaches them.
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

static void s2_abort_unarmed(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	s2_abort_arm(false);
	KUNIT_EXPECT_FALSE(test, esc(h, 1));
	KUNIT_EXPECT_FALSE(test, esc(h, 2));
	KUNIT_EXPECT_FALSE(test, esc(h, 0));
	KUNIT_EXPECT_FALSE(test, s2_abort_pressed());
}

static void s2_abort_press_kept(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	s2_abort_arm(true);
	KUNIT_EXPECT_FALSE(test, s2_abort_filter(&h->handle, EV_KEY, KEY_A, 1));
	KUNIT_EXPECT_FALSE(test, s2_abort_filter(&h->handle, EV_MSC, KEY_ESC, 1));
	KUNIT_EXPECT_FALSE(test, s2_abort_pressed());
	KUNIT_EXPECT_TRUE(test, esc(h, 1));
	KUNIT_EXPECT_TRUE(test, s2_abort_pressed());
	KUNIT_EXPECT_TRUE(test, esc(h, 2));
	/* The write stops; the key comes up after it: still kept. */
	s2_abort_arm(false);
	KUNIT_EXPECT_FALSE(test, s2_abort_pressed());
	KUNIT_EXPECT_TRUE(test, esc(h, 0));
	/* The next press, unarmed, is the others' again. */
	KUNIT_EXPECT_FALSE(test, esc(h, 1));
	KUNIT_EXPECT_FALSE(test, esc(h, 0));
}

static void s2_abort_earlier_press_released(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	s2_abort_arm(false);
	KUNIT_EXPECT_FALSE(test, esc(h, 1));
	s2_abort_arm(true);
	/* Its repeats and release belong to those that saw the press. */
	KUNIT_EXPECT_FALSE(test, esc(h, 2));
	KUNIT_EXPECT_FALSE(test, esc(h, 0));
	KUNIT_EXPECT_FALSE(test, s2_abort_pressed());
	s2_abort_arm(false);
}

static void s2_abort_closed(struct kunit *test)
{
	struct s2_abort_handle *h = s2_fake_keyboard(test);

	/* No press before the anchor: a later one neither counts nor is kept. */
	s2_abort_arm(true);
	KUNIT_EXPECT_FALSE(test, s2_abort_close());
	KUNIT_EXPECT_FALSE(test, esc(h, 1));
	KUNIT_EXPECT_FALSE(test, s2_abort_pressed());
	KUNIT_EXPECT_FALSE(test, esc(h, 0));
	/* A press before the anchor: the write fails. */
	s2_abort_arm(true);
	KUNIT_EXPECT_TRUE(test, esc(h, 1));
	KUNIT_EXPECT_TRUE(test, s2_abort_close());
	KUNIT_EXPECT_TRUE(test, esc(h, 0));
	s2_abort_arm(false);
}

static void s2_abort_two_keyboards(struct kunit *test)
{
	struct s2_abort_handle *a = s2_fake_keyboard(test);
	struct s2_abort_handle *b = s2_fake_keyboard(test);

	s2_abort_arm(true);
	KUNIT_EXPECT_TRUE(test, esc(a, 1));
	KUNIT_EXPECT_TRUE(test, esc(b, 1));
	KUNIT_EXPECT_TRUE(test, s2_abort_pressed());
	s2_abort_arm(false);
	KUNIT_EXPECT_TRUE(test, esc(a, 0));
	KUNIT_EXPECT_TRUE(test, esc(b, 0));
}

static struct kunit_case s2_abort_cases[] = {
	KUNIT_CASE(s2_abort_unarmed),
	KUNIT_CASE(s2_abort_press_kept),
	KUNIT_CASE(s2_abort_earlier_press_released),
	KUNIT_CASE(s2_abort_closed),
	KUNIT_CASE(s2_abort_two_keyboards),
	{}
};

static struct kunit_suite s2_abort_suite = {
	.name = "suspend2_abort",
	.test_cases = s2_abort_cases,
};

kunit_test_suite(s2_abort_suite);

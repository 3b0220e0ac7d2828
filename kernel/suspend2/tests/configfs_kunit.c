// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the words and numbers of configfs writes (configfs/
 * parse.c): what the contract accepts, and that everything else is
 * refused whole, so that a value reads back exactly as it was written.
 * As configfs does, each buffer ends with a NUL at its count.
 */
#include <kunit/test.h>
#include "../configfs/parse.c"

static int parse(const char *buf, u64 min, u64 max, u64 *out)
{
	return s2_parse_u64(buf, strlen(buf), min, max, out);
}

static void s2_parse_numbers(struct kunit *test)
{
	u64 v = 0;
	u32 w = 0;

	KUNIT_EXPECT_EQ(test, parse("256\n", 1, 1024, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 256ULL);
	KUNIT_EXPECT_EQ(test, parse("0", 0, 64, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0ULL);
	KUNIT_EXPECT_EQ(test, parse("9223372036854775807", 0, S64_MAX, &v), 0);
	KUNIT_EXPECT_EQ(test, v, (u64)S64_MAX);
	/* The bounds are inclusive; outside them is ERANGE. */
	KUNIT_EXPECT_EQ(test, parse("100", 100, 600000, &v), 0);
	KUNIT_EXPECT_EQ(test, parse("99", 100, 600000, &v), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse("600001", 100, 600000, &v), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse("9223372036854775808", 0, S64_MAX, &v),
			-ERANGE);
	/* Anything but plain digits and one trailing newline is EINVAL. */
	KUNIT_EXPECT_EQ(test, parse("", 0, 64, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("\n", 0, 64, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("007", 0, 64, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("+7", 0, 64, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("-1", 0, 64, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse(" 7", 0, 64, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("7 ", 0, 64, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("7\n\n", 0, 64, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("0x10", 0, 64, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, s2_parse_u64("7\0", 2, 0, 64, &v), -EINVAL);
	/* Too big for a u64 at all: kstrtou64's own ERANGE. */
	KUNIT_EXPECT_EQ(test, parse("18446744073709551616", 0, U64_MAX, &v),
			-ERANGE);
	/* The u32 form takes the same text. */
	KUNIT_EXPECT_EQ(test, s2_parse_u32("1024\n", 5, 1, 1024, &w), 0);
	KUNIT_EXPECT_EQ(test, w, 1024U);
	KUNIT_EXPECT_EQ(test, s2_parse_u32("1025", 4, 1, 1024, &w), -ERANGE);
	KUNIT_EXPECT_EQ(test, w, 1024U);
}

static const char * const s2_test_words[] = { "shutdown", "platform",
					      "reboot" };

static int match(const char *buf)
{
	return s2_match_word(s2_test_words, ARRAY_SIZE(s2_test_words), buf,
			     strlen(buf));
}

static void s2_parse_words(struct kunit *test)
{
	static const char * const open_list[] = { "none", "lzo", NULL };
	char word[8];

	KUNIT_EXPECT_EQ(test, match("shutdown"), 0);
	KUNIT_EXPECT_EQ(test, match("reboot\n"), 2);
	KUNIT_EXPECT_EQ(test, match(""), -EINVAL);
	KUNIT_EXPECT_EQ(test, match("\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, match("reboo"), -EINVAL);
	KUNIT_EXPECT_EQ(test, match("reboots"), -EINVAL);
	KUNIT_EXPECT_EQ(test, match("Reboot"), -EINVAL);
	KUNIT_EXPECT_EQ(test, match(" reboot"), -EINVAL);
	KUNIT_EXPECT_EQ(test, match("reboot\n\n"), -EINVAL);
	/* A NUL inside the write is not the end of the word. */
	KUNIT_EXPECT_EQ(test, s2_match_word(s2_test_words, 3, "reboot\0x", 8),
			-EINVAL);
	/* A NULL-terminated list, n = -1. */
	KUNIT_EXPECT_EQ(test, s2_match_word(open_list, -1, "lzo\n", 4), 1);
	KUNIT_EXPECT_EQ(test, s2_match_word(open_list, -1, "lz4", 3),
			-EINVAL);

	/* Words copied for a lookup elsewhere (writer, target). */
	KUNIT_EXPECT_EQ(test, s2_copy_word(word, sizeof(word), "swap\n", 5),
			0);
	KUNIT_EXPECT_STREQ(test, word, "swap");
	KUNIT_EXPECT_EQ(test, s2_copy_word(word, sizeof(word), "", 0), 0);
	KUNIT_EXPECT_STREQ(test, word, "");
	KUNIT_EXPECT_EQ(test, s2_copy_word(word, sizeof(word), "1234567", 7),
			0);
	KUNIT_EXPECT_EQ(test, s2_copy_word(word, sizeof(word), "12345678", 8),
			-ENAMETOOLONG);
	KUNIT_EXPECT_EQ(test, s2_copy_word(word, sizeof(word), "a\nb", 3),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, s2_copy_word(word, sizeof(word), "a\0b", 3),
			-EINVAL);
}

/* The key attribute: keyring:NAME as hibernate(8) names key files. */
static void s2_parse_keyspec(struct kunit *test)
{
	char name[8 + S2_KEYNAME_MAX + 2] = "keyring:";

	KUNIT_EXPECT_TRUE(test, s2_keyspec_valid("keyring:laptop"));
	KUNIT_EXPECT_TRUE(test, s2_keyspec_valid("keyring:9.x_y-z"));
	KUNIT_EXPECT_FALSE(test, s2_keyspec_valid("keyring:"));
	KUNIT_EXPECT_FALSE(test, s2_keyspec_valid("keyring:.x"));
	KUNIT_EXPECT_FALSE(test, s2_keyspec_valid("keyring:.."));
	KUNIT_EXPECT_FALSE(test, s2_keyspec_valid("keyring:-x"));
	KUNIT_EXPECT_FALSE(test, s2_keyspec_valid("keyring:a/b"));
	KUNIT_EXPECT_FALSE(test, s2_keyspec_valid("keyring:a b"));
	KUNIT_EXPECT_FALSE(test, s2_keyspec_valid("laptop"));
	memset(name + 8, 'k', S2_KEYNAME_MAX);
	KUNIT_EXPECT_TRUE(test, s2_keyspec_valid(name));
	name[8 + S2_KEYNAME_MAX] = 'k';
	KUNIT_EXPECT_FALSE(test, s2_keyspec_valid(name));
}

static struct kunit_case s2_configfs_cases[] = {
	KUNIT_CASE(s2_parse_numbers),
	KUNIT_CASE(s2_parse_words),
	KUNIT_CASE(s2_parse_keyspec),
	{}
};

static struct kunit_suite s2_configfs_suite = {
	.name = "suspend2_configfs",
	.test_cases = s2_configfs_cases,
};

kunit_test_suite(s2_configfs_suite);

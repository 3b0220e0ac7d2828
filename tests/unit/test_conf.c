// SPDX-License-Identifier: GPL-2.0
/* hibernate.conf parser: valid files, every error class, a fuzz loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/profile.h"
#include "lib/common.h"
#include "lib/strutil.h"
#include "test_util.h"

static struct conf parse(const char *text)
{
	struct conf c;

	parse_text(&c, text);
	return c;
}

/* True when some error contains every fragment given. */
static bool has_error(const struct conf *c, const char *a, const char *b)
{
	size_t i;

	for (i = 0; i < c->nerr; i++)
		if (c->errors[i] && strstr(c->errors[i], a) &&
		    (!b || strstr(c->errors[i], b)))
			return true;
	for (i = 0; i < c->nerr; i++)
		print_message("error: %s\n", c->errors[i]);
	return false;
}

static void test_valid_file(void **state)
{
	struct conf c = parse("# comment\n"
			      "; another\n"
			      "[default]\n"
			      "target = /dev/vda\n"
			      "  compressor=lz4  \n"
			      "image_size_limit = 64M\n"
			      "pre_hibernate = echo one\n"
			      "pre_hibernate = echo two\n"
			      "\n"
			      "[battery]\n"
			      "io_depth = 32\n"
			      "unload_module = true\n"
			      "[acpi]\n"
			      "ac_profile = default\n"
			      "lid = no\n");
	struct profile p;
	char err[256];

	(void)state;
	assert_int_equal(c.nerr, 0);
	assert_int_equal(c.nprof, 2);
	assert_int_equal(conf_resolve(&c, "battery", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_TARGET].value, "/dev/vda");
	assert_int_equal(p.v[K_TARGET].line, 4);
	assert_string_equal(p.v[K_COMPRESSOR].value, "lz4");
	assert_string_equal(p.v[K_IMAGE_SIZE_LIMIT].value, "67108864");
	assert_string_equal(p.v[K_IO_DEPTH].value, "32");
	assert_string_equal(p.v[K_CHECKSUM].value, "crc32c");
	assert_null(p.v[K_CHECKSUM].file);
	assert_int_equal(p.npre, 2);
	assert_string_equal(p.pre[1].cmd, "echo two");
	assert_true(p.unload_module);
	assert_int_equal(p.hook_timeout, 30);
	assert_string_equal(c.acpi[A_LID].value, "no");
	conf_free(&c);
}

static void test_inherit(void **state)
{
	struct conf c = parse("[default]\ntarget = /dev/a\nio_depth = 8\n"
			      "[base]\ncompressor = zstd\nio_depth = 16\n"
			      "post_resume = echo base\n"
			      "[child]\ninherit = base\nchecksum = none\n");
	struct profile p;
	char err[256];

	(void)state;
	assert_int_equal(c.nerr, 0);
	assert_int_equal(conf_resolve(&c, "child", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_COMPRESSOR].value, "zstd");
	assert_string_equal(p.v[K_IO_DEPTH].value, "16");
	assert_string_equal(p.v[K_CHECKSUM].value, "none");
	assert_string_equal(p.v[K_TARGET].value, "/dev/a");
	assert_int_equal(p.npost, 1);
	assert_int_equal(conf_resolve(&c, "chlid", &p, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "did you mean 'child'"));
	conf_free(&c);
}

static void test_implicit_default(void **state)
{
	struct conf c = parse("");
	struct profile p;
	char err[256];

	(void)state;
	assert_int_equal(conf_resolve(&c, "default", &p, err, sizeof(err)),
			 0);
	assert_null(p.v[K_TARGET].value);
	assert_string_equal(p.v[K_POWERDOWN].value, "shutdown");
	conf_free(&c);
}

static void test_bad_value(void **state)
{
	struct conf c = parse("[default]\ncompress_threads = 65\n"
			      "io_depth = 0\nfreezer_timeout_ms = 10s\n"
			      "powerdown = hybrid\nchecksum = CRC\n"
			      "target = dev/vda\nunload_module = maybe\n"
			      "image_size_limit = 9999999999T\n"
			      "hook_timeout = -1\n");

	(void)state;
	assert_true(has_error(&c, "t.conf:2: key 'compress_threads': expected a value from 0 to 64", "'65'"));
	assert_true(has_error(&c, "t.conf:3: key 'io_depth': expected a value from 1 to 1024", NULL));
	assert_true(has_error(&c, "t.conf:4: key 'freezer_timeout_ms': expected a decimal number", NULL));
	assert_true(has_error(&c, "t.conf:5: key 'powerdown': expected one of 'shutdown', 'platform', 'reboot', 'suspend'", "'hybrid'"));
	assert_true(has_error(&c, "t.conf:6: key 'checksum': expected", NULL));
	assert_true(has_error(&c, "t.conf:7: key 'target': expected an absolute path", NULL));
	assert_true(has_error(&c, "t.conf:8: key 'unload_module': expected 'yes' or 'no'", NULL));
	assert_true(has_error(&c, "t.conf:9: key 'image_size_limit'", "from 0 to"));
	assert_true(has_error(&c, "t.conf:10: key 'hook_timeout'", NULL));
	conf_free(&c);
}

static void test_unknown_key_suggests(void **state)
{
	struct conf c = parse("[default]\ncompresor = lz4\nzzzzzzzzzz = 1\n"
			      "[acpi]\nlidd = yes\n");

	(void)state;
	assert_true(has_error(&c, "t.conf:2: unknown key 'compresor'", "did you mean 'compressor'?"));
	assert_true(has_error(&c, "t.conf:3: unknown key 'zzzzzzzzzz'", NULL));
	assert_false(has_error(&c, "zzzzzzzzzz", "did you mean"));
	assert_true(has_error(&c, "t.conf:5: unknown key 'lidd' in [acpi]", "'lid'"));
	conf_free(&c);
}

static void test_duplicates(void **state)
{
	struct conf c = parse("[default]\nio_depth = 1\nio_depth = 2\n"
			      "[default]\n[x]\n[acpi]\n[acpi]\n");

	(void)state;
	assert_true(has_error(&c, "t.conf:3: key 'io_depth' already set on line 2", NULL));
	assert_true(has_error(&c, "t.conf:4: section [default] already defined on line 1", NULL));
	assert_true(has_error(&c, "t.conf:7: section [acpi] already defined on line 6", NULL));
	conf_free(&c);
}

static void test_inheritance_errors(void **state)
{
	struct conf c = parse("[a]\ninherit = b\n[b]\ninherit = c\n"
			      "[c]\ninherit = a\n[d]\ninherit = a\n"
			      "[e]\ninherit = nosuch\n[f]\ninherit = f\n");

	(void)state;
	assert_true(has_error(&c, "t.conf:2: inheritance loop: a -> b -> c -> a", NULL));
	assert_true(has_error(&c, "t.conf:10: key 'inherit': no profile 'nosuch'", NULL));
	assert_true(has_error(&c, "t.conf:12: key 'inherit': profile 'f' cannot inherit from itself", NULL));
	/* One report per loop, not one per member. */
	assert_false(has_error(&c, "inheritance loop: b", NULL));
	conf_free(&c);
}

/* [pN] inherits [pN-1] ... [p1] inherits [default]: N + 1 profiles. */
static char *deep_chain(int n)
{
	char *text = malloc(64 * (n + 2)), *p = text;
	int i;

	assert_non_null(text);
	p += sprintf(p, "[default]\ntarget = /dev/vdb\n");
	for (i = 1; i <= n; i++) {
		if (i == 1)
			p += sprintf(p, "[p1]\ninherit = default\n");
		else
			p += sprintf(p, "[p%d]\ninherit = p%d\n", i, i - 1);
	}
	return text;
}

/*
 * A chain longer than CONF_MAX_INHERIT is an error naming it, at the
 * inherit line of the profile at its end, not a cut that resolves the
 * profile without its far ancestors' keys.
 */
static void test_inheritance_depth(void **state)
{
	char err[CONF_MAX_LINE + 256], *text;
	struct profile p;
	struct conf c;

	(void)state;
	/* Exactly the limit: default and 63 more. */
	text = deep_chain(CONF_MAX_INHERIT - 1);
	assert_int_equal(parse_text(&c, text), 0);
	assert_int_equal(conf_resolve(&c, "p63", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_TARGET].value, "/dev/vdb");
	profile_free(&p);
	conf_free(&c);
	free(text);
	/* One more: an error, once, at the last one's inherit line. */
	text = deep_chain(CONF_MAX_INHERIT);
	assert_int_equal(parse_text(&c, text), -EINVAL);
	assert_true(has_error(&c, "t.conf:130: key 'inherit': profile 'p64' inherits through 65 profiles, more than 64: p64 -> p63 -> p62 -> ", "-> p1 -> default"));
	assert_int_equal(c.nerr, 1);
	conf_free(&c);
	free(text);
}

/* No error holds a control byte, or a C1 control (U+0080 to U+009F). */
static bool errors_clean(const struct conf *c)
{
	const unsigned char *e;
	size_t i;

	for (i = 0; i < c->nerr; i++)
		for (e = (const unsigned char *)c->errors[i]; e && *e; e++)
			if (*e < 0x20 || *e == 0x7f ||
			    (e[0] == 0xc2 && e[1] >= 0x80 && e[1] <= 0x9f))
				return false;
	return true;
}

/*
 * Keys and names from the file reach the terminal escaped (an escape
 * sequence in a key would otherwise clear the screen or retitle the
 * window); a UTF-8 byte-order mark is no text; a section that differs
 * from another, or from [default] and [acpi], only in case is a typo.
 */
static void test_hostile_names(void **state)
{
	struct conf c;

	(void)state;
	assert_int_equal(parse_text(&c, "[default]\nco\x1b[31mmpressor = lz4\n"
				    "\x1b]0;owned\x07 = 1\n[x\x1b[2J]\n"
				    "[y] \x1b[H\n[acpi]\nli\xc2\x9b" "d = no\n"), -EINVAL);
	assert_true(errors_clean(&c));
	assert_true(has_error(&c, "t.conf:2: unknown key 'co\\x1b[31mmpressor'", NULL));
	assert_true(has_error(&c, "t.conf:3: unknown key '\\x1b]0;owned\\x07'", NULL));
	assert_true(has_error(&c, "t.conf:4: expected a profile name", "'[x\\x1b[2J]'"));
	assert_true(has_error(&c, "t.conf:5: unexpected text after ']': '\\x1b[H'", NULL));
	assert_true(has_error(&c, "t.conf:7: unknown key 'li\\u009bd' in [acpi]", NULL));
	conf_free(&c);
	/* A byte-order mark before the first section. */
	assert_int_equal(parse_text(&c, "\xef\xbb\xbf" "[default]\ntarget = /dev/vdb\n"), 0);
	assert_int_equal(c.nprof, 1);
	assert_string_equal(c.prof[0].name, "default");
	assert_string_equal(c.prof[0].v[K_TARGET].value, "/dev/vdb");
	conf_free(&c);
	/* Only at the start: elsewhere it is no blank. */
	assert_int_equal(parse_text(&c, "[default]\n\xef\xbb\xbf" "target = /dev/vdb\n"), -EINVAL);
	conf_free(&c);
	/* Case. */
	assert_int_equal(parse_text(&c, "[default]\n[laptop]\n[Laptop]\n"), -EINVAL);
	assert_true(has_error(&c, "t.conf:3: section [Laptop] differs from [laptop] (line 2) only in case: names are case-sensitive (did you mean '[laptop]'?)", NULL));
	conf_free(&c);
	assert_int_equal(parse_text(&c, "[Default]\ntarget = /dev/vdb\n[ACPI]\n"), -EINVAL);
	assert_true(has_error(&c, "t.conf:1: section [Default] differs from [default] only in case: names are case-sensitive (did you mean '[default]'?)", NULL));
	assert_true(has_error(&c, "t.conf:3: section [ACPI] differs from [acpi] only in case", NULL));
	conf_free(&c);
	/* A profile or a key named in another case: the one meant. */
	assert_int_equal(parse_text(&c, "[default]\n[laptop]\n[x]\ninherit = LAPTOP\n"
				    "COMPRESSOR = lz4\n"), -EINVAL);
	assert_true(has_error(&c, "t.conf:4: key 'inherit': no profile 'LAPTOP' (did you mean 'laptop'?)", NULL));
	assert_true(has_error(&c, "t.conf:5: unknown key 'COMPRESSOR' (did you mean 'compressor'?)", NULL));
	conf_free(&c);
	/* Names that merely look alike are no typo of case. */
	assert_int_equal(parse_text(&c, "[default]\n[laptop]\n[laptop2]\n"), 0);
	conf_free(&c);
}

static void test_default_loop(void **state)
{
	struct conf c = parse("[default]\ninherit = x\n[x]\n");

	(void)state;
	assert_true(has_error(&c, "inheritance loop: default -> x -> default", NULL));
	conf_free(&c);
}

static void test_syntax_errors(void **state)
{
	struct conf c = parse("io_depth = 1\n[default\n[bad name]\n"
			      "[ok] trailing\n[default]\njust words\n"
			      "= value\nio_depth =\n");

	(void)state;
	assert_true(has_error(&c, "t.conf:1: key 'io_depth' outside a section", NULL));
	assert_true(has_error(&c, "t.conf:2: expected ']'", NULL));
	assert_true(has_error(&c, "t.conf:3: expected a profile name", NULL));
	assert_true(has_error(&c, "t.conf:4: unexpected text after ']'", NULL));
	assert_true(has_error(&c, "t.conf:6: expected 'key = value'", NULL));
	assert_true(has_error(&c, "t.conf:7: expected a key name", NULL));
	assert_true(has_error(&c, "t.conf:8: key 'io_depth': expected a value", NULL));
	conf_free(&c);
}

static void test_overlong_and_binary(void **state)
{
	char *big = malloc(3000);
	struct conf c;

	(void)state;
	strcpy(big, "[default]\npre_hibernate = ");
	memset(big + strlen(big), 'x', 2000);
	strcpy(big + 2026, "\nio_depth = 5\n");
	c = parse(big);
	assert_true(has_error(&c, "t.conf:2: line too long", NULL));
	conf_free(&c);

	conf_init(&c);
	conf_parse_buffer(&c, "t.conf", "[default]\nio\0depth = 1\n", 23);
	assert_true(has_error(&c, "t.conf:2: binary data (NUL byte)", NULL));
	conf_free(&c);

	c = parse("[default]\npre_hibernate = echo \xff\xfe\n"
		  "post_resume = echo \xc3\xa9t\xc3\xa9\n");
	assert_true(has_error(&c, "t.conf:2: invalid UTF-8", NULL));
	assert_int_equal(c.nerr, 1);
	conf_free(&c);
	free(big);
}

static void test_too_many_errors(void **state)
{
	char buf[4096] = "[default]\n";
	struct conf c;
	int i;

	(void)state;
	for (i = 0; i < 50; i++)
		strcat(buf, "nokey = 1\n");
	c = parse(buf);
	assert_int_equal(c.nerr, CONF_MAX_ERRORS + 1);
	assert_true(has_error(&c, "too many errors", NULL));
	conf_free(&c);
}

static void test_load_missing_and_big(void **state)
{
	struct conf c;
	char path[] = "/tmp/hibernate-conf-XXXXXX";
	int fd;

	(void)state;
	conf_init(&c);
	assert_int_equal(conf_load(&c, "/nonexistent/hibernate.conf"),
			 -ENOENT);
	assert_true(has_error(&c, "/nonexistent/hibernate.conf: cannot open", NULL));
	conf_free(&c);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, CONF_MAX_FILE + 10), 0);
	close(fd);
	conf_init(&c);
	assert_int_equal(conf_load(&c, path), -EFBIG);
	assert_true(has_error(&c, "file too large", NULL));
	conf_free(&c);
	unlink(path);
}

static void test_override(void **state)
{
	struct conf c = parse("[default]\ntarget = /dev/a\n");
	struct profile p;
	char err[256];

	(void)state;
	assert_int_equal(conf_resolve(&c, "default", &p, err, sizeof(err)), 0);
	assert_int_equal(profile_override(&p, "compressor=zstd", err,
					  sizeof(err)), 0);
	assert_string_equal(p.v[K_COMPRESSOR].value, "zstd");
	assert_string_equal(p.v[K_COMPRESSOR].file, "command line");
	assert_int_equal(profile_override(&p, "image_size_limit=1G", err,
					  sizeof(err)), 0);
	assert_string_equal(p.v[K_IMAGE_SIZE_LIMIT].value, "1073741824");
	/* image_size: "max" (its default) is the largest size, any case. */
	assert_string_equal(p.v[K_IMAGE_SIZE].value, "9223372036854775807");
	assert_int_equal(profile_override(&p, "image_size=0", err,
					  sizeof(err)), 0);
	assert_string_equal(p.v[K_IMAGE_SIZE].value, "0");
	assert_int_equal(profile_override(&p, "image_size=MAX", err,
					  sizeof(err)), 0);
	assert_string_equal(p.v[K_IMAGE_SIZE].value, "9223372036854775807");
	assert_int_equal(profile_override(&p, "image_size=300M", err,
					  sizeof(err)), 0);
	assert_string_equal(p.v[K_IMAGE_SIZE].value, "314572800");
	assert_int_not_equal(profile_override(&p, "image_size=maximum", err,
					      sizeof(err)), 0);
	assert_non_null(strstr(err, "(suffix K, M, G or T allowed) or max, got 'maximum'"));
	assert_int_not_equal(profile_override(&p, "io_depht=3", err,
					      sizeof(err)), 0);
	assert_non_null(strstr(err, "did you mean 'io_depth'"));
	assert_int_not_equal(profile_override(&p, "io_depth=0", err,
					      sizeof(err)), 0);
	assert_non_null(strstr(err, "expected a value from 1 to 1024"));
	assert_int_not_equal(profile_override(&p, "inherit=x", err,
					      sizeof(err)), 0);
	profile_free(&p);
	conf_free(&c);
}

/*
 * compressor = NAME:LEVEL: the levels names.h gives (the libraries'),
 * normalised as the module takes them; a level where none is taken, out
 * of range or malformed is refused with file:line and what was expected.
 */
static void test_compressor_level(void **state)
{
	struct conf c = parse("[default]\ncompressor = zstd:-5\n"
			      "[a]\ncompressor = lz4hc:007\n"
			      "[b]\ncompressor = zstd:23\n"
			      "[c]\ncompressor = lz4:1\n"
			      "[d]\ncompressor = zstd:\n"
			      "[e]\ncompressor = deflate:0\n"
			      "[f]\ncompressor = zstd:+3\n"
			      "[g]\ncompressor = zstd:-131073\n"
			      "[h]\ncompressor = zstd:99999999999999999999\n"
			      "[i]\ncompressor = zstd:-131072\n"
			      "[j]\ncompressor = Zstd:1\n"
			      "[k]\ncompressor = zstd:1:2\n");
	struct profile p;
	char err[256];

	(void)state;
	assert_true(has_error(&c, "t.conf:6: key 'compressor': expected a zstd level from -131072 to 22", "got 'zstd:23'"));
	assert_true(has_error(&c, "t.conf:8: key 'compressor': expected a level only on a compressor that takes one (lz4hc:1 to 16, zstd:-131072 to 22, deflate:1 to 9); lz4 takes none", "got 'lz4:1'"));
	assert_true(has_error(&c, "t.conf:10: key 'compressor': expected zstd:LEVEL, LEVEL a whole number from -131072 to 22", "got 'zstd:'"));
	assert_true(has_error(&c, "t.conf:12: key 'compressor': expected a deflate level from 1 to 9", "got 'deflate:0'"));
	assert_true(has_error(&c, "t.conf:14: key 'compressor': expected zstd:LEVEL", "got 'zstd:+3'"));
	assert_true(has_error(&c, "t.conf:16: key 'compressor': expected a zstd level from -131072 to 22", "got 'zstd:-131073'"));
	assert_true(has_error(&c, "t.conf:18: key 'compressor': expected zstd:LEVEL", "got 'zstd:99999999999999999999'"));
	assert_true(has_error(&c, "t.conf:22: key 'compressor': expected a compressor name", "got 'Zstd:1'"));
	assert_true(has_error(&c, "t.conf:24: key 'compressor': expected zstd:LEVEL", "got 'zstd:1:2'"));
	assert_int_equal(c.nerr, 9);
	assert_int_equal(conf_resolve(&c, "default", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_COMPRESSOR].value, "zstd:-5");
	profile_free(&p);
	assert_int_equal(conf_resolve(&c, "a", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_COMPRESSOR].value, "lz4hc:7");
	profile_free(&p);
	assert_int_equal(conf_resolve(&c, "i", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_COMPRESSOR].value, "zstd:-131072");
	assert_int_equal(profile_override(&p, "compressor=deflate:9", err,
					  sizeof(err)), 0);
	assert_string_equal(p.v[K_COMPRESSOR].value, "deflate:9");
	assert_int_not_equal(profile_override(&p, "compressor=lz4hc:17", err,
					      sizeof(err)), 0);
	assert_non_null(strstr(err, "expected a lz4hc level from 1 to 16"));
	assert_string_equal(p.v[K_COMPRESSOR].value, "deflate:9");
	profile_free(&p);
	conf_free(&c);
}

/*
 * encryption and key: the values (keyring:NAME, and tpm exactly as the
 * module takes it), and the two together.
 */
static void test_encryption_key(void **state)
{
	struct conf c = parse("[default]\ntarget = /dev/a\n"
			      "[laptop]\nencryption = aes-gcm\n"
			      "key = keyring:lap.top_1-x\n"
			      "[nokey]\nencryption = chacha20-poly1305\n"
			      "[sealed]\nencryption = aes-gcm\nkey = tpm   \n"
			      "[bad2]\nkey = tpm:0x81000001\n"
			      "[bad3]\nkey = keyring:\n"
			      "[bad4]\nkey = keyring:a/b\n"
			      "[bad5]\nkey = default\n"
			      "[bad6]\nencryption = rot13 x\n"
			      "[bad7]\nkey = TPM\n"
			      "[bad8]\nkey = tpm x\n"
			      "[sealed2]\nkey = tpm # the TPM\n");
	const struct conf_key_info *k = &conf_keys[K_KEY];
	char norm[256], why[256], err[512], name[80];
	struct profile p;

	(void)state;
	assert_string_equal(conf_keys[K_ENCRYPTION].name, "encryption");
	assert_string_equal(conf_keys[K_ENCRYPTION].def, "none");
	assert_string_equal(k->name, "key");
	assert_null(k->def);
	assert_true(has_error(&c, "t.conf:12: key 'key': expected keyring:NAME or tpm, got 'tpm:0x81000001'", NULL));
	assert_true(has_error(&c, "t.conf:14: key 'key': expected keyring:NAME or tpm, NAME 1 to 64 letters", "got 'keyring:'"));
	assert_true(has_error(&c, "t.conf:16: key 'key': expected keyring:NAME or tpm, NAME 1 to 64 letters", "got 'keyring:a/b'"));
	assert_true(has_error(&c, "t.conf:18: key 'key': expected keyring:NAME or tpm, got 'default'", NULL));
	assert_true(has_error(&c, "t.conf:20: key 'encryption': expected a name", NULL));
	/* The module takes tpm in lower case and alone. */
	assert_true(has_error(&c, "t.conf:22: key 'key': expected keyring:NAME or tpm, got 'TPM'", NULL));
	assert_true(has_error(&c, "t.conf:24: key 'key': expected keyring:NAME or tpm, got 'tpm x'", NULL));
	assert_int_equal(c.nerr, 7);

	/* NAME: 1 to 64 of the module's characters. */
	memset(name, 'a', sizeof(name));
	memcpy(name, "keyring:", 8);
	name[8 + 64] = '\0';
	assert_int_equal(conf_check_value(k, name, norm, sizeof(norm), why,
					  sizeof(why)), 0);
	name[8 + 64] = 'a';
	name[8 + 65] = '\0';
	assert_int_equal(conf_check_value(k, name, norm, sizeof(norm), why,
					  sizeof(why)), -EINVAL);
	assert_int_equal(conf_check_value(k, "keyring:a b", norm,
					  sizeof(norm), why, sizeof(why)),
			 -EINVAL);
	/* A letter or digit first: the initramfs hooks skip dot files. */
	assert_int_equal(conf_check_value(k, "keyring:.x", norm,
					  sizeof(norm), why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(conf_check_value(k, "keyring:..", norm,
					  sizeof(norm), why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(conf_check_value(k, "keyring:-x", norm,
					  sizeof(norm), why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(conf_check_value(k, "keyring:9.x", norm,
					  sizeof(norm), why, sizeof(why)), 0);
	assert_int_equal(conf_check_value(k, "tpm", norm, sizeof(norm), why,
					  sizeof(why)), 0);
	assert_string_equal(norm, "tpm");
	/* --set does not trim: only the exact word. */
	assert_int_equal(conf_check_value(k, "tpm:", norm, sizeof(norm), why,
					  sizeof(why)), -EINVAL);
	assert_string_equal(why, "expected keyring:NAME or tpm, got 'tpm:'");
	/* Control characters are said, not echoed to the terminal: any key. */
	{
		static const int keys[] = { K_RESUME_LOCATION, K_MODULE,
					    K_INHERIT, K_COMPRESSOR };
		size_t i;

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			assert_int_equal(conf_check_value(&conf_keys[keys[i]],
							  "x\033[31mX", norm,
							  sizeof(norm), why,
							  sizeof(why)),
					 -EINVAL);
			assert_non_null(strstr(why, ", got control characters"));
			assert_null(strchr(why, '\033'));
		}
		/* Without them, the value is quoted as before. */
		assert_int_equal(conf_check_value(&conf_keys[K_COMPRESSOR],
						  "x y", norm, sizeof(norm),
						  why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, ", got 'x y'"));
	}
	/* Control characters are said, not echoed to the terminal. */
	assert_int_equal(conf_check_value(k, "tpm\033[31mX", norm,
					  sizeof(norm), why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "expected keyring:NAME or tpm, got control characters");
	assert_int_equal(conf_check_value(k, "keyring:t\r", norm,
					  sizeof(norm), why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "expected keyring:NAME or tpm, got control characters");
	assert_int_equal(conf_check_value(k, "tpm ", norm, sizeof(norm), why,
					  sizeof(why)), -EINVAL);
	assert_int_equal(conf_check_value(k, " tpm", norm, sizeof(norm), why,
					  sizeof(why)), -EINVAL);
	assert_int_equal(conf_check_value(k, "Tpm", norm, sizeof(norm), why,
					  sizeof(why)), -EINVAL);
	assert_int_equal(conf_check_value(k, "tpm2", norm, sizeof(norm), why,
					  sizeof(why)), -EINVAL);
	/*
	 * keyring:tpm, key files named tpm, parses as it did before key =
	 * tpm existed: a configuration of then must still resume.
	 */
	assert_int_equal(conf_check_value(k, "keyring:tpm", norm,
					  sizeof(norm), why, sizeof(why)), 0);
	assert_string_equal(norm, "keyring:tpm");
	assert_int_equal(conf_check_value(k, "keyring:tpm2", norm,
					  sizeof(norm), why, sizeof(why)), 0);
	assert_int_equal(conf_check_value(k, "keyring:TPM", norm,
					  sizeof(norm), why, sizeof(why)), 0);
	assert_true(conf_valid_keyname("tpm"));
	assert_true(conf_valid_keyname("tpm.old"));

	/* tpm, its trailing blanks and comment gone, is a key for encryption. */
	assert_int_equal(conf_resolve(&c, "sealed", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_KEY].value, "tpm");
	assert_int_equal(p.v[K_KEY].line, 10);
	assert_int_equal(profile_check_key(&p, err, sizeof(err)), 0);
	profile_free(&p);
	assert_int_equal(conf_resolve(&c, "sealed2", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_KEY].value, "tpm");
	profile_free(&p);

	/* Encryption with its key, without, and a key given by --set. */
	assert_int_equal(conf_resolve(&c, "laptop", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_ENCRYPTION].value, "aes-gcm");
	assert_string_equal(p.v[K_KEY].value, "keyring:lap.top_1-x");
	assert_int_equal(profile_check_key(&p, err, sizeof(err)), 0);
	profile_free(&p);
	assert_int_equal(conf_resolve(&c, "default", &p, err, sizeof(err)), 0);
	assert_int_equal(profile_check_key(&p, err, sizeof(err)), 0);
	assert_int_equal(profile_override(&p, "encryption=aes-gcm", err,
					  sizeof(err)), 0);
	assert_int_equal(profile_check_key(&p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "command line: profile default: encryption aes-gcm needs key = keyring:NAME (create one with hibernate --setup-key) or key = tpm");
	assert_int_equal(profile_override(&p, "key=keyring:default", err,
					  sizeof(err)), 0);
	assert_int_equal(profile_check_key(&p, err, sizeof(err)), 0);
	assert_int_equal(profile_override(&p, "key=tpm", err, sizeof(err)), 0);
	assert_string_equal(p.v[K_KEY].value, "tpm");
	assert_int_equal(profile_check_key(&p, err, sizeof(err)), 0);
	assert_int_not_equal(profile_override(&p, "key=tpm:0x81000001", err,
					      sizeof(err)), 0);
	assert_string_equal(err, "--set: key 'key': expected keyring:NAME or tpm, got 'tpm:0x81000001'");
	/* The refused --set left the earlier value. */
	assert_string_equal(p.v[K_KEY].value, "tpm");
	profile_free(&p);
	assert_int_equal(conf_resolve(&c, "nokey", &p, err, sizeof(err)), 0);
	assert_int_equal(profile_check_key(&p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.conf:7: profile nokey: encryption chacha20-poly1305 needs key = keyring:NAME (create one with hibernate --setup-key) or key = tpm");
	profile_free(&p);
	conf_free(&c);
}

/*
 * Fuzz: mutate valid files and feed random bytes; the parser must never
 * crash or overrun (run the tests under ASan/valgrind for more).
 */
/* Comments after a value, and force takes the words of every boolean. */
static void test_trailing_comment_and_flag(void **state)
{
	struct conf c = parse("[default]\n"
			      "target = /dev/vdb   # the swap partition\n"
			      "io_depth = 32 ; fewer bios\n"
			      "force = yes\n"
			      "pre_hibernate = echo a # the shell's comment\n"
			      "post_resume = echo a;echo b\n"
			      "[off]\nforce = off\t# no\nunload_module = on #\n"
			      "[acpi]\nlid = no # keep the lid\n");
	struct conf bad = parse("[default]\ntarget = # set me\n"
				"force = 2\nio_depth = 3#4\n"
				"compressor = lz4;fast\n");
	struct profile p;
	char err[256];

	(void)state;
	assert_int_equal(c.nerr, 0);
	assert_int_equal(conf_resolve(&c, "default", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_TARGET].value, "/dev/vdb");
	assert_string_equal(p.v[K_IO_DEPTH].value, "32");
	assert_string_equal(p.v[K_FORCE].value, "1");
	assert_string_equal(p.pre[0].cmd, "echo a # the shell's comment");
	assert_string_equal(p.post[0].cmd, "echo a;echo b");
	assert_int_equal(conf_resolve(&c, "off", &p, err, sizeof(err)), 0);
	assert_string_equal(p.v[K_FORCE].value, "0");
	assert_true(p.unload_module);
	assert_string_equal(c.acpi[A_LID].value, "no");
	assert_true(has_error(&bad, "t.conf:2: key 'target': expected a value", NULL));
	assert_true(has_error(&bad, "t.conf:3: key 'force': expected 'yes' or 'no', got '2'", NULL));
	/* Not after a blank: part of the value, which is then refused. */
	assert_true(has_error(&bad, "t.conf:4: key 'io_depth': expected a decimal number, got '3#4'", NULL));
	assert_true(has_error(&bad, "t.conf:5: key 'compressor': expected", "got 'lz4;fast'"));
	assert_int_equal(profile_override(&p, "force=true", err, sizeof(err)), 0);
	assert_string_equal(p.v[K_FORCE].value, "1");
	profile_free(&p);
	conf_free(&c);
	conf_free(&bad);
}

static void test_fuzz(void **state)
{
	static const char seed[] =
		"[default]\ntarget = UUID=1234\ncompressor = lz4\n"
		"image_size_limit = 1G\ninherit = x\n[x]\ninherit = default\n"
		"pre_hibernate = echo hi\n[acpi]\nlid = yes\n";
	static const char alphabet[] = "[]=#;\n \t\r\0\xff\xc3" "abcz09KMG_-./";
	char buf[4096];
	unsigned int rnd = 12345;
	int iter;

	(void)state;
	for (iter = 0; iter < 20000; iter++) {
		size_t len = sizeof(seed) - 1, i, n;
		struct conf c;
		struct profile p;
		char err[256];

		memcpy(buf, seed, len);
		rnd = rnd * 1103515245 + 12345;
		n = 1 + (rnd >> 16) % 8;
		for (i = 0; i < n; i++) {
			size_t pos;

			if (!len)
				break;
			rnd = rnd * 1103515245 + 12345;
			pos = (rnd >> 8) % len;
			rnd = rnd * 1103515245 + 12345;
			switch ((rnd >> 16) % 4) {
			case 0:	/* replace */
				buf[pos] = alphabet[(rnd >> 4) %
						    (sizeof(alphabet) - 1)];
				break;
			case 1:	/* delete */
				memmove(buf + pos, buf + pos + 1, len - pos - 1);
				len--;
				break;
			case 2:	/* random byte */
				buf[pos] = (char)(rnd >> 3);
				break;
			default: /* truncate */
				len = pos + 1;
				break;
			}
		}
		if (iter % 10 == 0) {
			/* pure noise, sometimes one very long line */
			len = (rnd >> 7) % sizeof(buf);
			for (i = 0; i < len; i++) {
				rnd = rnd * 1103515245 + 12345;
				buf[i] = iter % 20 ? (char)(rnd >> 16) : 'a';
			}
		}
		conf_init(&c);
		conf_parse_buffer(&c, "fuzz", buf, len);
		if (!c.nerr) {
			for (i = 0; i < c.nprof; i++)
				conf_resolve(&c, c.prof[i].name, &p, err,
					     sizeof(err));
		}
		conf_free(&c);
	}
}

static void test_strutil(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(parse_size("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_size("4K", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_size("2MiB", &v), 0);
	assert_int_equal(v, 2 << 20);
	assert_int_equal(parse_size("3g", &v), 0);
	assert_int_equal(v, 3ULL << 30);
	assert_int_equal(parse_size("1T", &v), 0);
	assert_int_equal(parse_size("8388608T", &v), 0);
	assert_int_equal(v, 1ULL << 63);
	assert_int_equal(parse_size("16777216T", &v), -ERANGE);
	assert_int_equal(parse_size("1X", &v), -EINVAL);
	assert_int_equal(parse_size("-1", &v), -EINVAL);
	assert_int_equal(parse_size(" 1", &v), -EINVAL);
	assert_int_equal(parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(parse_u64("12a", &v), -EINVAL);
	assert_int_equal(edit_distance("compresor", "compressor"), 1);
	assert_int_equal(edit_distance("", "abc"), 3);
	assert_int_equal(edit_distance("kitten", "sitting"), 3);
	assert_true(utf8_valid("\xc3\xa9", 2));
	assert_false(utf8_valid("\xc3", 1));
	assert_false(utf8_valid("\xc0\xaf", 2));
	assert_false(utf8_valid("\xed\xa0\x80", 3));
	assert_true(word_in_list("lz4", "lzo lz4hc lz4"));
	assert_false(word_in_list("lz4", "lzo lz4hc"));
	assert_false(word_in_list("", "lzo"));
}

/*
 * The escaper: controls, C1 controls and bytes that start no UTF-8
 * character written out; UTF-8 text kept; a cut falls between whole
 * characters, never inside one or inside an escape.
 */
static void test_escape(void **state)
{
	char buf[64], *text;
	size_t len;
	FILE *f;

	(void)state;
	assert_string_equal(str_escape("a\x1b]0;x\x07\r\n\x7f", buf,
				       sizeof(buf)),
			    "a\\x1b]0;x\\x07\\x0d\\x0a\\x7f");
	assert_string_equal(str_escape("\xc2\x9b" "2J", buf, sizeof(buf)),
			    "\\u009b2J");
	/* A lone 0x9b: a CSI to an 8-bit terminal. */
	assert_string_equal(str_escape("p\xff\x9b[2J\xc3", buf, sizeof(buf)),
			    "p\\xff\\x9b[2J\\xc3");
	assert_string_equal(str_escape("\xe2\x82\xac \xc3\xa9", buf,
				       sizeof(buf)), "\xe2\x82\xac \xc3\xa9");
	assert_string_equal(str_escape("ab\xe2\x82\xac", buf, 5), "ab");
	assert_string_equal(str_escape("ab\x1b", buf, 6), "ab");
	assert_string_equal(str_escape("ab\x1b", buf, 7), "ab\\x1b");
	assert_string_equal(str_escape("ab", buf, 1), "");
	/* Onto a stream, whatever the length; newlines kept when asked. */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	str_put_escaped(f, "a\nb\x1b\r", "\n");
	str_put_escaped(f, "|c\nd", "");
	fclose(f);
	assert_string_equal(text, "a\nb\\x1b\\x0d|c\\x0ad");
	free(text);
	/* A line of a report: one line, whatever its arguments hold. */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	hib_print(f, "target %s: %s\n", "/dev/x\n# check: ok", "\x1b[2J");
	hib_print(f, "%s", "no newline\n");
	fclose(f);
	assert_string_equal(text, "target /dev/x\\x0a# check: ok: \\x1b[2J\n"
			    "no newline\\x0a");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_file),
		cmocka_unit_test(test_inherit),
		cmocka_unit_test(test_implicit_default),
		cmocka_unit_test(test_bad_value),
		cmocka_unit_test(test_unknown_key_suggests),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_inheritance_errors),
		cmocka_unit_test(test_inheritance_depth),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_default_loop),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_overlong_and_binary),
		cmocka_unit_test(test_too_many_errors),
		cmocka_unit_test(test_load_missing_and_big),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_compressor_level),
		cmocka_unit_test(test_encryption_key),
		cmocka_unit_test(test_trailing_comment_and_flag),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_strutil),
		cmocka_unit_test(test_escape),
	};

	return cmocka_run_group_tests_name("conf", tests, NULL, NULL);
}

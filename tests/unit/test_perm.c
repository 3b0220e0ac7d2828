// SPDX-License-Identifier: GPL-2.0
/*
 * Permissions: the root check (geteuid() is wrapped at link time, see
 * EXTRA in tests/unit/run), the owner and mode rules for the
 * configuration and the hook programs, and the lock file that must not
 * lead anywhere else.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/conf.h"
#include "conf/options.h"
#include "cycle/run.h"
#include "lib/common.h"
#include "lib/lock.h"
#include "lib/perm.h"
#include "test_util.h"

/* -1: the real euid; else what geteuid() returns in the code under test. */
static int fake_euid = -1;

uid_t __real_geteuid(void);

uid_t __wrap_geteuid(void)
{
	return fake_euid < 0 ? __real_geteuid() : (uid_t)fake_euid;
}

static int reset_euid(void **state)
{
	(void)state;
	fake_euid = -1;
	return 0;
}

static void test_owner_mode(void **state)
{
	char why[1024];

	(void)state;
	fake_euid = 0;
	assert_int_equal(perm_owner_mode("/f", 0, S_IFREG | 0644, why,
					 sizeof(why)), 0);
	assert_int_equal(perm_owner_mode("/f", 0, S_IFREG | 0600, why,
					 sizeof(why)), 0);
	assert_int_equal(perm_owner_mode("/f", 0, S_IFREG | 0664, why,
					 sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "/f is owned by root, uid 0, mode 0664 (writable by its group)"));
	assert_non_null(strstr(why, "chmod go-w /f"));
	assert_null(strstr(why, "chown"));
	assert_int_equal(perm_owner_mode("/f", 0, S_IFREG | 0646, why,
					 sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "(writable by others)"));
	assert_int_equal(perm_owner_mode("/f", 0, S_IFREG | 0666, why,
					 sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "(writable by group and others)"));
	/* Someone else's file, even read-only, is theirs to change. */
	assert_int_equal(perm_owner_mode("/f", 1234, S_IFREG | 0444, why,
					 sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "owned by uid 1234"));
	assert_non_null(strstr(why, "chown root /f"));
	assert_null(strstr(why, "chmod"));
	assert_int_equal(perm_owner_mode("/f", 1234, S_IFREG | 0666, why,
					 sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "chown root /f; chmod go-w /f"));
	/* A user running hibernate on their own files trusts themselves. */
	fake_euid = 1234;
	assert_int_equal(perm_owner_mode("/f", 1234, S_IFREG | 0644, why,
					 sizeof(why)), 0);
	assert_int_equal(perm_owner_mode("/f", 0, S_IFREG | 0644, why,
					 sizeof(why)), 0);
	assert_int_equal(perm_owner_mode("/f", 1234, S_IFREG | 0620, why,
					 sizeof(why)), -EPERM);
	assert_int_equal(perm_owner_mode("/f", 99, S_IFREG | 0644, why,
					 sizeof(why)), -EPERM);
}

/* A file holding a secret: root's, and open to no one else at all. */
static void test_secret(void **state)
{
	char why[1024];

	(void)state;
	fake_euid = 0;
	assert_int_equal(perm_secret("/s", 0, S_IFREG | 0600, why,
				     sizeof(why)), 0);
	assert_int_equal(perm_secret("/s", 0, S_IFREG | 0400, why,
				     sizeof(why)), 0);
	assert_int_equal(perm_secret("/s", 0, S_IFREG | 0640, why,
				     sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "/s is owned by root, uid 0, mode 0640 (open to its group)"));
	assert_non_null(strstr(why, "open to no one else: chmod 600 /s"));
	assert_null(strstr(why, "chown"));
	assert_int_equal(perm_secret("/s", 0, S_IFREG | 0604, why,
				     sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "(open to others)"));
	assert_int_equal(perm_secret("/s", 0, S_IFREG | 0666, why,
				     sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "(open to group and others)"));
	assert_int_equal(perm_secret("/s", 1234, S_IFREG | 0600, why,
				     sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "owned by uid 1234, mode 0600 (not root)"));
	assert_non_null(strstr(why, "chown root /s"));
	assert_null(strstr(why, "chmod"));
	assert_int_equal(perm_secret("/s", 1234, S_IFREG | 0644, why,
				     sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "chown root /s; chmod 600 /s"));
}

/*
 * conf_load records the owner and mode of the file it opened, and reads
 * nothing from one that others could have written: -EPERM, no profile,
 * one error naming the file and the fix.
 */
static void check_conf_mode(const char *d, mode_t mode, int want)
{
	char path[4200];
	struct conf c;

	snprintf(path, sizeof(path), "%s/h.conf", d);
	assert_int_equal(chmod(path, mode), 0);
	conf_init(&c);
	assert_int_equal(conf_load(&c, path), want);
	assert_true(c.have_stat);
	assert_int_equal(c.mode & 07777, mode);
	assert_int_equal(c.uid, getuid());
	if (want) {
		assert_int_equal(c.nprof, 0);
		assert_int_equal(c.nerr, 1);
		assert_non_null(strstr(c.errors[0], path));
		assert_non_null(strstr(c.errors[0], "chmod go-w"));
		assert_non_null(strstr(c.errors[0],
				       "nothing was read from it"));
	} else {
		assert_int_equal(c.prof[0].npre, 1);
	}
	conf_free(&c);
}

static void test_conf_mode(void **state)
{
	char *d = tmp_tree();

	(void)state;
	put_file(d, "h.conf", "[default]\ntarget = /dev/null\n"
		 "pre_hibernate = touch /tmp/never\n");
	check_conf_mode(d, 0666, -EPERM);
	check_conf_mode(d, 0664, -EPERM);
	check_conf_mode(d, 0646, -EPERM);
	check_conf_mode(d, 0644, 0);
	check_conf_mode(d, 0600, 0);
	rm_tree(d);
}

/* A FIFO, a device, a directory: refused before any read could block. */
static void test_open_regular(void **state)
{
	char *d = tmp_tree(), path[4200], why[256];
	struct conf c;
	int fd;

	(void)state;
	if (!d)
		abort();
	snprintf(path, sizeof(path), "%s/fifo", d);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(perm_open_regular(path, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "not a regular file (a FIFO)");
	conf_init(&c);
	assert_int_equal(conf_load(&c, path), -EINVAL);
	assert_int_equal(c.nerr, 1);
	assert_non_null(strstr(c.errors[0], "not a regular file (a FIFO); nothing was read from it"));
	conf_free(&c);
	assert_int_equal(perm_open_regular("/dev/null", why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "not a regular file (a character device)");
	assert_int_equal(perm_open_regular(d, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "not a regular file (a directory)");
	snprintf(path, sizeof(path), "%s/nosuch", d);
	assert_int_equal(perm_open_regular(path, why, sizeof(why)), -ENOENT);
	put_file(d, "plain", "x\n");
	snprintf(path, sizeof(path), "%s/plain", d);
	fd = perm_open_regular(path, why, sizeof(why));
	assert_true(fd >= 0);
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	close(fd);
	rm_tree(d);
}

static void test_hook_command(void **state)
{
	char *d = tmp_tree(), prog[4200], link[4200], cmd[9000], why[9000];

	(void)state;
	put_file(d, "prog", "#!/bin/sh\nexit 0\n");
	snprintf(prog, sizeof(prog), "%s/prog", d);
	snprintf(link, sizeof(link), "%s/link", d);
	assert_int_equal(symlink(prog, link), 0);

	assert_int_equal(chmod(prog, 0755), 0);
	snprintf(cmd, sizeof(cmd), "%s --flag", prog);
	assert_int_equal(perm_hook_command(cmd, why, sizeof(why)), 0);
	/* The link itself is 0777; what counts is the file it names. */
	snprintf(cmd, sizeof(cmd), "  %s", link);
	assert_int_equal(perm_hook_command(cmd, why, sizeof(why)), 0);

	assert_int_equal(chmod(prog, 0775), 0);
	snprintf(cmd, sizeof(cmd), "%s --flag", prog);
	assert_int_equal(perm_hook_command(cmd, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, prog));
	assert_non_null(strstr(why, "mode 0775"));
	/* The program ends at a shell operator as well as at a blank. */
	snprintf(cmd, sizeof(cmd), "\t%s;echo done", prog);
	assert_int_equal(perm_hook_command(cmd, why, sizeof(why)), -EPERM);
	snprintf(cmd, sizeof(cmd), "%s|cat", link);
	assert_int_equal(perm_hook_command(cmd, why, sizeof(why)), -EPERM);
	assert_int_equal(chmod(prog, 0757), 0);
	snprintf(cmd, sizeof(cmd), "%s>/dev/null", prog);
	assert_int_equal(perm_hook_command(cmd, why, sizeof(why)), -EPERM);

	/* Commands found through PATH are root's. */
	assert_int_equal(perm_hook_command("echo hi", why, sizeof(why)), 0);
	assert_int_equal(perm_hook_command("exit 1", why, sizeof(why)), 0);
	/* A missing program is refused, not left to fail as the hook. */
	snprintf(cmd, sizeof(cmd), "%s/nosuch arg", d);
	assert_int_equal(perm_hook_command(cmd, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "No such file"));
	rm_tree(d);
}

/*
 * A program the shell would rewrite, or reach through another word,
 * escapes the owner check: refused whatever the file's mode.
 */
static void test_hook_command_shell(void **state)
{
	char *d = tmp_tree(), prog[4200], cmd[9000], why[9000];
	static const char *const bad[] = {
		"%s'' x", "\"%s\"", "\\%s", "exec %s", "%s$IFS",
		"command %s", "eval %s", ". %s", "source %s", "env %s",
		"sh %s", "X=1 %s", "(%s)", "%s*", "%s?", "{ %s; }",
		"! %s", "nohup %s", "`echo %s`",
	};
	size_t i;

	(void)state;
	put_file(d, "prog", "#!/bin/sh\nexit 0\n");
	snprintf(prog, sizeof(prog), "%s/prog", d);
	assert_int_equal(chmod(prog, 0755), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd), bad[i], prog);
		why[0] = '\0';
		if (perm_hook_command(cmd, why, sizeof(why)) != -EPERM)
			fail_msg("not refused: %s", cmd);
		assert_true(why[0]);
	}
	/* Relative paths, directories and files that do not execute. */
	assert_int_equal(perm_hook_command("./prog", why, sizeof(why)),
			 -EPERM);
	assert_non_null(strstr(why, "not an absolute path"));
	assert_int_equal(perm_hook_command(d, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "a directory"));
	assert_int_equal(chmod(prog, 0644), 0);
	assert_int_equal(perm_hook_command(prog, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "not executable"));
	/* The legitimate form: absolute path, then arguments. */
	assert_int_equal(chmod(prog, 0700), 0);
	snprintf(cmd, sizeof(cmd), "%s stop 'a b' \"$X\" >/dev/null", prog);
	assert_int_equal(perm_hook_command(cmd, why, sizeof(why)), 0);
	rm_tree(d);
}

/* The lock path is a symbolic link: refused, its target untouched. */
static void test_lock_symlink(void **state)
{
	char *d = tmp_tree(), lock[4200], victim[4200];
	struct stat st;
	int fd = -1;

	(void)state;
	snprintf(lock, sizeof(lock), "%s/lock", d);
	snprintf(victim, sizeof(victim), "%s/victim", d);
	assert_int_equal(symlink(victim, lock), 0);
	assert_int_equal(lock_take(lock, &fd), -LOCK_ESYMLINK);
	assert_int_equal(fd, -1);
	assert_int_equal(lstat(victim, &st), -1);
	assert_int_equal(lock_probe(lock), -LOCK_ESYMLINK);
	assert_non_null(strstr(lock_strerror(-LOCK_ESYMLINK),
			       "symbolic link"));

	put_file(d, "victim", "precious\n");
	assert_int_equal(chmod(victim, 0644), 0);
	assert_int_equal(lock_take(lock, &fd), -LOCK_ESYMLINK);
	assert_string_equal(get_file(d, "victim"), "precious\n");
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	rm_tree(d);
}

static void test_lock_unsafe(void **state)
{
	char *d = tmp_tree(), lock[4200], other[4200];
	struct stat st;
	int fd = -1;

	(void)state;
	snprintf(lock, sizeof(lock), "%s/lock", d);
	snprintf(other, sizeof(other), "%s/other", d);

	/* Created as a private file, and taken. */
	assert_int_equal(lock_take(lock, &fd), 0);
	assert_int_equal(stat(lock, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	lock_release(fd);
	assert_null(lock_strerror(-ENOENT));
	assert_null(lock_strerror(-EWOULDBLOCK));

	/* A second name would let the truncation reach another file. */
	assert_int_equal(link(lock, other), 0);
	assert_int_equal(lock_take(lock, &fd), -LOCK_ELINKS);
	assert_int_equal(lock_probe(lock), -LOCK_ELINKS);
	assert_int_equal(unlink(other), 0);

	/* Not a regular file: a directory, a FIFO (which must not hang). */
	assert_int_equal(unlink(lock), 0);
	assert_int_equal(mkdir(lock, 0700), 0);
	assert_int_equal(lock_take(lock, &fd), -LOCK_ENOTREG);
	assert_int_equal(rmdir(lock), 0);
	assert_int_equal(mkfifo(lock, 0600), 0);
	assert_int_equal(lock_take(lock, &fd), -LOCK_ENOTREG);
	assert_int_equal(lock_probe(lock), -LOCK_ENOTREG);
	assert_int_equal(unlink(lock), 0);

	/* Someone else's file (needs root to make one). */
	put_file(d, "lock", "");
	if (!chown(lock, 1234, 1234)) {
		assert_int_equal(lock_take(lock, &fd), -LOCK_EOWNER);
		assert_non_null(strstr(lock_strerror(-LOCK_EOWNER), "root"));
	}
	rm_tree(d);
}

static int run_cli(const char *const *args)
{
	char *argv[16];
	struct hib_ctl ctl;
	int argc = 0, ret;

	while (args[argc]) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	ret = hib_parse_options(&ctl, argc, argv);
	if (ret >= 0)
		return ret;
	return hib_run(&ctl);
}

/*
 * Not root: every action that changes the system is refused with its own
 * exit status, before the configuration is read (a missing -c file would
 * exit 3 otherwise).  --dry-run, --status, --help and --version go on.
 */
static void test_not_root(void **state)
{
	const char *hib[] = { "hibernate", "-c", "/nonexistent", NULL };
	const char *test[] = { "hibernate", "--test", "-c", "/nonexistent",
			       NULL };
	const char *res[] = { "hibernate", "--resume", "-c", "/nonexistent",
			      NULL };
	const char *inv[] = { "hibernate", "--invalidate", "-c",
			      "/nonexistent", NULL };
	const char *dry[] = { "hibernate", "--test", "-n", "-c",
			      "/nonexistent", NULL };
	const char *sysd[] = { "hibernate", "--install-systemd", NULL };
	const char *help[] = { "hibernate", "--help", NULL };
	const char *vers[] = { "hibernate", "--version", NULL };

	(void)state;
	unsetenv("HIBERNATE_SYSROOT");
	fake_euid = 1000;
	assert_int_equal(run_cli(hib), HIB_EXIT_PERM);
	assert_int_equal(run_cli(test), HIB_EXIT_PERM);
	assert_int_equal(run_cli(res), HIB_EXIT_PERM);
	assert_int_equal(run_cli(inv), HIB_EXIT_PERM);
	assert_int_equal(run_cli(sysd), HIB_EXIT_PERM);
	assert_int_equal(run_cli(dry), HIB_EXIT_CONFIG);
	assert_int_equal(run_cli(help), HIB_EXIT_OK);
	assert_int_equal(run_cli(vers), HIB_EXIT_OK);
	/* The same as root gets past the check to the missing file. */
	fake_euid = 0;
	assert_int_equal(run_cli(test), HIB_EXIT_CONFIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_owner_mode, reset_euid),
		cmocka_unit_test_teardown(test_secret, reset_euid),
		cmocka_unit_test(test_conf_mode),
		cmocka_unit_test(test_open_regular),
		cmocka_unit_test(test_hook_command),
		cmocka_unit_test(test_hook_command_shell),
		cmocka_unit_test(test_lock_symlink),
		cmocka_unit_test(test_lock_unsafe),
		cmocka_unit_test_teardown(test_not_root, reset_euid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* /proc parsing for the space check, hooks with timeouts, the lock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "check/lvm.h"
#include "cycle/module.h"
#include "lib/common.h"
#include "lib/lock.h"
#include "lib/strutil.h"
#include "lib/sysinfo.h"
#include "system/hooks.h"
#include "test_util.h"

static void test_swap_free(void **state)
{
	char *d = tmp_tree(), path[8800], dev[4200];
	uint64_t room = 0;

	(void)state;
	snprintf(dev, sizeof(dev), "%s/swapdev", d);
	put_file(d, "swapdev", "");
	snprintf(path, sizeof(path),
		 "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		 "/dev/other\tpartition\t100\t0\t-2\n"
		 "%s\tpartition\t524284\t1024\t-3\n", dev);
	put_file(d, "swaps", path);
	snprintf(path, sizeof(path), "%s/swaps", d);
	assert_int_equal(sys_swap_free(path, dev, &room), 0);
	assert_int_equal(room, (524284ULL - 1024) * 1024);
	assert_int_equal(sys_swap_free(path, "/dev/nosuch", &room), -ENOENT);
	assert_int_equal(sys_swap_free("/nonexistent/swaps", dev, &room),
			 -ENOENT);
	/* The kernel writes a blank in a path as \040. */
	put_file(d, "swaps2", "Filename\tType\tSize\tUsed\tPriority\n"
		 "/swap\\040dir/swap\\134file\tfile\t2048\t1024\t-2\n");
	snprintf(path, sizeof(path), "%s/swaps2", d);
	assert_int_equal(sys_swap_free(path, "/swap dir/swap\\file", &room),
			 0);
	assert_int_equal(room, 1024 * 1024);
	rm_tree(d);
}

static void test_unoctal(void **state)
{
	char s[] = "/mnt/a\\040b\\011c\\012d\\134e\\09x\\";
	char nul[] = "/a\\000b\\400c\\04";

	(void)state;
	str_unoctal(s);
	assert_string_equal(s, "/mnt/a b\tc\nd\\e\\09x\\");
	/* No early end at \000, nothing past a byte, no cut at the end. */
	str_unoctal(nul);
	assert_string_equal(nul, "/a\\000b\\400c\\04");
}

static void test_image_estimate(void **state)
{
	char *d = tmp_tree(), path[4200];
	uint64_t img = 0;

	(void)state;
	put_file(d, "meminfo", "MemTotal:       1000000 kB\n"
		 "MemFree:         100000 kB\n"
		 "MemAvailable:    600000 kB\n"
		 "Buffers:          10000 kB\n"
		 "Cached:          300000 kB\n");
	snprintf(path, sizeof(path), "%s/meminfo", d);
	assert_int_equal(sys_image_estimate(path, "lzo", 0, &img), 0);
	assert_int_equal(img, 400000ULL * 1024 / 2);
	assert_int_equal(sys_image_estimate(path, "none", 0, &img), 0);
	assert_int_equal(img, 400000ULL * 1024);
	assert_int_equal(sys_image_estimate(path, "none", 4096, &img), 0);
	assert_int_equal(img, 4096);
	/* Old kernels: no MemAvailable. */
	put_file(d, "meminfo", "MemTotal: 1000 kB\nMemFree: 100 kB\n"
		 "Buffers: 100 kB\nCached: 200 kB\n");
	assert_int_equal(sys_image_estimate(path, "none", 0, &img), 0);
	assert_int_equal(img, 600 * 1024);
	put_file(d, "meminfo", "garbage\n");
	assert_int_equal(sys_image_estimate(path, "none", 0, &img), -ENOENT);
	rm_tree(d);
}

static void test_resolve_target(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(sys_resolve_target("/dev/vda", out, sizeof(out)), 0);
	assert_string_equal(out, "/dev/vda");
	assert_int_equal(sys_resolve_target("UUID=00000000-dead-beef-0000-000000000000",
					    out, sizeof(out)), -ENOENT);
	assert_int_equal(sys_resolve_target("/dev/vda", out, 4),
			 -ENAMETOOLONG);
}

/* The VG/LV of the two paths udev gives a logical volume, nothing else. */
static void test_lvm_volume_name(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(lvm_volume_name("/dev/mapper/s2vg-swap_1", out,
					 sizeof(out)), 0);
	assert_string_equal(out, "s2vg/swap_1");
	assert_int_equal(lvm_volume_name("/dev/mapper/my--vg-swap--x", out,
					 sizeof(out)), 0);
	assert_string_equal(out, "my-vg/swap-x");
	assert_int_equal(lvm_volume_name("/dev/s2vg/swap_1", out,
					 sizeof(out)), 0);
	assert_string_equal(out, "s2vg/swap_1");
	/* Not a volume: a crypt mapping, plain disks, udev's directories. */
	assert_int_equal(lvm_volume_name("/dev/mapper/swapcrypt", out,
					 sizeof(out)), -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/mapper/only--dashes", out,
					 sizeof(out)), -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/mapper/-lv", out,
					 sizeof(out)), -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/mapper/vg-", out,
					 sizeof(out)), -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/vdb", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/disk/by-uuid", out,
					 sizeof(out)), -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/a/b/c", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(lvm_volume_name("/swapfile", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(lvm_volume_name("UUID=1234", out, sizeof(out)),
			 -EINVAL);
	/* Never an option to lvm. */
	assert_int_equal(lvm_volume_name("/dev/-vg/lv", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/mapper/---x-lv", out,
					 sizeof(out)), -EINVAL);
	/* A tag selects every volume carrying it: never. */
	assert_int_equal(lvm_volume_name("/dev/@tag/x", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/mapper/@t-x", out,
					 sizeof(out)), -EINVAL);
	/* A layer of a volume (a single '-' after the LV), a crypt map. */
	assert_int_equal(lvm_volume_name("/dev/mapper/vg-lv-real", out,
					 sizeof(out)), -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/mapper/luks-0a1b-22-33", out,
					 sizeof(out)), -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/vg/..", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/vg/a b", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/mapper/vg.1-lv+2_x", out,
					 sizeof(out)), 0);
	assert_string_equal(out, "vg.1/lv+2_x");
	/* Too long for OUT: refused, never cut. */
	assert_int_equal(lvm_volume_name("/dev/mapper/vg-swap", out, 7),
			 -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/vg/swap", out, 7), -EINVAL);
	assert_int_equal(lvm_volume_name("/dev/vg/swa", out, 7), 0);
}

/*
 * lvm_activate against an lvm of the test's own (first in PATH): the
 * arguments it gets, and each way it can fail, said in words.
 */
static void test_lvm_activate(void **state)
{
	char *d = tmp_tree(), path[4200], why[256], *args;
	const char *old = getenv("PATH");
	char oldpath[4096], newpath[8300];

	(void)state;
	snprintf(oldpath, sizeof(oldpath), "%s", old ? old : "/usr/bin:/bin");
	/* There already, or no volume: nothing to do, lvm not asked. */
	assert_int_equal(lvm_activate("/dev/null", false, why, sizeof(why)), 1);
	assert_int_equal(lvm_activate("/dev/nosuchdisk", false, why,
				      sizeof(why)), 1);

	snprintf(path, sizeof(path), "%s/lvm", d);
	put_file(d, "lvm", "#!/bin/sh\necho \"$@\" >> \"$(dirname \"$0\")/args\"\n"
		 "rc=$(cat \"$(dirname \"$0\")/rc\")\n"
		 "[ \"$rc\" != kill ] || kill -9 $$\nexit $rc\n");
	chmod(path, 0755);
	put_file(d, "rc", "0\n");
	snprintf(newpath, sizeof(newpath), "%s:%s", d, oldpath);
	setenv("PATH", newpath, 1);

	/* A dry run only asks whether the volume exists. */
	assert_int_equal(lvm_activate("/dev/mapper/s2vg-swap_1", true, why,
				      sizeof(why)), 0);
	args = get_file(d, "args");
	assert_non_null(args);
	assert_string_equal(args, "lvs --noheadings -o lv_name s2vg/swap_1\n");
	snprintf(path, sizeof(path), "%s/args", d);
	unlink(path);

	/* Activated, but the node never comes: said, after the wait. */
	assert_int_equal(lvm_activate("/dev/s2vg/swap_1", false, why,
				      sizeof(why)), -ENODEV);
	assert_non_null(strstr(why, "did not appear"));
	assert_null(strstr(why, "activated"));
	args = get_file(d, "args");
	assert_non_null(args);
	assert_string_equal(args, "lvchange -aay -y --sysinit s2vg/swap_1\n");

	/* lvm fails: its exit status. */
	put_file(d, "rc", "5\n");
	assert_int_equal(lvm_activate("/dev/mapper/s2vg-swap_1", false, why,
				      sizeof(why)), -EIO);
	assert_string_equal(why, "lvm lvchange s2vg/swap_1 failed with exit status 5 (its messages are above)");

	/* lvm killed: said as a signal, not an exit status. */
	put_file(d, "rc", "kill\n");
	assert_int_equal(lvm_activate("/dev/mapper/s2vg-swap_1", false, why,
				      sizeof(why)), -EIO);
	assert_string_equal(why, "lvm lvchange s2vg/swap_1 was killed by signal 9");

	/* No lvm at all (an initramfs without lvm2's hook). */
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(lvm_activate("/dev/mapper/s2vg-swap_1", false, why,
				      sizeof(why)), -ENOENT);
	assert_string_equal(why, "no lvm command here to activate s2vg/swap_1");
	setenv("PATH", oldpath, 1);
	rm_tree(d);
}

/* Linked with --wrap=poll: poll(2) fails with ENOMEM while this is set. */
static int poll_fails;
int __real_poll(struct pollfd *fds, nfds_t n, int timeout);
int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	if (poll_fails) {
		errno = ENOMEM;
		return -1;
	}
	return __real_poll(fds, n, timeout);
}

/* A failing poll(2) is no exit: the hook's timeout still holds. */
static void test_hook_poll_error(void **state)
{
	(void)state;
	poll_fails = 1;
	assert_int_equal(hook_run("sleep 30", 1, "pre", "x"), -ETIMEDOUT);
	assert_int_equal(hook_run("exit 4", 5, "pre", "x"), 4);
	poll_fails = 0;
}

static void test_hooks(void **state)
{
	struct conf_cmd cmds[3] = {
		{ "test \"$HIBERNATE_PHASE\" = pre", 1 },
		{ "test \"$HIBERNATE_PROFILE\" = prof", 2 },
		{ "exit 3", 3 },
	};
	struct timespec a, b;

	(void)state;
	assert_int_equal(hook_run("true", 5, "pre", "x"), 0);
	assert_int_equal(hook_run("exit 7", 5, "pre", "x"), 7);
	assert_int_equal(hook_run("kill -9 $$", 5, "pre", "x"), 128 + 9);
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(hook_run("sleep 30", 1, "pre", "x"), -ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_true(b.tv_sec - a.tv_sec < 5);
	assert_int_equal(hooks_run_all(cmds, 2, "pre_hibernate", "f", 5,
				       "prof", true), 0);
	assert_int_equal(hooks_run_all(cmds, 3, "pre_hibernate", "f", 5,
				       "prof", true), -ECANCELED);
	/* post hooks: the phase is "post", so the first fails, all run. */
	assert_int_equal(hooks_run_all(cmds, 2, "post_resume", "f", 5,
				       "prof", false), -ECANCELED);
}

static void test_lock(void **state)
{
	char *d = tmp_tree(), path[4200];
	int fd = -1, fd2 = -1;
	pid_t pid;
	int st;

	(void)state;
	snprintf(path, sizeof(path), "%s/lock", d);
	assert_int_equal(lock_probe(path), 0);
	assert_int_not_equal(access(path, F_OK), 0);	/* probe creates nothing */
	assert_int_equal(lock_take(path, &fd), 0);
	/* flock is per open file: another open in this process conflicts. */
	assert_int_equal(lock_take(path, &fd2), -EWOULDBLOCK);
	pid = fork();
	if (!pid)
		_exit(lock_probe(path) == -EWOULDBLOCK ? 0 : 1);
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	lock_release(fd);
	assert_int_equal(lock_probe(path), 0);
	assert_int_equal(lock_take(path, &fd2), 0);
	lock_release(fd2);
	assert_int_equal(lock_take("/nonexistent/dir/lock", &fd),
			 -ENOENT);
	rm_tree(d);
}

/* A block device node of this machine, or NULL (a container may have none). */
static const char *some_block_device(void)
{
	static char path[300];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir("/dev");

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		if (!stat(path, &st) && S_ISBLK(st.st_mode)) {
			closedir(d);
			return path;
		}
	}
	closedir(d);
	return NULL;
}

static void test_resume_checks(void **state)
{
	char *d = tmp_tree(), path[4200], text[4400], out[512];
	const char *blk = some_block_device();

	(void)state;
	put_file(d, "c1", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet\n");
	put_file(d, "c2", "root=/dev/sda1 noresume quiet\n");
	put_file(d, "c3", "root=/dev/sda1 suspend2.resume=no\n");
	put_file(d, "c4", "root=/dev/sda1 xnoresume suspend2.resume=yes\n");
	snprintf(path, sizeof(path), "%s/c1", d);
	assert_false(sys_cmdline_noresume(path));
	snprintf(path, sizeof(path), "%s/c2", d);
	assert_true(sys_cmdline_noresume(path));
	snprintf(path, sizeof(path), "%s/c3", d);
	assert_true(sys_cmdline_noresume(path));
	snprintf(path, sizeof(path), "%s/c4", d);
	assert_false(sys_cmdline_noresume(path));
	assert_false(sys_cmdline_noresume("/nonexistent/cmdline"));

	/* Only read-write mounts of block devices count. */
	snprintf(text, sizeof(text),
		 "proc /proc proc rw,nosuid 0 0\n"
		 "tmpfs /tmp tmpfs rw 0 0\n"
		 "%s /ro ext4 ro,relatime 0 0\n"
		 "%s /rwx ext4 rwx 0 0\n", blk ? blk : "/dev/nosuch",
		 blk ? blk : "/dev/nosuch");
	put_file(d, "m1", text);
	snprintf(path, sizeof(path), "%s/m1", d);
	assert_int_equal(sys_rw_block_mounts(path, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	if (blk) {
		snprintf(text, sizeof(text),
			 "tmpfs /tmp tmpfs rw 0 0\n%s /my\\040data ext4 rw,relatime 0 0\n",
			 blk);
		put_file(d, "m2", text);
		snprintf(path, sizeof(path), "%s/m2", d);
		assert_int_equal(sys_rw_block_mounts(path, out, sizeof(out)), 1);
		snprintf(text, sizeof(text), "%s on /my data", blk);
		assert_string_equal(out, text);
	}
	assert_int_equal(sys_rw_block_mounts("/nonexistent/mounts", out,
					     sizeof(out)), -ENOENT);
	rm_tree(d);
}

static void test_module_command(void **state)
{
	const char *argv[4];
	const char *tru[] = { "true", NULL }, *fal[] = { "false", NULL };
	const char *none[] = { "/nonexistent/program", NULL };

	(void)state;
	module_command("suspend2", argv, 4);
	assert_string_equal(argv[0], "modprobe");
	assert_string_equal(argv[1], "suspend2");
	/* Overrides suspend2.resume= of the kernel command line. */
	assert_string_equal(argv[2], "resume=");
	assert_null(argv[3]);
	module_command("/lib/modules/suspend2.ko", argv, 4);
	assert_string_equal(argv[0], "insmod");
	assert_string_equal(argv[2], "resume=");
	assert_int_equal(run_program(tru), 0);
	assert_int_equal(run_program(fal), 1);
	assert_int_equal(run_program(none), 127);
	assert_false(configfs_mounted("/tmp"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swap_free),
		cmocka_unit_test(test_unoctal),
		cmocka_unit_test(test_image_estimate),
		cmocka_unit_test(test_resolve_target),
		cmocka_unit_test(test_lvm_volume_name),
		cmocka_unit_test(test_lvm_activate),
		cmocka_unit_test(test_hooks),
		cmocka_unit_test(test_hook_poll_error),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_module_command),
		cmocka_unit_test(test_resume_checks),
	};

	hib_verbosity = -1;
	return cmocka_run_group_tests_name("sys", tests, NULL, NULL);
}

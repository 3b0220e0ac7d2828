// SPDX-License-Identifier: GPL-2.0
/*
 * The cycle: hibernate, test, resume and invalidate, in the order
 * kernel/power/user.c and hibernate() use the hibernation core, with every
 * phase timed and every failure unwound in reverse so the system keeps
 * running.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/freezer.h>
#include <linux/hibernation_core.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/reboot.h>
#include <linux/sched/loadavg.h>
#include <linux/security.h>
#include <linux/stop_machine.h>
#include <linux/swap.h>
#include <linux/suspend.h>
#include <linux/device.h>
#include <linux/vmstat.h>
#include "../crypt/crypt.h"
#include "../internal.h"
#include "../tpm/tpm.h"
#include "../writers/writer.h"
#include "freezer.h"
#include "image.h"
#include "pipeline.h"
#include "stale.h"
#include "sync.h"

/*
 * A new layout is a new magic: the boot kernel's module and the resumed
 * kernel's may be different builds (a DKMS upgrade not yet loaded).
 */
#define S2_BOOT_RECORD_MAGIC	0x53324234	/* "S2B4" */

/*
 * What the boot kernel leaves for the resumed one in the scratch area that
 * survives the atomic restore: the hibernating kernel's timings that came
 * with the image header, and the boot kernel's own.
 */
struct s2_boot_record {
	u32 magic;
	u32 verified;
	u64 image_pages;
	u64 snapshot_us;
	u64 write_us;
	u64 bytes_written;
	u64 read_us;
	u64 bytes_read;
	u64 write_cpu_wait_us;
	u64 write_io_wait_us;
	u64 read_cpu_wait_us;
	u64 read_io_wait_us;
	u64 write_crypt_us;
	u64 read_crypt_us;
	u64 read_feed_us;
	u64 read_prepare_us;
	u32 threads;
	u32 read_threads;
	u64 pipeline_bytes;
	s64 restore_start_ns;	/* wall clock */
};

/*
 * Held for the whole of one action (hibernate, test, resume, invalidate,
 * and resume= at module load): only one may freeze the system or touch an
 * image at a time.  s2_state is written only under it and read without it
 * (READ_ONCE), and held means busy (s2_busy()).
 */
static DEFINE_MUTEX(s2_cycle_mutex);
static enum s2_state s2_state;

#define S2_STATE_NAME(id, name)		#name,
const char * const s2_state_names[S2_NR_STATES] = {
	S2_STATES(S2_STATE_NAME)
};

enum s2_state s2_state_get(void)
{
	return READ_ONCE(s2_state);
}

bool s2_busy(void)
{
	return mutex_is_locked(&s2_cycle_mutex) && !s2_stale_retrying();
}

static void s2_set_state(enum s2_state state)
{
	WRITE_ONCE(s2_state, state);
}

static void s2_phase_done(enum s2_phase phase, ktime_t start)
{
	struct s2_results *r = s2_results_lock();

	r->time_us[phase] = ktime_us_delta(ktime_get(), start);
	s2_results_unlock();
}

static u64 s2_kbps(u64 bytes, u64 us)
{
	return us ? div64_u64(bytes * 1000000ULL, us * 1024ULL) : 0;
}

/*
 * A cycle that returns an error failed, unless it found nothing to do,
 * refused an image or was aborted (a key, the lid, power); every failure
 * says why in results, so one that got here without a reason on record
 * is named by its errno at least.
 */
static void s2_finish(enum s2_status status, int error)
{
	struct s2_results *r;

	if (error)
		s2_results_set_error(error, "the cycle failed in state %s",
				     s2_state_names[s2_state_get()]);
	r = s2_results_lock();
	if (r->error && status != S2_ST_NONE && status != S2_ST_REFUSED &&
	    status != S2_ST_ABORTED && status != S2_ST_LOCKED)
		status = S2_ST_FAILED;
	r->status = status;
	s2_results_unlock();
}

struct s2_avenrun {
	const unsigned long *saved;
	unsigned long thaw[3];
};

/*
 * calc_global_load() rewrites all of avenrun[] from its old values every
 * LOAD_FREQ, from the tick (hard interrupt, or idle exit with interrupts
 * off) on one CPU.  A plain copy racing with it could be half overwritten
 * by values computed from the inflated ones; stop_machine() runs this with
 * interrupts off on every CPU, so no CPU is inside calc_global_load().
 */
static int s2_avenrun_swap(void *data)
{
	struct s2_avenrun *a = data;
	int i;

	for (i = 0; i < 3; i++) {
		a->thaw[i] = READ_ONCE(avenrun[i]);
		WRITE_ONCE(avenrun[i], a->saved[i]);
	}
	return 0;
}

/* Restores the load average the cycle inflated: seed 001's sendmail fix. */
static void s2_avenrun_restore(const unsigned long saved[3])
{
	struct s2_avenrun a = { .saved = saved };
	struct s2_results *r;

	stop_machine(s2_avenrun_swap, &a, NULL);
	r = s2_results_lock();
	memcpy(r->avenrun_saved, saved, sizeof(r->avenrun_saved));
	memcpy(r->avenrun_thaw, a.thaw, sizeof(r->avenrun_thaw));
	memcpy(r->avenrun_restored, avenrun, sizeof(r->avenrun_restored));
	s2_results_unlock();
}

/* Hibernating with this profile gives an image lockdown can allow. */
static bool s2_profile_sealed(const struct s2_settings *set)
{
	return set->encryption != S2_ENC_NONE && s2_key_is_tpm(set);
}

/* What brought a power down back without powering down. */
static const char *s2_rolled_back_why(const struct s2_settings *set)
{
	if (set->powerdown == S2_PD_SUSPEND)
		return "a wakeup event or a busy device stopped the suspend to RAM, rolled back";
	return "wakeup event during power down, rolled back";
}

/* The image on disk is consistent with the frozen system: keep it so. */
static void __noreturn s2_power_off_now(void)
{
	kernel_power_off();
	pr_crit("power down failed: power down manually\n");
	for (;;)
		cpu_relax();
}

/*
 * An image this cycle wrote, or may have written (an anchor write that
 * failed can still have reached the medium), must not outlive the cycle:
 * the system is about to thaw and move its filesystems on.  A device that
 * fails now may be back a moment later (a path failover, a bus reset), so
 * the anchor is tried a few times, tasks still frozen.  If it cannot be
 * cleared the image may be whole on the target, and the system powers off
 * rather than thaw over it: the next boot resumes from it if it is.
 * @rewrite: the anchor write failed, and may still land (a lost reply):
 * the page is written even when it reads back without an anchor, so that
 * the last write to it is the cleared one (s2_image_invalidate()).
 * Returns how many tries failed before one succeeded.
 */
#define S2_DISCARD_TRIES	5
#define S2_DISCARD_WAIT_MS	1000

static noinline_for_stack unsigned int
s2_discard_image(struct s2_writer *w, const char *what, bool rewrite)
{
	unsigned int failed;
	int error;

	for (failed = 0; failed < S2_DISCARD_TRIES; failed++) {
		if (failed)
			msleep(S2_DISCARD_WAIT_MS);
		error = s2_image_invalidate(w, rewrite);
		if (!error)
			return failed;
		pr_err("cannot clear the anchor of %s (%pe), try %u of %u\n",
		       what, ERR_PTR(error), failed + 1, S2_DISCARD_TRIES);
	}
	pr_crit("cannot clear the anchor of %s (%pe): it may be restorable, so the system must not run on over it: powering off, the next boot resumes from it if it is whole\n",
		what, ERR_PTR(error));
	s2_power_off_now();
}

/*
 * An image this cycle wrote, with tasks still frozen, that nothing may
 * restore once they run again: back from a power down that did not
 * happen (a wakeup event), from RAM after a suspend to both, or the test
 * action's, read back.  When its key was sealed to the TPM (@crypt's
 * counter) the image counter moves past it first: from then on the image
 * is refused whatever its anchor says (root can put an anchor back, see
 * s2img rearm), so the anchor is cleared best effort and the system
 * thaws.  If the counter cannot move (a TPM that came back from RAM
 * uninitialised, or gone), the anchor is left alone and the machine
 * powers off, and the next boot resumes from the image: clearing the
 * anchor first would lose the session in RAM with it, and thawing over
 * an image whose key still opens would let root restore it later over
 * what the system did since.  Without a sealed key the anchor is all
 * there is (s2_discard_image()).  Returns how many tries of the anchor
 * failed, S2_DISCARD_TRIES when none succeeded.
 */
static noinline_for_stack unsigned int
s2_retire_image(struct s2_writer *w, const struct s2_crypt *crypt,
		const char *what)
{
	const char *why = "";
	unsigned int failed;
	int error;

	if (!crypt || !crypt->tpm_counter)
		return s2_discard_image(w, what, false);
	error = s2_tpm_counter_retire(crypt->tpm_counter, &why);
	if (error) {
		pr_crit("cannot retire %s (%pe: %s): powering off, the next boot resumes from it\n",
			what, ERR_PTR(error), why);
		s2_power_off_now();
	}
	for (failed = 0; failed < S2_DISCARD_TRIES; failed++) {
		if (failed)
			msleep(S2_DISCARD_WAIT_MS);
		error = s2_image_invalidate(w, false);
		if (!error)
			return failed;
	}
	pr_warn("%s is retired by the TPM counter, but its anchor could not be cleared (%pe): a boot will refuse it\n",
		what, ERR_PTR(error));
	return failed;
}

/*
 * A write that failed after the key was sealed can still have left a
 * whole image (its header written, the anchor's write failed or never
 * sent): root could point an anchor at it.  Its key is retired, best
 * effort, once the anchor is gone: the system thaws either way, as it
 * did before, rather than power off over a write that failed.
 */
static void s2_retire_unwritten(const struct s2_crypt *crypt)
{
	const char *why = "";
	int error;

	if (!crypt || !crypt->tpm_counter)
		return;
	error = s2_tpm_counter_retire(crypt->tpm_counter, &why);
	if (error)
		pr_warn("cannot retire the key of the image whose write failed (%pe: %s): with an anchor put back, what it wrote could be restored\n",
			ERR_PTR(error), why);
}

/*
 * Suspend to both: the image stays valid while the system sleeps in RAM,
 * so that a power loss there resumes from disk at the next boot.  Returns
 * 0 once the system woke from RAM, or -EBUSY if a wakeup event stopped
 * the suspend (the caller invalidates the image either way, before
 * anything thaws); another error means the system could not suspend.
 */
static noinline_for_stack int s2_suspend_to_ram(void)
{
	ktime_t mono = ktime_get(), boot = ktime_get_boottime();
	s64 awake_us, asleep_us;
	struct s2_results *r;
	u64 asleep_ms;
	int error;

#if S2_SUSPEND_TO_RAM
	error = hibernation_suspend_to_ram();
#else
	error = -EOPNOTSUPP;	/* configfs refuses the profile before this */
#endif
	/* CLOCK_MONOTONIC stops while the system sleeps; boot time does not. */
	awake_us = ktime_us_delta(ktime_get(), mono);
	asleep_us = ktime_us_delta(ktime_get_boottime(), boot) - awake_us;
	asleep_ms = div_u64(max_t(s64, asleep_us, 0), USEC_PER_MSEC);
	r = s2_results_lock();
	r->time_us[S2_PH_RAM] = awake_us;
	r->ram_sleep_ms = asleep_ms;
	s2_results_unlock();
	if (!error)
		pr_info("woken from RAM after %llu ms asleep: invalidating the image\n",
			asleep_ms);
	return error;
}

/*
 * Returns only if the platform reported a wakeup event (an error), or with
 * 0 after a suspend to both woke from RAM.
 */
static int s2_power_down(const struct s2_settings *set)
{
	int error;

	s2_set_state(S2_POWERDOWN);
	switch (set->powerdown) {
	case S2_PD_REBOOT:
		kernel_restart(NULL);
		break;
	case S2_PD_SUSPEND:
		/*
		 * -EBUSY is also a driver that would not suspend; like a
		 * wakeup event it leaves the machine running as it was.
		 */
		error = s2_suspend_to_ram();
		if (!error || error == -EBUSY || error == -EAGAIN)
			return error;
		pr_warn("suspend to RAM failed (%pe), powering off\n",
			ERR_PTR(error));
		break;
	case S2_PD_PLATFORM:
		error = hibernation_platform_enter();
		if (error == -EAGAIN || error == -EBUSY)
			return error;
		pr_warn("platform power down failed (%pe), powering off\n",
			ERR_PTR(error));
		fallthrough;
	case S2_PD_SHUTDOWN:
	default:
		break;
	}
	s2_power_off_now();
}

/* The events the profile lets abort the image write. */
static unsigned int s2_abort_events(const struct s2_settings *set)
{
	return (set->abort_key ? S2_ABORT_KEY : 0) |
	       (set->abort_lid ? S2_ABORT_LID : 0) |
	       (set->abort_ac ? S2_ABORT_AC : 0);
}

/* results/aborted_by: the S2_ABORT_* @event, in a word; 0 is none. */
static void s2_record_aborted_by(unsigned int event)
{
	struct s2_results *r = s2_results_lock();
	const char *word = event == S2_ABORT_KEY ? "key" :
			   event == S2_ABORT_LID ? "lid" :
			   event == S2_ABORT_AC ? "ac" : "";

	strscpy(r->aborted_by, word, sizeof(r->aborted_by));
	s2_results_unlock();
}

/* Back from RAM or disk: offline since the atomic copy, and from where. */
static void s2_record_back(s64 snapshot_real_ns, const char *woke_from)
{
	s64 now = ktime_get_real_ns();
	struct s2_results *r = s2_results_lock();

	r->offline_ms = div_u64(max_t(s64, now - snapshot_real_ns, 0),
				NSEC_PER_MSEC);
	strscpy(r->woke_from, woke_from, sizeof(r->woke_from));
	s2_results_unlock();
}

/* In the resumed kernel: what the boot kernel measured, into results. */
static void s2_collect_boot_record(s64 snapshot_real_ns,
				   const struct s2_freezer *fz)
{
	struct s2_boot_record *rec = (void *)hibernation_loader_scratch;
	s64 now = ktime_get_real_ns();
	struct s2_results *r;

	s2_record_back(snapshot_real_ns, "disk");
	r = s2_results_lock();
	/* Recorded by the freezer before the atomic copy, so it is here. */
	r->time_us[S2_PH_FREEZE_KERNEL] = fz->kernel_freeze_us;
	if (rec->magic == S2_BOOT_RECORD_MAGIC) {
		r->image_pages = rec->image_pages;
		r->bytes_raw = rec->image_pages * PAGE_SIZE;
		r->bytes_written = rec->bytes_written;
		r->time_us[S2_PH_SNAPSHOT] = rec->snapshot_us;
		r->time_us[S2_PH_WRITE] = rec->write_us;
		r->time_us[S2_PH_READ] = rec->read_us;
		r->time_us[S2_PH_RESTORE] =
			div_u64(max_t(s64, now - rec->restore_start_ns, 0),
				NSEC_PER_USEC);
		r->write_kbps = s2_kbps(r->bytes_raw, rec->write_us);
		r->read_kbps = s2_kbps(r->bytes_raw, rec->read_us);
		r->verified = rec->verified;
		r->threads = rec->threads;
		r->pipeline_bytes = rec->pipeline_bytes;
		r->write_cpu_wait_us = rec->write_cpu_wait_us;
		r->write_io_wait_us = rec->write_io_wait_us;
		r->read_cpu_wait_us = rec->read_cpu_wait_us;
		r->read_io_wait_us = rec->read_io_wait_us;
		r->write_crypt_us = rec->write_crypt_us;
		r->read_crypt_us = rec->read_crypt_us;
		r->read_feed_us = rec->read_feed_us;
		r->read_prepare_us = rec->read_prepare_us;
	} else {
		pr_warn("resumed without the boot kernel's record\n");
	}
	s2_results_unlock();
	memset(rec, 0, sizeof(*rec));
}

/* Checksums or an AEAD's tags: either checks every chunk read back. */
static bool s2_image_verified(const struct s2_image_header *h)
{
	return le32_to_cpu(h->checksum) == S2_CHECKSUM_CRC32C ||
	       s2_header_encrypted(h);
}

/*
 * The test action's second half: read the image back and check it all,
 * with the key the write made (@crypt), not one from the keyring.
 */
static int s2_verify_image(struct s2_writer *w, const struct s2_settings *set,
			   struct s2_crypt *crypt)
{
	struct s2_read_stats st = {};
	struct s2_image img;
	struct s2_results *r;
	bool checksummed = false;
	const char *why;
	int error;

	s2_set_state(S2_VERIFYING);
	error = s2_image_find(w, &img, set, crypt, &why);
	if (!error) {
		checksummed = s2_image_verified(&img.header);
		error = s2_image_check_seal(&img, crypt, &why);
		if (!error)
			error = s2_image_load(w, &img, set, crypt, false, &st,
					      &why);
		s2_image_put(&img);
	}
	if (error) {
		s2_results_set_error(error, "read-back failed: %s", why);
		return error;
	}
	r = s2_results_lock();
	r->time_us[S2_PH_READ] = st.read_us;
	r->read_kbps = s2_kbps(r->bytes_raw, st.read_us);
	r->read_cpu_wait_us = st.decompress_wait_us;
	r->read_io_wait_us = st.io_wait_us;
	r->read_crypt_us = st.crypt_us;
	/* Without checksums or tags the data was read back, unverified. */
	r->verified = checksummed;
	s2_results_unlock();
	return 0;
}

static void s2_record_write(const struct s2_write_stats *st,
			    const struct s2_freezer *fz, u64 snapshot_us)
{
	struct s2_results *r = s2_results_lock();

	r->time_us[S2_PH_FREEZE_KERNEL] = fz->kernel_freeze_us;
	r->time_us[S2_PH_SNAPSHOT] = snapshot_us;
	r->time_us[S2_PH_WRITE] = st->write_us;
	r->image_pages = st->image_pages;
	r->bytes_raw = st->image_pages * PAGE_SIZE;
	r->bytes_written = st->bytes_written;
	r->write_kbps = s2_kbps(r->bytes_raw, st->write_us);
	r->threads = st->threads;
	r->pipeline_bytes = st->pipeline_bytes;
	r->write_cpu_wait_us = st->compress_wait_us;
	r->write_io_wait_us = st->io_wait_us;
	r->write_crypt_us = st->crypt_us;
	s2_results_unlock();
}

/*
 * Before freezing: can the target hold the image?  The snapshot holds at
 * least the memory in use that hibernation cannot drop (RAM less free
 * pages, less page cache that is not shmem), which compresses to about
 * half with any compressor (to all of it with none); chunk headers, the
 * index and the header come on top.  This is a lower bound on purpose, so
 * a target that could hold the image is never refused; when the image
 * turns out bigger than the space, writing stops with ENOSPC and the cycle
 * unwinds (pages given back, thaw).
 */
static u64 s2_image_need(const struct s2_settings *set, u64 *used)
{
	unsigned long total = totalram_pages();
	unsigned long free = global_zone_page_state(NR_FREE_PAGES);
	unsigned long file = global_node_page_state(NR_FILE_PAGES);
	unsigned long shmem = global_node_page_state(NR_SHMEM);
	u64 need;

	*used = total - min(total, free + (file > shmem ? file - shmem : 0));
	need = strcmp(set->compressor, "none") ?
	       *used / S2_COMPRESSED_DIVISOR : *used;
	need += DIV_ROUND_UP(s2_max_chunks_for(*used) *
			     sizeof(struct s2_chunk_header), PAGE_SIZE);
	return need + s2_index_pages_for(need) + 1;
}

static int s2_space_check(struct s2_writer *w, const struct s2_settings *set)
{
	u64 used, need = s2_image_need(set, &used);
	u64 avail = w->ops->free_bytes(w) >> PAGE_SHIFT;

	if (need <= avail)
		return 0;
	s2_results_set_error(-ENOSPC, "image needs about %llu KiB, %s has %llu KiB free",
			     need << (PAGE_SHIFT - 10), set->target,
			     avail << (PAGE_SHIFT - 10));
	return -ENOSPC;
}

/*
 * The most pages an image may keep and still leave the write the memory
 * it allocates after the copy (s2_write_reserve_bytes(): its pipeline,
 * the compressors' and AEADs' workspaces; and its block index, with the
 * arrays that list it).  The copy takes a free page for each page it
 * keeps, so keeping S pages leaves about all of RAM less 2S free; the
 * snapshot code alone would go up to half of memory, leaving only its own
 * few MiB for I/O.
 */
static u64 s2_image_pages_leaving_room(const struct s2_settings *set)
{
	unsigned int threads = s2_pipeline_threads(set->compress_threads);
	u64 total = totalram_pages();
	u64 index = s2_index_pages_for(total) + 1;
	u64 room;

	room = s2_write_reserve_bytes(threads, set->io_depth, set->compressor,
				      set->encryption) >> PAGE_SHIFT;
	room += index + DIV_ROUND_UP(index * 2 * sizeof(u64), PAGE_SIZE);
	return (total - min(total, room)) / 2;
}

/*
 * The image_size the snapshot code aims at in this cycle, in bytes: the
 * profile's (by default, as much as fits), capped at what the target
 * holds with nothing compressed (the index and the chunk headers for that
 * many pages included), so that the page cache it keeps never makes the
 * image too big for the target.  The cap never goes below the memory that
 * is not page cache: RAM in use less page cache (as the space check
 * counts it) plus the pages the kernel reserved at boot (its image, the
 * memory map), which are saved too.  Below that the snapshot code would
 * swap processes out, onto the very swap the image may be written to;
 * only the profile's own value asks for that (0: the smallest image).
 * Then image_size_limit, so that the snapshot shrinks to it rather than
 * the write failing with EFBIG; the room the write needs after the copy
 * (s2_image_pages_leaving_room(), under half of RAM); and pages whose
 * bytes an unsigned long holds (32-bit with more than 4 GiB), since
 * hibernate_preallocate_memory() rounds the value up to pages and would
 * wrap near ULONG_MAX.  The snapshot code keeps the image under
 * about half of memory.
 */
static unsigned long s2_image_size_for(struct s2_writer *w,
				       const struct s2_settings *set)
{
	u64 avail = w->ops->free_bytes(w) >> PAGE_SHIFT;
	u64 overhead = DIV_ROUND_UP(s2_max_chunks_for(avail) *
				    sizeof(struct s2_chunk_header), PAGE_SIZE) +
		       s2_index_pages_for(avail) + 1;
	u64 used, size = div_u64(set->image_size, PAGE_SIZE);
	u64 fit = avail - min(avail, overhead);

	s2_image_need(set, &used);
	used += get_num_physpages() - min(get_num_physpages(), totalram_pages());
	size = min(size, max(fit, used));
	if (set->image_size_limit)
		size = min(size, div_u64(set->image_size_limit, PAGE_SIZE));
	size = min(size, s2_image_pages_leaving_room(set));
	size = min_t(u64, size, ULONG_MAX >> PAGE_SHIFT);
	pr_info("image_size for this cycle: %llu MiB (profile %llu, target room %llu MiB, not page cache %llu MiB)\n",
		size >> (20 - PAGE_SHIFT), set->image_size,
		fit >> (20 - PAGE_SHIFT), used >> (20 - PAGE_SHIFT));
	return (unsigned long)size << PAGE_SHIFT;
}

/*
 * The atomic copy, with image_size set for it and the user's value put
 * back after, on both ways out: a failed copy, and the resumed kernel,
 * whose copy of @saved is the one taken with the image.
 */
static noinline_for_stack int s2_snapshot(struct s2_writer *w,
					  const struct s2_settings *set,
					  int platform)
{
	unsigned long saved = image_size;
	int error;

	image_size = s2_image_size_for(w, set);
	error = hibernation_snapshot(platform);
	image_size = saved;
	return error;
}

/*
 * Mainline refuses both hibernation and resume when the kernel is locked
 * down (an image is unsigned kernel memory), or booted with nohibernate,
 * or while memory that must never reach a disk (secretmem) is in use; so
 * do we, saying which.  security_locked_down() also logs the lockdown
 * LSM's own "hibernation is restricted" line, as it does for mainline.
 *
 * The exception is an image whose key is sealed to the TPM (@sealed):
 * only this kernel, booted the same way, can have written it, and every
 * byte of it is authenticated with that key, so lockdown's reason for
 * refusing does not hold (docs/tpm-lockdown.md).
 */
static int s2_check_allowed(const char *what, bool sealed)
{
	int error = sealed ? 0 : security_locked_down(LOCKDOWN_HIBERNATION);

	if (error) {
		s2_results_set_error(error,
				     "%s is restricted by kernel lockdown except with key tpm and encryption; see kernel_lockdown(7)",
				     what);
		return error;
	}
	if (!hibernation_available_unless_locked_down()) {
		s2_results_set_error(-EPERM,
				     "%s is not available (nohibernate, or secret memory in use)",
				     what);
		return -EPERM;
	}
	return 0;
}

/*
 * The level of /sys/power/pm_test, which hibernation_snapshot() obeys
 * without telling its caller: from the kernel's own state (patch 0012),
 * not through sysfs, which the caller's mount namespace may hide or
 * replace.  Read under lock_system_sleep(), which pm_test_store() takes,
 * so it cannot change before the snapshot.
 */
static void s2_pm_test_level(char *level, size_t size)
{
	strscpy(level, pm_test_level_name(), size);
}

/* A pm_test run is a test that passed: results say where it stopped. */
static void s2_pm_test_done(const char *level)
{
	pr_info("pm_test %s: stopped there, no image written\n",
		level);
	s2_results_note("pm_test %s: stopped at this /sys/power/pm_test level, no image written",
			level);
}

/*
 * pm_test "freezer" is what hibernation_snapshot() would do, done here:
 * there it also sets freezer_test_done, which only hibernate() and the
 * snapshot device clear, and which, left set, makes mainline's next
 * hibernation skip writing its image.  Freeze the kernel threads too, wait
 * as the kernel's test levels do, thaw them.
 */
static int s2_pm_test_freezer(struct s2_freezer *fz)
{
	int error = freeze_kernel_threads();

	if (error) {
		s2_freezer_snapshot_failed(fz, error);
		s2_results_set_error(error, "kernel threads refused to freeze");
		return error;
	}
	pr_info("pm_test freezer: waiting for 5 seconds\n");
	ssleep(5);
	thaw_kernel_threads();
	s2_pm_test_done("freezer");
	return 0;
}

/*
 * The swap area was looked up before the freeze; swapoff could have run
 * since, as kernel/power/swap.c fears too (swsusp_write() looks it up
 * again after the snapshot).  Writing into slots of an area that is gone,
 * or is another one now, would corrupt it.
 */
static int s2_swap_recheck(struct s2_writer *w)
{
	if (!s2_writer_gone(w))
		return 0;
	s2_results_set_error(-ENODEV, "the swap area on %pg went away before the image was written",
			     w->bdev);
	return -ENODEV;
}

/* hibernation_snapshot() returned here with no image: resumed, or not? */
static bool s2_boot_record_found(void)
{
	const struct s2_boot_record *rec = (void *)hibernation_loader_scratch;

	return rec->magic == S2_BOOT_RECORD_MAGIC;
}

/* Wall clock minus monotonic clock: it moves on only across a power off. */
static s64 s2_offline_clock(void)
{
	return ktime_get_real_ns() - ktime_get_ns();
}

/*
 * Without the boot kernel's record: did this kernel come back from a real
 * restore (the record could not be written) or did create_image() give up?
 * After a restore the clocks were set again from the RTC, and the wall
 * clock moved on by the seconds the machine was off and booting while the
 * monotonic clock did not; an aborted copy suspends timekeeping for
 * milliseconds at most.
 */
static bool s2_came_back_from_off(s64 offline_clock_before)
{
	return s2_offline_clock() - offline_clock_before > NSEC_PER_SEC;
}

/*
 * Before anything is frozen: an encrypted image needs its owner key,
 * which hibernate(8) put in the keyring of the process that started the
 * cycle, and its AEAD, which the crypto API can still load now.  @crypt
 * and @owner are allocated either way; @crypt is in the snapshot with no
 * key in it (the key is made after the atomic copy), @owner with the
 * owner key, which is no more exposed there than in the keyring.
 */
static int s2_hibernate_keys(const struct s2_settings *set,
			     struct s2_crypt **crypt,
			     struct s2_owner_key **owner)
{
	char why[S2_WHY_MAX];
	int error;

	*crypt = kzalloc(sizeof(**crypt), GFP_KERNEL);
	*owner = kzalloc(sizeof(**owner), GFP_KERNEL);
	if (!*crypt || !*owner) {
		s2_results_set_error(-ENOMEM, "no memory for the image key");
		return -ENOMEM;
	}
	if (set->encryption == S2_ENC_NONE)
		return 0;
	if (!s2_aead_available(set->encryption)) {
		s2_results_set_error(-ENOPKG, "cannot encrypt the image: %s is not available",
				     s2_encryption_names[set->encryption]);
		return -ENOPKG;
	}
	if (s2_key_is_tpm(set)) {
		const char *no_tpm;

		if (s2_tpm_usable(&no_tpm))
			return 0;
		s2_results_set_error(-ENODEV, "cannot seal the image key: %s",
				     no_tpm);
		return -ENODEV;
	}
	error = s2_crypt_get_owner_key(set->key, *owner, why, sizeof(why));
	if (error)
		s2_results_set_error(error, "cannot encrypt the image: %s", why);
	return error;
}

static void s2_crypt_put(struct s2_crypt *crypt)
{
	if (!crypt)
		return;
	s2_crypt_wipe(crypt);
	kfree(crypt);
}

/*
 * The test action reads its image back and then discards it.  A discard
 * that needed more than one try means the device failed under the test:
 * the cycle failed, even though no image is left.
 */
static noinline_for_stack int
s2_test_verify_and_discard(struct s2_writer *w, const struct s2_settings *set,
			   struct s2_crypt *crypt)
{
	int error = s2_verify_image(w, set, crypt);
	unsigned int failed = s2_retire_image(w, crypt, "the test image");

	if (failed && !error) {
		error = -EIO;
		if (failed < S2_DISCARD_TRIES)
			s2_results_set_error(error,
					     "the test image's anchor could be cleared only at try %u: the target failed writes",
					     failed + 1);
		else
			s2_results_set_error(error,
					     "the test image's anchor cannot be cleared; its key is retired on the TPM, no boot restores it");
	}
	return error;
}

static int s2_hibernate(const struct s2_settings *set, bool test)
{
	struct s2_owner_key *owner = NULL;
	struct s2_crypt *crypt = NULL;
	int platform = set->powerdown == S2_PD_PLATFORM;
	struct s2_write_stats wst = {};
	struct s2_image_times times;
	unsigned long saved_avenrun[3];
	unsigned int sleep_flags;
	struct s2_freezer fz;
	char why[S2_WHY_MAX] = "";
	struct s2_writer w;
	s64 snapshot_real_ns;
	s64 offline_clock;
	ktime_t sync_time;
	char pm_test[16];
	bool resumed = false, aborted = false;
	unsigned int by;
	ktime_t start;
	int error;

	error = s2_check_allowed("hibernation", s2_profile_sealed(set));
	if (!error)
		error = s2_hibernate_keys(set, &crypt, &owner);
	if (error) {
		s2_crypt_put(crypt);
		kfree_sensitive(owner);
		s2_finish(S2_ST_FAILED, error);
		return error;
	}
	memcpy(saved_avenrun, avenrun, sizeof(saved_avenrun));

	error = s2_writer_open(&w, set, true);
	if (error) {
		s2_results_set_error(error, "cannot use %s as %s target",
				     set->target, set->writer);
		goto out_avenrun;
	}
	error = s2_space_check(&w, set);
	if (error) {
		s2_writer_close(&w);
		goto out_avenrun;
	}

	sleep_flags = lock_system_sleep();
	if (!hibernate_acquire()) {
		error = -EBUSY;
		s2_results_set_error(error, "another hibernation is in progress");
		goto out_unlock;
	}
	error = pm_notifier_call_chain_robust(PM_HIBERNATION_PREPARE,
					      PM_POST_HIBERNATION);
	if (error) {
		s2_results_set_error(error, "a driver refused to prepare for hibernation");
		goto out_release;
	}

	/*
	 * Sync before the freeze too, as mainline does: what is dirty now is
	 * written while every task runs, the servers of FUSE mounts and NBD
	 * disks included, so the sync after the freeze has only what was
	 * written in between left, and seldom anything that waits on a
	 * frozen server (see core/sync.c).
	 */
	s2_set_state(S2_SYNCING);
	start = ktime_get();
	ksys_sync_helper();
	sync_time = ktime_sub(ktime_get(), start);

	s2_set_state(S2_FREEZING);
	start = ktime_get();
	error = s2_freeze_user(&fz, set->freezer_timeout_ms);
	s2_phase_done(S2_PH_FREEZE_USER, start);
	if (error)
		goto out_notify;

	/*
	 * After the freeze: nothing written before it can be lost now.  It
	 * fails rather than wait forever on a frozen server; the thaw below
	 * then lets it finish.  The sync phase's time counts both syncs.
	 */
	s2_set_state(S2_SYNCING);
	start = ktime_get();
	error = s2_sync_after_freeze();
	s2_phase_done(S2_PH_SYNC, ktime_sub(start, sync_time));

	lock_device_hotplug();
	if (error)
		goto out_thaw;
	error = create_basic_memory_bitmaps();
	if (error) {
		s2_results_set_error(error, "no memory for the snapshot bitmaps");
		goto out_thaw;
	}

	s2_set_state(S2_SNAPSHOT);
	start = ktime_get();
	snapshot_real_ns = ktime_get_real_ns();
	offline_clock = s2_offline_clock();
	times.created_sec = div_u64(snapshot_real_ns, NSEC_PER_SEC);
	/* The image carries the scratch area: no record from an earlier boot. */
	memset(hibernation_loader_scratch, 0, HIBERNATION_LOADER_SCRATCH_SIZE);
	s2_pm_test_level(pm_test, sizeof(pm_test));
	if (!strcmp(pm_test, "freezer")) {
		error = s2_pm_test_freezer(&fz);
		goto out_bitmaps;
	}
	/*
	 * Left set by a copy that failed late, in_suspend would make a
	 * wakeup-aborted snapshot (0, no image) look like one to write.
	 */
	in_suspend = 0;
	error = s2_snapshot(&w, set, platform);
	if (error) {
		s2_freezer_snapshot_failed(&fz, error);
		s2_results_set_error(error, "atomic copy failed");
		goto out_bitmaps;
	}

	if (in_suspend) {
		times.snapshot_us = ktime_us_delta(ktime_get(), start);
		times.snapshot_us -= min(times.snapshot_us, fz.kernel_freeze_us);
		s2_set_state(S2_WRITING);
		error = s2_swap_recheck(&w);
		s2_abort_arm(s2_abort_events(set));
		if (!error)
			error = s2_image_write(&w, set, crypt, owner, &times,
					       &wst, why);
		by = s2_abort_disarm();
		aborted = error == -ECANCELED;
		/* An event, then an I/O error first: the cycle failed. */
		s2_record_aborted_by(aborted ? by : 0);
		if (why[0])
			s2_results_set_error(error, "%s", why);
		/*
		 * The anchor first: if it cannot be cleared the machine
		 * powers off, and the image, if whole, must still open.
		 */
		if (error && wst.anchor_sent)
			s2_discard_image(&w, "the image whose write failed",
					 true);
		if (error)
			s2_retire_unwritten(crypt);
		swsusp_free();
		s2_record_write(&wst, &fz, times.snapshot_us);
		if (!error && !test) {
			error = s2_power_down(set);
			if (error)
				s2_results_set_error(error, "%s",
						     s2_rolled_back_why(set));
			s2_retire_image(&w, crypt, "the image written");
			/* Only a suspend to both comes back without an error. */
			resumed = !error;
			if (resumed)
				s2_record_back(snapshot_real_ns, "ram");
		}
		if (!error && test)
			error = s2_test_verify_and_discard(&w, set, crypt);
		w.ops->free_pages(&w);
		in_suspend = 0;
		pm_restore_gfp_mask();
	} else if (s2_boot_record_found()) {
		resumed = true;
		s2_tpm_restored();
		s2_collect_boot_record(snapshot_real_ns, &fz);
		pr_info("resumed\n");
	} else if (strcmp(pm_test, "none")) {
		/*
		 * A pm_test level stopped the snapshot on purpose, and
		 * hibernation_snapshot() gave back the image memory and the
		 * gfp mask, as it does after a resume.
		 */
		s2_pm_test_done(pm_test);
	} else if (s2_came_back_from_off(offline_clock)) {
		/* Resumed, but the boot kernel could not leave its record. */
		resumed = true;
		s2_tpm_restored();
		s2_collect_boot_record(snapshot_real_ns, &fz);
		pr_info("resumed\n");
	} else {
		/*
		 * No image and no record of a restore: create_image() gave up
		 * (or a restore left no trace: the TPM may have been reset).
		 */
		s2_tpm_restored();
		error = -EAGAIN;
		s2_results_set_error(error,
				     "a wakeup event aborted the atomic copy, no image written");
	}

out_bitmaps:
	free_basic_memory_bitmaps();
out_thaw:
	unlock_device_hotplug();
	s2_set_state(S2_THAWING);
	start = ktime_get();
	thaw_processes();
	s2_phase_done(S2_PH_THAW, start);
out_notify:
	s2_freezer_done(&fz);
	pm_notifier_call_chain(PM_POST_HIBERNATION);
out_release:
	hibernate_release();
out_unlock:
	unlock_system_sleep(sleep_flags);
	s2_writer_close(&w);
out_avenrun:
	s2_crypt_put(crypt);
	kfree_sensitive(owner);
	s2_avenrun_restore(saved_avenrun);
	s2_finish(resumed ? S2_ST_RESUMED :
		  aborted ? S2_ST_ABORTED : S2_ST_TESTED, error);
	return error;
}

/*
 * Into the loaded image's copy of the scratch area, which the restore puts
 * in place: under KASLR this kernel's own copy is elsewhere.
 */
static void s2_leave_boot_record(const struct s2_image *img,
				 const struct s2_read_stats *st,
				 const struct s2_settings *set)
{
	const struct s2_image_header *h = &img->header;
	struct s2_boot_record rec = {};
	int error;

	BUILD_BUG_ON(sizeof(rec) > HIBERNATION_LOADER_SCRATCH_SIZE);
	rec.magic = S2_BOOT_RECORD_MAGIC;
	rec.verified = s2_image_verified(h);
	rec.image_pages = le64_to_cpu(h->image_pages);
	rec.snapshot_us = le64_to_cpu(h->snapshot_us);
	rec.write_us = le64_to_cpu(h->write_us);
	rec.bytes_written = st->bytes_read;
	rec.read_us = st->read_us;
	rec.bytes_read = st->bytes_read;
	rec.write_cpu_wait_us = le64_to_cpu(h->write_cpu_wait_us);
	rec.write_io_wait_us = le64_to_cpu(h->write_io_wait_us);
	rec.read_cpu_wait_us = st->decompress_wait_us;
	rec.read_io_wait_us = st->io_wait_us;
	rec.write_crypt_us = le32_to_cpu(h->write_crypt_us);
	rec.read_crypt_us = st->crypt_us;
	rec.read_feed_us = st->feed_us;
	rec.read_prepare_us = st->prepare_us;
	rec.threads = le32_to_cpu(h->threads);
	rec.pipeline_bytes = max(st->pipeline_bytes,
				 s2_pipeline_bytes_for(rec.threads,
						       set->io_depth));
	rec.restore_start_ns = ktime_get_real_ns();
	error = snapshot_write_loader_scratch(&rec, sizeof(rec));
	if (error)
		pr_warn("cannot leave the read timings for the resumed kernel (%pe)\n",
			ERR_PTR(error));
}

/*
 * s2_tpm_counter_retire_all(), its failure said in the kernel log: an
 * error when the header found names a sealed key (@sealed), a warning
 * otherwise, nothing without a TPM.  Returns its error.
 */
static int s2_retire_all(const struct s2_settings *set, bool sealed)
{
	const char *why = "";
	int error = s2_tpm_counter_retire_all(&why);

	if (error && sealed)
		pr_err("cannot retire the key of the image on %s (%pe: %s): with its anchor put back it could still be restored\n",
		       set->target, ERR_PTR(error), why);
	else if (error && error != -ENODEV)
		pr_warn("cannot move the TPM's image counter on (%pe: %s): an image sealed before this boot, its anchor put back, could still be restored\n",
			ERR_PTR(error), why);
	return error;
}

/*
 * This boot does not restore the image it looked for (refused, not
 * allowed, a failure after its anchor was cleared, or none found): every
 * image sealed before it is stale from now on, so the TPM's counter moves
 * on (s2_tpm_counter_retire_all()) and no boot restores one, even with
 * its anchor put back or never cleared.  Not by the header's counter
 * value, which is unchecked (s2_image_sealed_counter()): someone who wrote
 * the disk while the machine was off could have changed it, or the
 * key_scheme, so that the counter stayed where the image passes it.
 * True when @img has a sealed key and it is retired now; false when it has
 * none, or the TPM could not move the counter (then only its anchor, if
 * cleared, keeps it from being restored).  With no sealed key in @img the
 * TPM's failures are not errors: nothing says an image needs it.
 */
static bool s2_resume_retire(const struct s2_settings *set,
			     const struct s2_image *img)
{
	if (s2_retire_all(set, img->sealed_counter) || !img->sealed_counter)
		return false;
	pr_info("the key of the image on %s is retired on the TPM: no boot can restore it\n",
		set->target);
	return true;
}

/*
 * The image found is used at most once: its anchor is cleared before it
 * is loaded (a sealed one's once the TPM has given its verdict on the
 * key, s2_resume()).  When that fails, a later boot would restore it
 * over what this one changes: refused, the anchor tried again while this
 * boot runs (s2_stale_watch()), and a sealed key retired (*@retired) so
 * that no boot restores it at all.  Returns @error, else the invalidate's.
 */
static int s2_resume_invalidate(const struct s2_settings *set,
				struct s2_writer *w, const struct s2_image *img,
				int error, const char **why, bool *retired)
{
	int inval = s2_image_invalidate(w, false);

	if (!inval)
		return error;
	pr_err("cannot clear the anchor of the image on %s (%pe)\n",
	       set->target, ERR_PTR(inval));
	s2_stale_watch(set);
	/*
	 * A sealed image is dead once its key is retired, anchor or not:
	 * results/error says so ("retired on the TPM"), and hibernate(8)
	 * need not stop the boot for it.
	 */
	*retired = img->sealed_counter && s2_resume_retire(set, img);
	if (!error)
		*why = *retired ? "its anchor cannot be cleared" :
		       "its anchor cannot be cleared: a later boot would restore it";
	return error ?: inval;
}

static void s2_resume_refuse(const struct s2_settings *set, const char *why,
			     bool retired)
{
	pr_err("refusing the image on %s: %s\n", set->target, why);
	if (retired)
		s2_results_set_error(-EBADMSG,
				     "image refused and retired on the TPM, no boot restores it: %s",
				     why);
	else
		s2_results_set_error(-EBADMSG, "image refused: %s", why);
}

/* In the boot kernel: restore the image, or refuse it and carry on. */
static int s2_resume(const struct s2_settings *set)
{
	struct s2_crypt *crypt = NULL;
	struct s2_read_stats st = {};
	struct s2_results *r;
	unsigned int sleep_flags;
	struct s2_image *img = NULL;
	struct s2_writer w;
	bool retired = false, keep_until_unsealed = false, kept = false;
	const char *why;
	int platform;
	int error;

	/* Off the stack: the header alone is half a KiB. */
	crypt = kzalloc(sizeof(*crypt), GFP_KERNEL);
	img = kzalloc(sizeof(*img), GFP_KERNEL);
	if (!crypt || !img) {
		error = -ENOMEM;
		s2_results_set_error(error, "no memory for the image key");
		goto out;
	}
	error = s2_writer_open(&w, set, false);
	if (error) {
		s2_results_set_error(error, "cannot open %s", set->target);
		goto out;
	}
	s2_set_state(S2_READING);
	error = s2_image_find(&w, img, set, crypt, &why);
	if (error == -ENODATA) {
		pr_info("no complete image on %s\n", set->target);
		s2_results_set_error(error, "no image on %s", set->target);
		/* One could be there with its anchor hidden, to come back. */
		s2_resume_retire(set, img);
		goto out_close;
	}
	/*
	 * Locked is not damaged: the image stays for a boot that has the
	 * passphrase (hibernate --resume), and nothing of it was used.
	 */
	if (error == -ENOKEY || error == -ENOPKG) {
		pr_warn("image on %s is encrypted and cannot be opened here (%s): left in place for hibernate --resume; if this boot goes on, run hibernate --invalidate\n",
			set->target, why);
		s2_results_set_error(error, "image locked: %s", why);
		r = s2_results_lock();
		r->encryption = le32_to_cpu(img->header.crypt.encryption);
		s2_results_unlock();
		/*
		 * Kept for a passphrase: a key sealed to the TPM is not what
		 * locks it, so moving the counter costs it nothing, and a
		 * sealed image whose header was made to say otherwise is
		 * retired (s2_resume_retire()).
		 */
		if (!img->sealed_counter)
			s2_resume_retire(set, img);
		goto out_close;
	}
	/*
	 * Whatever happens next, this image is used at most once: if its
	 * anchor cannot be cleared, a later boot would restore it again over
	 * what this boot changed, so it is not restored now either, and the
	 * anchor is tried again while this boot runs (s2_stale_watch()).
	 * A key sealed to the TPM is unsealed first (s2_image_unseal(), user
	 * space frozen): a TPM that stops working before then leaves the
	 * image locked and in place, as a TPM that was not there at all, for
	 * a boot where it works; clearing the anchor first lost the session.
	 */
	keep_until_unsealed = !error && img->sealed;
	if (!keep_until_unsealed)
		error = s2_resume_invalidate(set, &w, img, error, &why, &retired);
	if (error) {
		s2_resume_refuse(set, why, retired);
		error = -EBADMSG;
		goto out_put;
	}
	/*
	 * Checked after the invalidation: this boot goes on without the
	 * image, so its filesystems move on and the image must not be
	 * restored by a later boot either.
	 */
	error = s2_check_allowed("resume", img->tpm &&
				 s2_header_encrypted(&img->header));
	if (error) {
		if (keep_until_unsealed) {
			keep_until_unsealed = false;
			if (s2_resume_invalidate(set, &w, img, 0, &why,
						 &retired))
				why = "and its anchor cannot be cleared";
			else
				why = "image invalidated";
		} else {
			why = "image invalidated";
		}
		pr_err("not resuming from %s, %s: resume is not allowed in this kernel\n",
		       set->target, why);
		goto out_put;
	}
	platform = le32_to_cpu(img->header.flags) & S2_FLAG_PLATFORM;
	r = s2_results_lock();
	r->encryption = le32_to_cpu(img->header.crypt.encryption);
	s2_results_unlock();

	sleep_flags = lock_system_sleep();
	if (!hibernate_acquire()) {
		error = -EBUSY;
		s2_results_set_error(error, "another hibernation is in progress");
		goto out_unlock;
	}
	error = pm_notifier_call_chain_robust(PM_RESTORE_PREPARE,
					      PM_POST_RESTORE);
	if (error) {
		s2_results_set_error(error, "a driver refused to prepare for restore");
		goto out_release;
	}
	error = freeze_processes();
	if (error) {
		s2_results_set_error(error, "tasks refused to freeze before restore");
		goto out_notify;
	}
	error = freeze_kernel_threads();
	if (error) {
		s2_results_set_error(error, "kernel threads refused to freeze before restore");
		goto out_thaw;
	}
	/* Only now, with user space frozen, may PCR 23 be the kernel's. */
	error = s2_image_unseal(img, crypt, &why);
	if (keep_until_unsealed && s2_tpm_no_verdict(error)) {
		pr_warn("image on %s is sealed to a TPM that does not work now (%pe: %s): left in place for a boot where it does\n",
			set->target, ERR_PTR(error), why);
		s2_results_set_error(-ENOKEY, "image locked: %s", why);
		error = -ENOKEY;
		kept = true;
		goto out_thaw;
	}
	if (keep_until_unsealed) {
		keep_until_unsealed = false;
		error = s2_resume_invalidate(set, &w, img, error, &why,
					     &retired);
	}
	if (error) {
		s2_resume_refuse(set, why, retired);
		error = -EBADMSG;
		goto out_thaw;
	}
	lock_device_hotplug();
	error = create_basic_memory_bitmaps();
	if (error) {
		s2_results_set_error(error, "no memory for the snapshot bitmaps");
		goto out_hotplug;
	}

	error = s2_image_load(&w, img, set, crypt, true, &st, &why);
	/*
	 * The restored kernel has no use for it, and this one ends here; the
	 * barrier lets the revoked keyring copy be freed (and wiped) first.
	 */
	s2_crypt_wipe(crypt);
	rcu_barrier();
	if (error) {
		pr_err("refusing the image on %s: %s\n",
		       set->target, why);
		s2_results_set_error(-EBADMSG, "image refused: %s", why);
		error = -EBADMSG;
	} else {
		pr_info("image read in %llu ms, restoring\n",
			div_u64(st.read_us, USEC_PER_MSEC));
		s2_leave_boot_record(img, &st, set);
		s2_set_state(S2_RESTORING);
		/* Returns only on failure: success continues in the image. */
		error = hibernation_restore(platform);
		s2_results_set_error(error, "atomic restore failed");
	}
	swsusp_free();
	free_basic_memory_bitmaps();
out_hotplug:
	unlock_device_hotplug();
out_thaw:
	thaw_processes();
out_notify:
	pm_notifier_call_chain(PM_POST_RESTORE);
out_release:
	hibernate_release();
out_unlock:
	unlock_system_sleep(sleep_flags);
out_put:
	/*
	 * Not restored, and the TPM gave no verdict that keeps it: from here
	 * the boot goes on without the image, so no later boot may restore
	 * it (resume not allowed, busy, tasks that refused to freeze).
	 */
	if (error && keep_until_unsealed && !kept)
		s2_resume_invalidate(set, &w, img, error, &why, &retired);
	/*
	 * Only the success, which does not return, keeps a key usable; and a
	 * TPM that gave no verdict, which keeps the image too.
	 */
	if (error && !retired && !kept)
		s2_resume_retire(set, img);
	s2_image_put(img);
out_close:
	s2_writer_close(&w);
out:
	kfree(img);
	s2_crypt_put(crypt);
	if (error == -EBADMSG || error == -EPERM)
		s2_finish(S2_ST_REFUSED, error);
	else if (error == -ENODATA)
		s2_finish(S2_ST_NONE, error);
	else if (error == -ENOKEY || error == -ENOPKG)
		s2_finish(S2_ST_LOCKED, error);
	else
		s2_finish(S2_ST_FAILED, error);
	return error;
}

/*
 * Every sealed image's key is retired first, whatever the header found
 * says: from then on no boot restores the image, whatever becomes of its
 * anchor (root can write one back).
 * When the TPM cannot retire it, the anchor is cleared all the same (the
 * filesystems move on without the image), and the action fails.
 */
static int s2_invalidate(const struct s2_settings *set)
{
	struct s2_writer w;
	u64 counter = 0;
	int error, retire = 0;

	error = s2_writer_open(&w, set, false);
	if (error)
		return error;
	/*
	 * Whatever the header says (s2_resume_retire()): the action fails
	 * on the TPM only when the header names a sealed key.
	 */
	s2_image_sealed_counter(&w, &counter);
	retire = s2_retire_all(set, counter);
	if (!counter)
		retire = 0;
	error = s2_image_invalidate(&w, false);
	s2_writer_close(&w);
	return error ?: retire;
}

const char * const s2_action_names[S2_NR_ACTIONS] = {
	[S2_ACT_HIBERNATE] = "hibernate",
	[S2_ACT_TEST] = "test",
	[S2_ACT_RESUME] = "resume",
	[S2_ACT_INVALIDATE] = "invalidate",
};

int s2_action_run(enum s2_action action, const struct s2_settings *set,
		  const char *profile)
{
	int error;

	if (!mutex_trylock(&s2_cycle_mutex))
		return -EBUSY;
	if (action != S2_ACT_INVALIDATE)
		s2_results_begin(set, profile);
	switch (action) {
	case S2_ACT_HIBERNATE:
	case S2_ACT_TEST:
		error = s2_hibernate(set, action == S2_ACT_TEST);
		break;
	case S2_ACT_RESUME:
		error = s2_resume(set);
		break;
	case S2_ACT_INVALIDATE:
		error = s2_invalidate(set);
		break;
	default:
		error = -EINVAL;
	}
	s2_set_state(S2_IDLE);
	mutex_unlock(&s2_cycle_mutex);
	return error;
}

int s2_resume_at_load(const char *device)
{
	struct s2_settings set;

	s2_settings_default(&set);
	if (strscpy(set.target, device, sizeof(set.target)) < 0)
		return -ENAMETOOLONG;
	return s2_action_run(S2_ACT_RESUME, &set, "resume=");
}

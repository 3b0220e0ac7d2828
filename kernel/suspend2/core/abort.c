// SPDX-License-Identifier: GPL-2.0
/*
 * What may abort the image write, as the profile chooses: Escape on a
 * keyboard (TuxOnIce let users do this), the lid opening, or external
 * power plugged in, each a sign that someone wants the machine back.
 *
 * An input handler (the shape of drivers/tty/sysrq.c) watches every
 * device that has the key or a lid switch.  It does nothing until the
 * cycle arms it for the write; while armed it keeps an Escape press for
 * itself, and the repeats and the release of that press, so that neither
 * the console nor a program that reads the keyboard after the thaw sees
 * half a key.  A lid event is everyone's: it is only watched.  The events
 * arrive in interrupt context: they only move the state, which the write
 * loop reads between chunks.  Power supplies announce a change through
 * their notifier, from a work item: a process context that may ask every
 * supply whether it is online.
 *
 * The write closes the window before it writes the anchor: an event after
 * that is neither announced nor counted, since the image is then complete.
 *
 * A program that grabbed the keyboard (EVIOCGRAB: keyd, interception
 * tools) gets its events instead of every handler, so the key does
 * nothing then.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/input.h>
#include <linux/notifier.h>
#include <linux/power_supply.h>
#include <linux/slab.h>
#include "../internal.h"

enum s2_abort_state {
	S2_ABORT_OFF,		/* no write, or the profile wants no abort */
	S2_ABORT_ARMED,		/* an event the profile chose aborts the write */
	S2_ABORT_ABORTED,	/* one did */
	S2_ABORT_CLOSED,	/* too late: the image is being completed */
};

/*
 * One word, so that an event sees the state and what it was armed for
 * together: the state in bits 0-3, the S2_ABORT_* events armed in bits
 * 4-7, the event that aborted in bits 8-11.
 */
static atomic_t s2_abort_word = ATOMIC_INIT(S2_ABORT_OFF);

#define S2_ABORT_STATE(w)	((w) & 0xf)
#define S2_ABORT_ARMED_FOR(w)	(((w) >> 4) & 0xf)
#define S2_ABORT_BY(w)		(((w) >> 8) & 0xf)

enum s2_abort_answer {
	S2_ABORT_IGNORED,	/* not armed for it, or too late */
	S2_ABORT_NOW,		/* this event aborted the write */
	S2_ABORT_BEFORE,	/* armed for it, but an earlier event aborted */
};

static enum s2_abort_answer s2_abort_request(unsigned int event)
{
	int old = atomic_read(&s2_abort_word);

	do {
		if (!(S2_ABORT_ARMED_FOR(old) & event))
			return S2_ABORT_IGNORED;
		if (S2_ABORT_STATE(old) == S2_ABORT_ABORTED)
			return S2_ABORT_BEFORE;
		if (S2_ABORT_STATE(old) != S2_ABORT_ARMED)
			return S2_ABORT_IGNORED;
	} while (!atomic_try_cmpxchg(&s2_abort_word, &old,
				     (old & 0xf0) | S2_ABORT_ABORTED |
				     event << 8));
	return S2_ABORT_NOW;
}

struct s2_abort_handle {
	struct input_handle handle;
	bool holding;		/* its last Escape press was kept from others */
};

static const char *s2_abort_dev_name(struct input_handle *handle)
{
	return handle->dev->name ?: "an input device";
}

/* The lid switch reads 1 closed, 0 open; the input core passes changes. */
static void s2_abort_lid(struct input_handle *handle, int value)
{
	if (!value && s2_abort_request(S2_ABORT_LID) == S2_ABORT_NOW)
		pr_info("lid opened (%s): aborting the image write\n",
			s2_abort_dev_name(handle));
}

static bool s2_abort_filter(struct input_handle *handle, unsigned int type,
			    unsigned int code, int value)
{
	struct s2_abort_handle *h =
		container_of(handle, struct s2_abort_handle, handle);

	if (type == EV_SW && code == SW_LID) {
		s2_abort_lid(handle, value);
		return false;
	}
	if (type != EV_KEY || code != KEY_ESC)
		return false;
	if (value != 1) {
		/* A repeat or the release of a press kept: kept too. */
		if (!h->holding)
			return false;
		if (!value)
			h->holding = false;
		return true;
	}
	switch (s2_abort_request(S2_ABORT_KEY)) {
	case S2_ABORT_NOW:
		pr_info("Escape pressed on %s: aborting the image write\n",
			s2_abort_dev_name(handle));
		fallthrough;
	case S2_ABORT_BEFORE:
		h->holding = true;
		return true;
	default:
		return false;
	}
}

static int s2_abort_connect(struct input_handler *handler,
			    struct input_dev *dev,
			    const struct input_device_id *id)
{
	struct s2_abort_handle *h;
	int error;

	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->handle.dev = dev;
	h->handle.handler = handler;
	h->handle.name = "suspend2-abort";
	error = input_register_handle(&h->handle);
	if (error)
		goto err_free;
	error = input_open_device(&h->handle);
	if (error)
		goto err_unregister;
	return 0;

err_unregister:
	input_unregister_handle(&h->handle);
err_free:
	kfree(h);
	return error;
}

static void s2_abort_disconnect(struct input_handle *handle)
{
	input_close_device(handle);
	input_unregister_handle(handle);
	kfree(container_of(handle, struct s2_abort_handle, handle));
}

static const struct input_device_id s2_abort_ids[] = {
	{
		.flags = INPUT_DEVICE_ID_MATCH_EVBIT |
			 INPUT_DEVICE_ID_MATCH_KEYBIT,
		.evbit = { BIT_MASK(EV_KEY) },
		.keybit = { [BIT_WORD(KEY_ESC)] = BIT_MASK(KEY_ESC) },
	},
	{
		.flags = INPUT_DEVICE_ID_MATCH_EVBIT |
			 INPUT_DEVICE_ID_MATCH_SWBIT,
		.evbit = { BIT_MASK(EV_SW) },
		.swbit = { [BIT_WORD(SW_LID)] = BIT_MASK(SW_LID) },
	},
	{ },
};

static struct input_handler s2_abort_handler = {
	.filter		= s2_abort_filter,
	.connect	= s2_abort_connect,
	.disconnect	= s2_abort_disconnect,
	.name		= "suspend2-abort",
	.id_table	= s2_abort_ids,
};

/*
 * Plugged in: some supply other than a battery is online now, where none
 * was when the write was armed.  A kernel without the power supply class
 * has no such event.
 */
#if IS_REACHABLE(CONFIG_POWER_SUPPLY)
#define S2_ABORT_HAVE_POWER	1

static void s2_abort_power(bool supplied, const char *name)
{
	if (supplied && s2_abort_request(S2_ABORT_AC) == S2_ABORT_NOW)
		pr_info("external power plugged in (%s): aborting the image write\n",
			name);
}

static int s2_abort_power_changed(struct notifier_block *nb,
				  unsigned long event, void *data)
{
	struct power_supply *psy = data;
	int w = atomic_read(&s2_abort_word);

	/* Ask the supplies (ACPI methods, perhaps) only when it matters. */
	if (event != PSY_EVENT_PROP_CHANGED ||
	    S2_ABORT_STATE(w) != S2_ABORT_ARMED ||
	    !(S2_ABORT_ARMED_FOR(w) & S2_ABORT_AC))
		return NOTIFY_DONE;
	s2_abort_power(power_supply_is_system_supplied() > 0, psy->desc->name);
	return NOTIFY_OK;
}

static struct notifier_block s2_abort_power_nb = {
	.notifier_call = s2_abort_power_changed,
};

/*
 * 1 also when no supply says anything: a desktop, on mains; or a laptop
 * whose only battery went away, which is no plug-in, but then the
 * machine is on external power anyway.
 */
static bool s2_abort_on_battery(void)
{
	return power_supply_is_system_supplied() == 0;
}

/* Plugged in between the check of s2_abort_arm() and the arming? */
static void s2_abort_power_recheck(void)
{
	s2_abort_power(!s2_abort_on_battery(), "plugged in while arming");
}

static int s2_abort_power_init(void)
{
	return power_supply_reg_notifier(&s2_abort_power_nb);
}

static void s2_abort_power_exit(void)
{
	power_supply_unreg_notifier(&s2_abort_power_nb);
}
#else
#define S2_ABORT_HAVE_POWER	0

static bool s2_abort_on_battery(void)
{
	return false;
}

static void s2_abort_power_recheck(void)
{
}

static int s2_abort_power_init(void)
{
	return 0;
}

static void s2_abort_power_exit(void)
{
}
#endif

static bool s2_abort_registered, s2_abort_power_registered;

/* Without them hibernation still works, only without these aborts. */
void s2_abort_init(void)
{
	int error = input_register_handler(&s2_abort_handler);

	if (error)
		pr_warn("no abort key or lid: cannot watch input devices: %pe\n",
			ERR_PTR(error));
	s2_abort_registered = !error;
	error = s2_abort_power_init();
	if (error)
		pr_warn("no abort on external power: cannot watch power supplies: %pe\n",
			ERR_PTR(error));
	s2_abort_power_registered = !error;
}

void s2_abort_exit(void)
{
	if (s2_abort_power_registered)
		s2_abort_power_exit();
	if (s2_abort_registered)
		input_unregister_handler(&s2_abort_handler);
}

/*
 * Before the write, for the S2_ABORT_* @events the profile chose.  Plugging
 * in means nothing to a machine already on external power: not armed then,
 * so that no event of its supplies can abort.  A plug-in between that
 * check and the arming has sent its event to a word not yet armed: the
 * check is made again once armed.
 */
void s2_abort_arm(unsigned int events)
{
	if (events & S2_ABORT_AC) {
		const char *why = NULL;

		if (!S2_ABORT_HAVE_POWER)
			why = "this kernel has no power supply class";
		else if (!s2_abort_power_registered)
			why = "cannot watch the power supplies";
		else if (!s2_abort_on_battery())
			why = "not on battery";
		if (why) {
			pr_info("abort_ac: %s, plugging in cannot abort this write\n",
				why);
			events &= ~S2_ABORT_AC;
		}
	}
	atomic_set(&s2_abort_word,
		   events ? S2_ABORT_ARMED | events << 4 : S2_ABORT_OFF);
	if (events & S2_ABORT_AC)
		s2_abort_power_recheck();
}

/*
 * After the write: nothing aborts any more.  Returns the S2_ABORT_* event
 * that aborted it, 0 if none did.
 */
unsigned int s2_abort_disarm(void)
{
	return S2_ABORT_BY(atomic_xchg(&s2_abort_word, S2_ABORT_OFF));
}

/* Did an event abort the write?  The write loop asks between chunks. */
bool s2_abort_requested(void)
{
	return S2_ABORT_STATE(atomic_read(&s2_abort_word)) == S2_ABORT_ABORTED;
}

/*
 * The last word, before the anchor makes the image complete: true if an
 * event came first (the write then fails with nothing pointing at it).
 */
bool s2_abort_close(void)
{
	int old = atomic_read(&s2_abort_word);

	while (!atomic_try_cmpxchg(&s2_abort_word, &old,
				   (old & ~0xf) | S2_ABORT_CLOSED))
		;
	return S2_ABORT_STATE(old) == S2_ABORT_ABORTED;
}

/* What aborted the write, in words for results/error. */
const char *s2_abort_why(void)
{
	switch (S2_ABORT_BY(atomic_read(&s2_abort_word))) {
	case S2_ABORT_KEY:
		return "Escape pressed";
	case S2_ABORT_LID:
		return "the lid opened";
	case S2_ABORT_AC:
		return "external power plugged in";
	default:
		return "no event";
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Escape on a keyboard aborts the image write, as TuxOnIce let users do.
 * An input handler (the shape of drivers/tty/sysrq.c) watches every
 * device that has the key.  It does nothing until the cycle arms it for
 * the write; while armed it keeps an Escape press for itself, and the
 * repeats and the release of that press, so that neither the console nor
 * a program that reads the keyboard after the thaw sees half a key.  The
 * event arrives in interrupt context: it only moves the state, which the
 * write loop reads between chunks.
 *
 * The write closes the window before it writes the anchor: a press after
 * that is neither announced nor counted, since the image is then complete.
 *
 * A program that grabbed the keyboard (EVIOCGRAB: keyd, interception
 * tools) gets its events instead of every handler, so the key does
 * nothing then.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/input.h>
#include <linux/slab.h>
#include "../internal.h"

enum s2_abort_state {
	S2_ABORT_OFF,		/* no write, or the profile does not want it */
	S2_ABORT_ARMED,		/* a press aborts the write */
	S2_ABORT_PRESSED,	/* it did */
	S2_ABORT_CLOSED,	/* too late: the image is being completed */
};

static atomic_t s2_abort_state = ATOMIC_INIT(S2_ABORT_OFF);

struct s2_abort_handle {
	struct input_handle handle;
	bool holding;		/* its last Escape press was kept from others */
};

static bool s2_abort_filter(struct input_handle *handle, unsigned int type,
			    unsigned int code, int value)
{
	struct s2_abort_handle *h =
		container_of(handle, struct s2_abort_handle, handle);

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
	switch (atomic_cmpxchg(&s2_abort_state, S2_ABORT_ARMED,
			       S2_ABORT_PRESSED)) {
	case S2_ABORT_ARMED:
		pr_info("Escape pressed on %s: aborting the image write\n",
			handle->dev->name ?: "a keyboard");
		fallthrough;
	case S2_ABORT_PRESSED:
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
	{ },
};

static struct input_handler s2_abort_handler = {
	.filter		= s2_abort_filter,
	.connect	= s2_abort_connect,
	.disconnect	= s2_abort_disconnect,
	.name		= "suspend2-abort",
	.id_table	= s2_abort_ids,
};

static bool s2_abort_registered;

/* Without it hibernation still works, only without the key: not fatal. */
void s2_abort_init(void)
{
	int error = input_register_handler(&s2_abort_handler);

	if (error)
		pr_warn("no abort key: cannot watch keyboards: %pe\n",
			ERR_PTR(error));
	s2_abort_registered = !error;
}

void s2_abort_exit(void)
{
	if (s2_abort_registered)
		input_unregister_handler(&s2_abort_handler);
}

/* Before the write, armed or not as the profile says; and after it. */
void s2_abort_arm(bool on)
{
	atomic_set(&s2_abort_state, on ? S2_ABORT_ARMED : S2_ABORT_OFF);
}

/* Was Escape pressed?  The write loop asks between chunks. */
bool s2_abort_pressed(void)
{
	return atomic_read(&s2_abort_state) == S2_ABORT_PRESSED;
}

/*
 * The last word, before the anchor makes the image complete: true if a
 * press came first (the write then fails with nothing pointing at it).
 */
bool s2_abort_close(void)
{
	return atomic_xchg(&s2_abort_state, S2_ABORT_CLOSED) ==
	       S2_ABORT_PRESSED;
}

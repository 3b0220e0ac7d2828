// SPDX-License-Identifier: GPL-2.0
/*
 * Escape on a keyboard aborts the image write, as TuxOnIce let users do.
 * An input handler (the shape of drivers/tty/sysrq.c) watches every
 * device that has the key; it does nothing until the cycle arms it for
 * the write, and while armed it keeps the Escape presses for itself, so
 * the console's tty does not get them after the thaw.  The event arrives
 * in interrupt context: it only sets a flag, which the write loop reads
 * between chunks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/input.h>
#include <linux/slab.h>
#include "../internal.h"

static atomic_t s2_abort_armed = ATOMIC_INIT(0);
static atomic_t s2_abort_seen = ATOMIC_INIT(0);

static bool s2_abort_filter(struct input_handle *handle, unsigned int type,
			    unsigned int code, int value)
{
	if (type != EV_KEY || code != KEY_ESC || !atomic_read(&s2_abort_armed))
		return false;
	/* 1 is the press; the release and the repeats (0, 2) are swallowed too. */
	if (value == 1 && !atomic_xchg(&s2_abort_seen, 1))
		pr_info("Escape pressed on %s: aborting the image write\n",
			handle->dev->name ?: "a keyboard");
	return true;
}

static int s2_abort_connect(struct input_handler *handler,
			    struct input_dev *dev,
			    const struct input_device_id *id)
{
	struct input_handle *handle;
	int error;

	handle = kzalloc(sizeof(*handle), GFP_KERNEL);
	if (!handle)
		return -ENOMEM;
	handle->dev = dev;
	handle->handler = handler;
	handle->name = "suspend2-abort";
	error = input_register_handle(handle);
	if (error)
		goto err_free;
	error = input_open_device(handle);
	if (error)
		goto err_unregister;
	return 0;

err_unregister:
	input_unregister_handle(handle);
err_free:
	kfree(handle);
	return error;
}

static void s2_abort_disconnect(struct input_handle *handle)
{
	input_close_device(handle);
	input_unregister_handle(handle);
	kfree(handle);
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

int s2_abort_init(void)
{
	return input_register_handler(&s2_abort_handler);
}

void s2_abort_exit(void)
{
	input_unregister_handler(&s2_abort_handler);
}

/*
 * Before the write (armed or not, as the profile says) and after it: a
 * press counts only during the write it was armed for, never in a later
 * cycle, whose profile may not even want it.
 */
void s2_abort_arm(bool on)
{
	atomic_set(&s2_abort_armed, 0);
	atomic_set(&s2_abort_seen, 0);
	atomic_set(&s2_abort_armed, on);
}

bool s2_abort_pressed(void)
{
	return atomic_read(&s2_abort_seen);
}

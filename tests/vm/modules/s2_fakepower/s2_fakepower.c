// SPDX-License-Identifier: GPL-2.0
/*
 * s2_fakepower: a lid switch and a mains adapter for the VM tests, which
 * QEMU's PC machine does not have, so that abort_lid and abort_ac can be
 * tried in a real cycle.  The lid starts closed and the adapter offline,
 * as on a laptop shut on battery.
 *
 * While the image is written user space is frozen, so nothing there can
 * move them: a key does.  F9 pressed on a keyboard opens the lid, F10
 * plugs the adapter in (the host presses them through QEMU's monitor).
 * The key only schedules the change: the lid's input events and the power
 * supply's notifier then come from a work item, in process context, as
 * the ACPI drivers' do.  The parameters lid_open and ac_online read the
 * state and let user space set it between cycles.  The adapter announces
 * a change even when its state stays the same (F10 on an adapter already
 * online), as a supply's other properties would: a test sees then what a
 * plain event does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/input.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/power_supply.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

static DEFINE_MUTEX(s2_fake_lock);	/* the state and the devices */
static bool lid_open, ac_online;
static bool want_lid_open, want_ac_online;	/* from the keys */
static struct platform_device *s2_fake_pdev;
static struct input_dev *s2_fake_lid;
static struct power_supply *s2_fake_ac;

/* Under s2_fake_lock: make the devices say what the state says. */
static void s2_fake_set_lid(bool open)
{
	bool was = lid_open;

	lid_open = open;
	if (!s2_fake_lid)
		return;
	/* The input core passes a switch's changes only. */
	input_report_switch(s2_fake_lid, SW_LID, !open);
	input_sync(s2_fake_lid);
	if (open != was)
		pr_info("lid %s\n", open ? "opened" : "closed");
}

static void s2_fake_set_ac(bool online)
{
	bool was = ac_online;

	WRITE_ONCE(ac_online, online);
	if (!s2_fake_ac)
		return;
	power_supply_changed(s2_fake_ac);
	pr_info("adapter %s\n", online == was ?
		(online ? "still online" : "still offline") :
		(online ? "plugged in" : "unplugged"));
}

static void s2_fake_key_work_fn(struct work_struct *work)
{
	mutex_lock(&s2_fake_lock);
	if (xchg(&want_lid_open, false))
		s2_fake_set_lid(true);
	if (xchg(&want_ac_online, false))
		s2_fake_set_ac(true);
	mutex_unlock(&s2_fake_lock);
}

static DECLARE_WORK(s2_fake_key_work, s2_fake_key_work_fn);

/* In interrupt context: note the wish, the work does the rest. */
static void s2_fake_event(struct input_handle *handle, unsigned int type,
			  unsigned int code, int value)
{
	if (type != EV_KEY || value != 1)
		return;
	if (code == KEY_F9)
		WRITE_ONCE(want_lid_open, true);
	else if (code == KEY_F10)
		WRITE_ONCE(want_ac_online, true);
	else
		return;
	schedule_work(&s2_fake_key_work);
}

static int s2_fake_connect(struct input_handler *handler,
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
	handle->name = "s2_fakepower";
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

static void s2_fake_disconnect(struct input_handle *handle)
{
	input_close_device(handle);
	input_unregister_handle(handle);
	kfree(handle);
}

static const struct input_device_id s2_fake_ids[] = {
	{
		.flags = INPUT_DEVICE_ID_MATCH_EVBIT |
			 INPUT_DEVICE_ID_MATCH_KEYBIT,
		.evbit = { BIT_MASK(EV_KEY) },
		.keybit = { [BIT_WORD(KEY_F9)] = BIT_MASK(KEY_F9) },
	},
	{ },
};

static struct input_handler s2_fake_handler = {
	.event		= s2_fake_event,
	.connect	= s2_fake_connect,
	.disconnect	= s2_fake_disconnect,
	.name		= "s2_fakepower",
	.id_table	= s2_fake_ids,
};

static const enum power_supply_property s2_fake_ac_props[] = {
	POWER_SUPPLY_PROP_ONLINE,
};

static int s2_fake_ac_get(struct power_supply *psy,
			  enum power_supply_property psp,
			  union power_supply_propval *val)
{
	if (psp != POWER_SUPPLY_PROP_ONLINE)
		return -EINVAL;
	val->intval = READ_ONCE(ac_online);
	return 0;
}

static const struct power_supply_desc s2_fake_ac_desc = {
	.name		= "s2-fake-ac",
	.type		= POWER_SUPPLY_TYPE_MAINS,
	.properties	= s2_fake_ac_props,
	.num_properties	= ARRAY_SIZE(s2_fake_ac_props),
	.get_property	= s2_fake_ac_get,
};

static int s2_fake_param_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int error = kstrtobool(val, &on);

	if (error)
		return error;
	mutex_lock(&s2_fake_lock);
	if (kp->arg == &lid_open)
		s2_fake_set_lid(on);
	else
		s2_fake_set_ac(on);
	mutex_unlock(&s2_fake_lock);
	return 0;
}

static const struct kernel_param_ops s2_fake_param_ops = {
	.set = s2_fake_param_set,
	.get = param_get_bool,
};

module_param_cb(lid_open, &s2_fake_param_ops, &lid_open, 0644);
MODULE_PARM_DESC(lid_open, "the fake lid is open (F9 opens it)");
module_param_cb(ac_online, &s2_fake_param_ops, &ac_online, 0644);
MODULE_PARM_DESC(ac_online, "the fake adapter is online (F10 plugs it in)");

static int __init s2_fake_init(void)
{
	struct power_supply *ac;
	struct input_dev *lid;
	int error;

	s2_fake_pdev = platform_device_register_simple("s2_fakepower", -1,
						       NULL, 0);
	if (IS_ERR(s2_fake_pdev))
		return PTR_ERR(s2_fake_pdev);

	lid = input_allocate_device();
	if (!lid) {
		error = -ENOMEM;
		goto err_pdev;
	}
	lid->name = "s2_fakepower Lid Switch";
	lid->phys = "s2_fakepower/input0";
	lid->id.bustype = BUS_HOST;
	lid->dev.parent = &s2_fake_pdev->dev;
	input_set_capability(lid, EV_SW, SW_LID);
	error = input_register_device(lid);
	if (error) {
		input_free_device(lid);
		goto err_pdev;
	}

	ac = power_supply_register(&s2_fake_pdev->dev, &s2_fake_ac_desc, NULL);
	if (IS_ERR(ac)) {
		error = PTR_ERR(ac);
		goto err_lid;
	}

	/* Only registered devices for the parameters to move. */
	mutex_lock(&s2_fake_lock);
	s2_fake_lid = lid;
	s2_fake_ac = ac;
	s2_fake_set_lid(lid_open);
	mutex_unlock(&s2_fake_lock);

	error = input_register_handler(&s2_fake_handler);
	if (error)
		goto err_ac;
	pr_info("lid %s, adapter %s; F9 opens the lid, F10 plugs the adapter in\n",
		lid_open ? "open" : "closed",
		ac_online ? "online" : "offline");
	return 0;

err_ac:
	mutex_lock(&s2_fake_lock);
	s2_fake_lid = NULL;
	s2_fake_ac = NULL;
	mutex_unlock(&s2_fake_lock);
	power_supply_unregister(ac);
err_lid:
	input_unregister_device(lid);
err_pdev:
	platform_device_unregister(s2_fake_pdev);
	return error;
}

static void __exit s2_fake_exit(void)
{
	input_unregister_handler(&s2_fake_handler);
	cancel_work_sync(&s2_fake_key_work);
	mutex_lock(&s2_fake_lock);
	power_supply_unregister(s2_fake_ac);
	s2_fake_ac = NULL;
	input_unregister_device(s2_fake_lid);
	s2_fake_lid = NULL;
	mutex_unlock(&s2_fake_lock);
	platform_device_unregister(s2_fake_pdev);
}

module_init(s2_fake_init);
module_exit(s2_fake_exit);
MODULE_DESCRIPTION("suspend2 VM tests: a fake lid switch and mains adapter");
MODULE_LICENSE("GPL");

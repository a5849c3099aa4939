// SPDX-License-Identifier: GPL-2.0
/*
 * i2c-sink: a virtual I2C adapter for `make boot-check`, standing in for the
 * Pi's I2C bus with an OLED at 0x3c on it.
 *
 * The device at ADDRESS accepts plain I2C writes (I2C_RDWR, and the SMBus
 * writes the I2C core emulates with them) and keeps every message it
 * received, in order, with the time it arrived; reads from it return zeros
 * (an SSD1306's status byte). Any other address does not answer (-ENXIO), as
 * an empty bus does.
 *
 * What it received is read from debugfs, /sys/kernel/debug/i2c-sink/received,
 * as records of
 *     u64 nanoseconds since boot (CLOCK_BOOTTIME), little-endian
 *     u16 length, little-endian
 *     that many bytes: the message as written (control byte first)
 * Writing anything to that file forgets what was kept.
 */
#include <asm/unaligned.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/i2c.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

static int bus = 1;
module_param(bus, int, 0444);
MODULE_PARM_DESC(bus, "the adapter's number (/dev/i2c-N)");
static unsigned short address = 0x3c;
module_param(address, ushort, 0444);
MODULE_PARM_DESC(address, "the one address that answers");
static unsigned int capacity_mb = 32;
module_param(capacity_mb, uint, 0444);
MODULE_PARM_DESC(capacity_mb, "how much is kept; later messages are counted as dropped");

static DEFINE_MUTEX(sink_lock);
static u8 *kept;
static size_t kept_len, kept_cap;
static u64 dropped;
static struct dentry *sink_dir;

static void sink_keep(const u8 *buf, u16 len)
{
	u64 now = ktime_get_boottime_ns();
	u8 head[10];

	if (kept_len + sizeof(head) + len > kept_cap) {
		dropped++;
		return;
	}
	put_unaligned_le64(now, head);
	put_unaligned_le16(len, head + 8);
	memcpy(kept + kept_len, head, sizeof(head));
	memcpy(kept + kept_len + sizeof(head), buf, len);
	kept_len += sizeof(head) + len;
}

static int sink_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	int i;

	for (i = 0; i < num; i++)
		if (msgs[i].addr != address || (msgs[i].flags & I2C_M_TEN))
			return -ENXIO;
	mutex_lock(&sink_lock);
	for (i = 0; i < num; i++) {
		if (msgs[i].flags & I2C_M_RD)
			memset(msgs[i].buf, 0, msgs[i].len);
		else
			sink_keep(msgs[i].buf, msgs[i].len);
	}
	mutex_unlock(&sink_lock);
	return num;
}

static u32 sink_functionality(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm sink_algorithm = {
	.master_xfer = sink_xfer,
	.functionality = sink_functionality,
};

static struct i2c_adapter sink_adapter = {
	.owner = THIS_MODULE,
	.class = I2C_CLASS_HWMON,
	.algo = &sink_algorithm,
	.name = "i2c-sink (boot check)",
};

static ssize_t received_read(struct file *file, char __user *to, size_t count, loff_t *pos)
{
	ssize_t done;

	mutex_lock(&sink_lock);
	done = simple_read_from_buffer(to, count, pos, kept, kept_len);
	mutex_unlock(&sink_lock);
	return done;
}

static ssize_t received_write(struct file *file, const char __user *from, size_t count, loff_t *pos)
{
	mutex_lock(&sink_lock);
	kept_len = 0;
	dropped = 0;
	mutex_unlock(&sink_lock);
	return count;
}

static const struct file_operations received_fops = {
	.owner = THIS_MODULE,
	.read = received_read,
	.write = received_write,
	.llseek = default_llseek,
};

static int __init sink_init(void)
{
	int err;

	kept_cap = (size_t)capacity_mb << 20;
	kept = vmalloc(kept_cap);
	if (!kept)
		return -ENOMEM;
	sink_adapter.nr = bus;
	err = i2c_add_numbered_adapter(&sink_adapter);
	if (err) {
		vfree(kept);
		return err;
	}
	sink_dir = debugfs_create_dir("i2c-sink", NULL);
	debugfs_create_file("received", 0600, sink_dir, NULL, &received_fops);
	debugfs_create_u64("dropped", 0400, sink_dir, &dropped);
	return 0;
}

static void __exit sink_exit(void)
{
	debugfs_remove_recursive(sink_dir);
	i2c_del_adapter(&sink_adapter);
	vfree(kept);
}

module_init(sink_init);
module_exit(sink_exit);
MODULE_DESCRIPTION("A virtual I2C bus whose one device keeps the plain writes it receives");
MODULE_LICENSE("GPL");

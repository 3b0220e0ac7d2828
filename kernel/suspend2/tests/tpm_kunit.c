// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the image key sealed to the TPM (tpm/seal.c), against
 * the machine's real TPM 2.0 (swtpm in the test VM): a key sealed by the
 * kernel comes back; one sealed with the same policy while PCR 23 was not
 * in the kernel's state (what root can do through /dev/tpmrm0) is
 * refused, alone or dressed in the creation data and ticket of a genuine
 * one; a changed boot PCR refuses it; so does any flipped byte, and a
 * truncated blob is refused before the TPM sees it.  PCR 23 is left
 * reset after each.  Without a usable TPM 2.0 every case is skipped (the
 * s2-kunit scenario gives the VM one and counts a skip as a failure).
 *
 * The tests run while user space is not frozen, which the real callers
 * never do: the test VM runs nothing but the script that loaded them.
 * The sources are compiled straight into the test module.
 */
#include "../tpm/wire.c"
#include "../tpm/eventlog.c"
#include "../tpm/seal.c"
#include "../tpm/counter.c"
#include "../crypt/sealed.c"
#include <kunit/test.h>

/* PCR 16 is the debug PCR, resettable: a boot PCR the tests can restore. */
#define T_BOOT_PCRS	(BIT(0) | BIT(7) | BIT(16))
#define T_DEBUG_PCR	16

struct t_tpm {
	struct tpm_chip *chip;
	u8 secret[32], out[32];
	u8 blob[S2_TPM_BLOB_MAX];
	size_t len;
};

static int t_tpm_init(struct kunit *test)
{
	struct t_tpm *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	const char *why = NULL;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->chip = s2_tpm_get(&why);
	if (!t->chip)
		kunit_skip(test, "no usable TPM: %s", why);
	/* Keep the reference on the chip's device, not its lock. */
	tpm_put_ops(t->chip);
	get_random_bytes(t->secret, sizeof(t->secret));
	test->priv = t;
	return 0;
}

static void t_tpm_exit(struct kunit *test)
{
	struct t_tpm *t = test->priv;

	if (t)
		put_device(&t->chip->dev);
}

/* PCR 23 is back in its reset state, which user space cannot leave. */
static void t_expect_pcr23_reset(struct kunit *test, struct t_tpm *t)
{
	static const u8 zero[SHA256_DIGEST_SIZE];
	u8 value[SHA256_DIGEST_SIZE];

	KUNIT_ASSERT_EQ(test, tpm_try_get_ops(t->chip), 0);
	KUNIT_EXPECT_EQ(test, pcr_read(t->chip, S2_STATE_PCR, value), 0);
	tpm_put_ops(t->chip);
	KUNIT_EXPECT_MEMEQ(test, value, zero, sizeof(zero));
}

static void t_seal(struct kunit *test, struct t_tpm *t, bool kernel_state)
{
	const char *why = NULL;
	int rc;

	rc = __s2_tpm_seal(t->secret, sizeof(t->secret), T_BOOT_PCRS,
			   kernel_state, t->blob, &t->len, &why);
	KUNIT_ASSERT_EQ_MSG(test, rc, 0, "sealing: %s", why);
	KUNIT_ASSERT_GT(test, t->len, 0);
}

static int t_unseal(struct t_tpm *t, const u8 *blob, size_t len,
		    const char **why)
{
	*why = NULL;
	memset(t->out, 0xa5, sizeof(t->out));
	return s2_tpm_unseal(blob, len, T_BOOT_PCRS, t->out, sizeof(t->out),
			     why);
}

/*
 * The round trip's key, which the s2-kunit scenario looks for in swtpm's
 * log of every command and response, as a sniffer on the TPM's bus would.
 */
#define T_BUS_SECRET	"suspend2 bus check: secret key!!"

static void s2_tpm_round_trip(struct kunit *test)
{
	struct t_tpm *t = test->priv;
	const char *why = NULL;

	static_assert(sizeof(T_BUS_SECRET) - 1 == sizeof(t->secret));
	memcpy(t->secret, T_BUS_SECRET, sizeof(t->secret));
	t_seal(test, t, true);
	t_expect_pcr23_reset(test, t);
	KUNIT_EXPECT_EQ_MSG(test, t_unseal(t, t->blob, t->len, &why), 0,
			    "unsealing: %s", why);
	KUNIT_EXPECT_MEMEQ(test, t->out, t->secret, sizeof(t->secret));
	t_expect_pcr23_reset(test, t);
	/* The wrong boot PCR selection is refused before the TPM unseals. */
	KUNIT_EXPECT_EQ(test, s2_tpm_unseal(t->blob, t->len, BIT(0), t->out,
					    sizeof(t->out), &why),
			-EKEYREJECTED);
}

/* Sealed with the kernel's policy, but made while PCR 23 was not S. */
static void s2_tpm_forged(struct kunit *test)
{
	struct t_tpm *t = test->priv;
	const char *why = NULL;

	t_seal(test, t, false);
	KUNIT_EXPECT_EQ(test, t_unseal(t, t->blob, t->len, &why),
			-EKEYREJECTED);
	KUNIT_EXPECT_TRUE_MSG(test, why && strstr(why, "not made by the kernel"),
			      "reason: %s", why ?: "none");
	KUNIT_EXPECT_MEMNEQ(test, t->out, t->secret, sizeof(t->secret));
	t_expect_pcr23_reset(test, t);
}

static size_t t_append(u8 *to, size_t at, const u8 *p, size_t len)
{
	memcpy(to + at, p, len);
	return at + len;
}

/*
 * A forged object with a genuine object's creation data and ticket: the
 * data says "made in the kernel's state", but the ticket is bound to the
 * genuine object's name, so the TPM does not confirm it.
 */
static void s2_tpm_forged_with_genuine_ticket(struct kunit *test)
{
	struct t_tpm *t = test->priv;
	u8 *genuine = kunit_kzalloc(test, S2_TPM_BLOB_MAX, GFP_KERNEL);
	u8 *mixed = kunit_kzalloc(test, S2_TPM_BLOB_MAX, GFP_KERNEL);
	struct s2_sealed g, f;
	const char *why = NULL;
	size_t glen, n = 0;

	KUNIT_ASSERT_NOT_NULL(test, genuine);
	KUNIT_ASSERT_NOT_NULL(test, mixed);
	t_seal(test, t, true);
	memcpy(genuine, t->blob, t->len);
	glen = t->len;
	t_seal(test, t, false);
	KUNIT_ASSERT_EQ(test, parse_blob(genuine, glen, &g), 0);
	KUNIT_ASSERT_EQ(test, parse_blob(t->blob, t->len, &f), 0);
	n = t_append(mixed, n, f.pub, f.pub_len);
	n = t_append(mixed, n, f.priv, f.priv_len);
	n = t_append(mixed, n, g.cdata, g.cdata_len);
	n = t_append(mixed, n, g.ticket, g.ticket_len);
	KUNIT_EXPECT_EQ(test, t_unseal(t, mixed, n, &why), -EKEYREJECTED);
	KUNIT_EXPECT_TRUE_MSG(test, why && strstr(why, "does not confirm"),
			      "reason: %s", why ?: "none");
	KUNIT_EXPECT_MEMNEQ(test, t->out, t->secret, sizeof(t->secret));
	t_expect_pcr23_reset(test, t);
}

/* Another boot chain: a boot PCR in the policy measured differently. */
static void s2_tpm_other_boot(struct kunit *test)
{
	struct t_tpm *t = test->priv;
	u8 event[SHA256_DIGEST_SIZE] = { 0x42 };
	const char *why = NULL;
	int rc;

	t_seal(test, t, true);
	KUNIT_ASSERT_EQ(test, tpm_try_get_ops(t->chip), 0);
	rc = pcr_extend(t->chip, T_DEBUG_PCR, event);
	tpm_put_ops(t->chip);
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, t_unseal(t, t->blob, t->len, &why),
			-EKEYREJECTED);
	KUNIT_EXPECT_TRUE_MSG(test, why && strstr(why, "other boot measurements"),
			      "reason: %s", why ?: "none");
	KUNIT_EXPECT_MEMNEQ(test, t->out, t->secret, sizeof(t->secret));

	KUNIT_ASSERT_EQ(test, tpm_try_get_ops(t->chip), 0);
	rc = pcr_reset(t->chip, T_DEBUG_PCR);
	tpm_put_ops(t->chip);
	KUNIT_ASSERT_EQ(test, rc, 0);
	/* Measured as at sealing again, the key comes back. */
	KUNIT_EXPECT_EQ_MSG(test, t_unseal(t, t->blob, t->len, &why), 0,
			    "unsealing: %s", why);
	KUNIT_EXPECT_MEMEQ(test, t->out, t->secret, sizeof(t->secret));
}

/*
 * A flipped byte in each part refuses the key, whether the parser, the
 * checks or the TPM catches it; a truncated blob never reaches the TPM.
 * Every size field is among the bytes flipped.
 */
static void s2_tpm_flipped_or_cut(struct kunit *test)
{
	struct t_tpm *t = test->priv;
	u8 *copy = kunit_kzalloc(test, S2_TPM_BLOB_MAX, GFP_KERNEL);
	const char *why = NULL;
	struct s2_sealed s;
	size_t at[16], i, nat = 0;
	int rc;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	t_seal(test, t, true);
	KUNIT_ASSERT_EQ(test, parse_blob(t->blob, t->len, &s), 0);
	/* Each part's size, its first byte and its last byte. */
	at[nat++] = 0;
	at[nat++] = 1;
	at[nat++] = 2;
	at[nat++] = s.pub_len - 1;
	at[nat++] = s.priv - t->blob + 1;
	at[nat++] = s.priv - t->blob + s.priv_len / 2;
	at[nat++] = s.priv - t->blob + s.priv_len - 1;
	at[nat++] = s.cdata - t->blob + 1;
	at[nat++] = s.cdata - t->blob + s.cdata_len / 2;
	at[nat++] = s.cdata - t->blob + s.cdata_len - 1;
	at[nat++] = s.ticket - t->blob;
	at[nat++] = s.ticket - t->blob + 3;
	at[nat++] = t->len - 1;
	for (i = 0; i < nat; i++) {
		memcpy(copy, t->blob, t->len);
		copy[at[i]] ^= 0x01;
		rc = t_unseal(t, copy, t->len, &why);
		KUNIT_EXPECT_NE_MSG(test, rc, 0, "byte %zu flipped", at[i]);
		KUNIT_EXPECT_MEMNEQ(test, t->out, t->secret, sizeof(t->secret));
	}
	for (i = 0; i < t->len; i += 37) {
		rc = t_unseal(t, t->blob, i, &why);
		KUNIT_EXPECT_EQ_MSG(test, rc, -EINVAL, "cut to %zu", i);
	}
	KUNIT_EXPECT_EQ(test, t_unseal(t, t->blob, t->len - 1, &why), -EINVAL);
	KUNIT_EXPECT_EQ(test, t_unseal(t, t->blob, S2_TPM_BLOB_MAX + 1, &why),
			-EINVAL);
	t_expect_pcr23_reset(test, t);
	/* And the untouched blob still opens. */
	KUNIT_EXPECT_EQ_MSG(test, t_unseal(t, t->blob, t->len, &why), 0,
			    "unsealing: %s", why);
}

/*
 * An image sealed to fewer boot PCRs than the kernel's (as root could
 * make on another boot chain, PCR 23 free there) is refused, whatever
 * the image says its PCRs are.
 */
static void s2_tpm_image_fewer_pcrs(struct kunit *test)
{
	struct s2_header_tpm *ht = kunit_kzalloc(test, sizeof(*ht), GFP_KERNEL);
	struct s2_header_crypt *hc = kunit_kzalloc(test, sizeof(*hc), GFP_KERNEL);
	struct s2_image_header *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	struct s2_crypt *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct s2_crypt *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	const char *why = NULL;
	size_t len = 0;
	int rc;

	KUNIT_ASSERT_TRUE(test, ht && hc && h && c && o);
	rc = s2_crypt_new_sealed_image(c, S2_ENC_AES_GCM, S2_TPM_BOOT_PCRS,
				       hc, ht, &why);
	KUNIT_ASSERT_EQ_MSG(test, rc, 0, "sealing: %s", why);
	h->crypt = *hc;
	KUNIT_EXPECT_TRUE(test, s2_crypt_sealed_digest_ok(h, ht));
	rc = s2_crypt_open_sealed_image(o, h, ht, &why);
	KUNIT_EXPECT_EQ_MSG(test, rc, 0, "opening: %s", why);
	KUNIT_EXPECT_MEMEQ(test, o->key, c->key, S2_KEY_LEN);
	KUNIT_EXPECT_EQ(test, s2_crypt_claim_sealed_image(ht, false, &why), 0);

	/* Sealed in the kernel's state, but to PCR 23 alone. */
	memset(ht->blob, 0, sizeof(ht->blob));
	rc = __s2_tpm_seal(c->key, S2_KEY_LEN, 0, true, ht->blob, &len, &why);
	KUNIT_ASSERT_EQ_MSG(test, rc, 0, "sealing: %s", why);
	ht->blob_len = cpu_to_le32(len);
	ht->boot_pcrs = 0;
	KUNIT_EXPECT_EQ(test, s2_crypt_open_sealed_image(o, h, ht, &why),
			-EKEYREJECTED);
	KUNIT_EXPECT_TRUE_MSG(test, why && strstr(why, "other boot PCRs"),
			      "reason: %s", why ?: "none");
	/* Claiming the kernel's PCRs does not make its policy theirs. */
	ht->boot_pcrs = cpu_to_le32(S2_TPM_BOOT_PCRS);
	KUNIT_EXPECT_EQ(test, s2_crypt_open_sealed_image(o, h, ht, &why),
			-EKEYREJECTED);
	KUNIT_EXPECT_TRUE_MSG(test, why && strstr(why, "other boot measurements"),
			      "reason: %s", why ?: "none");
	/* A PCR more than the kernel's. */
	ht->boot_pcrs = cpu_to_le32(S2_TPM_BOOT_PCRS | BIT(10));
	KUNIT_EXPECT_EQ(test, s2_crypt_open_sealed_image(o, h, ht, &why),
			-EKEYREJECTED);
	KUNIT_EXPECT_TRUE_MSG(test, why && strstr(why, "other boot PCRs"),
			      "reason: %s", why ?: "none");
}

/*
 * The image counter: each sealing moves it on; only the newest image is
 * accepted, and once (resuming moves it on again).
 */
static void s2_tpm_counter(struct kunit *test)
{
	const char *why = NULL;
	u64 a = 0, b = 0;

	KUNIT_ASSERT_EQ_MSG(test, s2_tpm_counter_next(&a, &why), 0, "%s", why);
	KUNIT_ASSERT_EQ_MSG(test, s2_tpm_counter_next(&b, &why), 0, "%s", why);
	KUNIT_EXPECT_GT(test, b, a);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(a, false, &why), -EKEYREJECTED);
	KUNIT_EXPECT_TRUE_MSG(test, why && strstr(why, "not the newest"),
			      "reason: %s", why ?: "none");
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b, false, &why), 0);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b, true, &why), 0);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b, false, &why), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b + 1, false, &why), 0);
}

/*
 * Retiring an image moves the counter past it, by one, only while it is
 * the newest: retiring an older one, or the same one again, leaves the
 * counter, and so the newest image, alone.
 */
static void s2_tpm_counter_retires(struct kunit *test)
{
	const char *why = NULL;
	u64 a = 0, b = 0;

	KUNIT_ASSERT_EQ_MSG(test, s2_tpm_counter_next(&a, &why), 0, "%s", why);
	KUNIT_ASSERT_EQ_MSG(test, s2_tpm_counter_next(&b, &why), 0, "%s", why);
	KUNIT_EXPECT_EQ_MSG(test, s2_tpm_counter_retire(a, &why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b, false, &why), 0);
	KUNIT_EXPECT_EQ_MSG(test, s2_tpm_counter_retire(b, &why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b, false, &why), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b + 1, false, &why), 0);
	KUNIT_EXPECT_EQ_MSG(test, s2_tpm_counter_retire(b, &why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b + 1, false, &why), 0);
}

/*
 * Retiring every image moves the counter on by one whatever it reads, so
 * that the newest image, whichever value its header claims, is retired
 * too; once per seal: again before a new seal writes nothing (the retries
 * of an anchor that cannot be cleared), again after one retires it.
 */
static void s2_tpm_counter_retires_all(struct kunit *test)
{
	const char *why = NULL;
	u64 a = 0, b = 0;

	KUNIT_ASSERT_EQ_MSG(test, s2_tpm_counter_next(&a, &why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(a, false, &why), 0);
	KUNIT_EXPECT_EQ_MSG(test, s2_tpm_counter_retire_all(&why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(a, false, &why), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(a + 1, false, &why), 0);
	KUNIT_EXPECT_EQ_MSG(test, s2_tpm_counter_retire_all(&why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(a + 1, false, &why), 0);
	KUNIT_ASSERT_EQ_MSG(test, s2_tpm_counter_next(&b, &why), 0, "%s", why);
	KUNIT_EXPECT_EQ_MSG(test, s2_tpm_counter_retire_all(&why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b, false, &why), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, s2_tpm_counter_claim(b + 1, false, &why), 0);
}

static struct kunit_case s2_tpm_cases[] = {
	KUNIT_CASE(s2_tpm_round_trip),
	KUNIT_CASE(s2_tpm_forged),
	KUNIT_CASE(s2_tpm_forged_with_genuine_ticket),
	KUNIT_CASE(s2_tpm_other_boot),
	KUNIT_CASE(s2_tpm_flipped_or_cut),
	KUNIT_CASE(s2_tpm_image_fewer_pcrs),
	KUNIT_CASE(s2_tpm_counter),
	KUNIT_CASE(s2_tpm_counter_retires),
	KUNIT_CASE(s2_tpm_counter_retires_all),
	{}
};

static struct kunit_suite s2_tpm_suite = {
	.name = "suspend2_tpm",
	.init = t_tpm_init,
	.exit = t_tpm_exit,
	.test_cases = s2_tpm_cases,
};

/*
 * The event log replay (tpm/eventlog.c), on logs built here: no TPM.  A
 * crypto-agile log with a SHA-1 and a SHA-256 bank, events for PCRs 0 and
 * 4, then the zeros an ACPI log area is padded with.
 */
struct t_log {
	u8 buf[512];
	size_t len;
};

static void t_put(struct t_log *l, const void *p, size_t n)
{
	memcpy(l->buf + l->len, p, n);
	l->len += n;
}

static void t_put32(struct t_log *l, u32 v)
{
	__le32 x = cpu_to_le32(v);

	t_put(l, &x, 4);
}

static void t_put16(struct t_log *l, u16 v)
{
	__le16 x = cpu_to_le16(v);

	t_put(l, &x, 2);
}

static void t_log_header(struct t_log *l, u32 nalgs)
{
	static const u8 sha1[TPM_DIGEST_SIZE];

	l->len = 0;
	memset(l->buf, 0, sizeof(l->buf));
	t_put32(l, 0);
	t_put32(l, EV_NO_ACTION_TYPE);
	t_put(l, sha1, sizeof(sha1));
	t_put32(l, 16 + 8 + 4 + 4 * nalgs + 1);
	t_put(l, SPEC_ID_SIGNATURE, 16);
	t_put32(l, 0);			/* platform class */
	t_put32(l, 0x00020000);		/* version 2.0, errata, uintnsize */
	t_put32(l, nalgs);
	t_put16(l, TPM_ALG_SHA1);
	t_put16(l, TPM_DIGEST_SIZE);
	if (nalgs > 1) {
		t_put16(l, TPM_ALG_SHA256);
		t_put16(l, SHA256_DIGEST_SIZE);
	}
	t_put(l, "", 1);		/* vendorInfoSize */
}

static void t_log_event(struct t_log *l, u32 pcr, u32 type, u8 fill)
{
	u8 d[SHA256_DIGEST_SIZE];

	memset(d, fill, sizeof(d));
	t_put32(l, pcr);
	t_put32(l, type);
	t_put32(l, 2);
	t_put16(l, TPM_ALG_SHA1);
	t_put(l, d, TPM_DIGEST_SIZE);
	t_put16(l, TPM_ALG_SHA256);
	t_put(l, d, SHA256_DIGEST_SIZE);
	t_put32(l, 3);
	t_put(l, "abc", 3);
}

static void t_extend(u8 *pcr, u8 fill)
{
	u8 both[2 * SHA256_DIGEST_SIZE];

	memcpy(both, pcr, SHA256_DIGEST_SIZE);
	memset(both + SHA256_DIGEST_SIZE, fill, SHA256_DIGEST_SIZE);
	sha256(both, sizeof(both), pcr);
}

static void s2_tpm_log_replays(struct kunit *test)
{
	struct t_log *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u8 want[SHA256_DIGEST_SIZE] = {}, got[SHA256_DIGEST_SIZE];
	const char *why = NULL;

	KUNIT_ASSERT_NOT_NULL(test, l);
	t_log_header(l, 2);
	t_log_event(l, 4, 13, 0x11);
	t_log_event(l, 0, 8, 0x22);
	t_log_event(l, 4, EV_NO_ACTION_TYPE, 0x33);	/* not extended */
	t_log_event(l, 4, 4, 0x44);
	t_extend(want, 0x11);
	t_extend(want, 0x44);
	/* With and without the padding an ACPI log area has. */
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(l->buf, l->len, 4, got, &why), 0);
	KUNIT_EXPECT_MEMEQ(test, got, want, sizeof(want));
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(l->buf, sizeof(l->buf), 4, got,
						&why), 0);
	KUNIT_EXPECT_MEMEQ(test, got, want, sizeof(want));
}

static void s2_tpm_log_hostile(struct kunit *test)
{
	struct t_log *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u8 got[SHA256_DIGEST_SIZE];
	const char *why = NULL;
	size_t head, cut, ev;

	KUNIT_ASSERT_NOT_NULL(test, l);
	t_log_header(l, 2);
	head = l->len;
	t_log_event(l, 4, 13, 0x11);
	/* Cut anywhere (a header alone is a log without events). */
	for (cut = 0; cut < l->len; cut++)
		KUNIT_EXPECT_EQ_MSG(test, s2_tpm_log_replay(l->buf, cut, 4, got,
							    &why),
				    cut == head ? 0 : -EINVAL, "cut at %zu", cut);
	/* No SHA-256 bank. */
	t_log_header(l, 1);
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(l->buf, l->len, 4, got, &why),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, why && strstr(why, "SHA-256"));
	/*
	 * A digest count above the banks', an algorithm not listed.  An
	 * event: pcr, type, count at 8, SHA-1 at 12, SHA-256 at 34, its
	 * size at 68 and data at 72.
	 */
	t_log_header(l, 2);
	ev = l->len;
	t_log_event(l, 4, 13, 0x11);
	put_unaligned_le32(3, l->buf + ev + 8);
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(l->buf, l->len, 4, got, &why),
			-EINVAL);
	t_log_header(l, 2);
	t_log_event(l, 4, 13, 0x11);
	put_unaligned_le16(0x0012, l->buf + ev + 12);
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(l->buf, l->len, 4, got, &why),
			-EINVAL);
	/* An event size past the end. */
	t_log_header(l, 2);
	t_log_event(l, 4, 13, 0x11);
	put_unaligned_le32(0xfffffff0, l->buf + ev + 68);
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(l->buf, l->len, 4, got, &why),
			-EINVAL);
	/* Zeros where an event should be, then more log. */
	t_log_header(l, 2);
	l->len += 12;
	t_log_event(l, 4, 13, 0x11);
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(l->buf, l->len, 4, got, &why),
			-EINVAL);
	/* SHA-256 listed twice, first with a SHA-1 size: the digest would be short. */
	t_log_header(l, 2);
	put_unaligned_le16(TPM_ALG_SHA256, l->buf + head - 1 - 8);
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(l->buf, l->len, 4, got, &why),
			-EINVAL);
	/* Not a Spec ID header. */
	t_log_header(l, 2);
	l->buf[32] ^= 1;
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(l->buf, l->len, 4, got, &why),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, s2_tpm_log_replay(NULL, 0, 4, got, &why), -EINVAL);
}

/*
 * A TPM that gives no verdict keeps a sealed image (-EAGAIN); a TPM that
 * refuses, or a transport error, is passed on as before.
 */
static void s2_tpm_errors(struct kunit *test)
{
	static const struct { int rc, want; } t[] = {
		{ 0, 0 },
		{ -EIO, -EIO },
		{ -ETIME, -ETIME },
		{ TPM2_RC_INITIALIZE, -EAGAIN },
		{ TPM2_RC_FAILURE, -EAGAIN },
		{ TPM2_RC_UPGRADE, -EAGAIN },
		{ TPM2_RC_TESTING, -EAGAIN },
		{ TPM2_RC_RETRY, -EAGAIN },
		{ 0x921, -EAGAIN },		/* TPM_RC_LOCKOUT */
		{ 9, -EAGAIN },			/* TPM 1.2's TPM_FAIL (QEMU, swtpm gone) */
		{ 0x800, -EAGAIN },		/* TPM 1.2's TPM_RETRY */
		{ 0x128, -EAGAIN },		/* TPM_RC_PCR_CHANGED */
		{ 0x130, -EAGAIN },		/* TPM_RC_REBOOT */
		{ 0x153, -EAGAIN },		/* TPM_RC_NEEDS_TEST */
		{ 0x501, -EAGAIN },		/* a vendor's code */
		{ 0x99d, -EKEYREJECTED },	/* TPM_RC_POLICY_FAIL, session 1 */
		{ 0x18b, -EKEYREJECTED },	/* TPM_RC_HANDLE, handle 1 */
		{ TPM2_RC_COMMAND_CODE, -EKEYREJECTED },
		{ TPM2_RC_DISABLED, -EKEYREJECTED },
		{ 0x80, -EKEYREJECTED },	/* format one, no number */
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		KUNIT_EXPECT_EQ_MSG(test, s2_tpm_errno(t[i].rc), t[i].want,
				    "rc %#x", t[i].rc);
	/* Refusals and malformed blobs decide; the rest leaves it open. */
	KUNIT_EXPECT_FALSE(test, s2_tpm_no_verdict(0));
	KUNIT_EXPECT_FALSE(test, s2_tpm_no_verdict(-EKEYREJECTED));
	KUNIT_EXPECT_FALSE(test, s2_tpm_no_verdict(-EINVAL));
	KUNIT_EXPECT_FALSE(test, s2_tpm_no_verdict(-EBADMSG));
	KUNIT_EXPECT_FALSE(test, s2_tpm_no_verdict(-EOPNOTSUPP));
	KUNIT_EXPECT_TRUE(test, s2_tpm_no_verdict(-EAGAIN));
	KUNIT_EXPECT_TRUE(test, s2_tpm_no_verdict(-ENODEV));
	KUNIT_EXPECT_TRUE(test, s2_tpm_no_verdict(-EIO));
	KUNIT_EXPECT_TRUE(test, s2_tpm_no_verdict(-ETIME));
}

static struct kunit_case s2_tpm_log_cases[] = {
	KUNIT_CASE(s2_tpm_log_replays),
	KUNIT_CASE(s2_tpm_log_hostile),
	KUNIT_CASE(s2_tpm_errors),
	{}
};

static struct kunit_suite s2_tpm_log_suite = {
	.name = "suspend2_tpm_eventlog",
	.test_cases = s2_tpm_log_cases,
};

kunit_test_suites(&s2_tpm_suite, &s2_tpm_log_suite);

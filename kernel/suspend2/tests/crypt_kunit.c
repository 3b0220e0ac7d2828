// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the encryption primitives (crypt/): HKDF-SHA256 against
 * RFC 5869; the key wrap against the known answer hibernate(8)'s libsodium
 * code gives (tests/vectors/wrap-v1.txt), and refused once any byte it
 * depends on changes; both chunk AEADs, in place on the vmalloc'd buffers
 * the pipeline uses and on a linear one, refusing a chunk changed, moved
 * or taken from another image; the header tag over every byte it covers;
 * the keyring lookups when the keys are not there.  The crypt sources are
 * compiled straight into this test module, format.c comes with
 * format_kunit.c.
 */
/* First: they set pr_fmt before any header does. */
#include "../crypt/aead.c"
#include "../crypt/wrap.c"
#include "../crypt/keys.c"
#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/key-type.h>
#include <linux/hex.h>
#include <linux/random.h>
#include <linux/vmalloc.h>

KUNIT_DEFINE_ACTION_WRAPPER(s2_aead_free_action, s2_aead_free,
			    struct s2_aead *);
KUNIT_DEFINE_ACTION_WRAPPER(s2_vfree_action, vfree, const void *);
KUNIT_DEFINE_ACTION_WRAPPER(s2_kfree_action, kfree, const void *);

static u8 *s2_hex(struct kunit *test, const char *hex, size_t len)
{
	u8 *p = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, strlen(hex), 2 * len);
	KUNIT_ASSERT_EQ(test, hex2bin(p, hex, len), 0);
	return p;
}

static void *s2_test_vmalloc(struct kunit *test, size_t size)
{
	void *p = vmalloc(size);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, s2_vfree_action,
							p), 0);
	return p;
}

/* RFC 5869 appendix A, test cases 1 to 3. */
static void s2_hkdf_rfc5869(struct kunit *test)
{
	u8 *ikm = kunit_kzalloc(test, 80, GFP_KERNEL);
	u8 *salt = kunit_kzalloc(test, 80, GFP_KERNEL);
	u8 *info = kunit_kzalloc(test, 80, GFP_KERNEL);
	u8 okm[82];
	int i;

	KUNIT_ASSERT_NOT_NULL(test, ikm);
	KUNIT_ASSERT_NOT_NULL(test, salt);
	KUNIT_ASSERT_NOT_NULL(test, info);

	/* 1: basic. */
	memset(ikm, 0x0b, 22);
	for (i = 0; i < 13; i++)
		salt[i] = i;
	for (i = 0; i < 10; i++)
		info[i] = 0xf0 + i;
	KUNIT_ASSERT_EQ(test, s2_hkdf_sha256(salt, 13, ikm, 22, info, 10, okm,
					     42), 0);
	KUNIT_EXPECT_MEMEQ(test, okm,
			   s2_hex(test,
				  "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865",
				  42), 42);

	/* 2: longer inputs and outputs, three blocks of expansion. */
	for (i = 0; i < 80; i++) {
		ikm[i] = i;
		salt[i] = 0x60 + i;
		info[i] = 0xb0 + i;
	}
	KUNIT_ASSERT_EQ(test, s2_hkdf_sha256(salt, 80, ikm, 80, info, 80, okm,
					     82), 0);
	KUNIT_EXPECT_MEMEQ(test, okm,
			   s2_hex(test,
				  "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87",
				  82), 82);

	/* 3: no salt (HashLen zeros) and no info. */
	memset(ikm, 0x0b, 22);
	KUNIT_ASSERT_EQ(test, s2_hkdf_sha256(NULL, 0, ikm, 22, NULL, 0, okm,
					     42), 0);
	KUNIT_EXPECT_MEMEQ(test, okm,
			   s2_hex(test,
				  "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
				  42), 42);

	/* More than 255 blocks cannot be expanded. */
	KUNIT_EXPECT_EQ(test, s2_hkdf_sha256(NULL, 0, ikm, 22, NULL, 0, okm,
					     255 * SHA256_DIGEST_SIZE + 1),
			-EINVAL);
}

/*
 * tests/vectors/wrap-v1.txt, made with libsodium by the code hibernate(8)
 * unwraps with: the kernel must wrap to the same bytes.
 */
static const struct {
	const char *recipient_secret, *recipient_public, *eph_secret;
	const char *eph_pub, *image_key, *image_id, *auth, *encryption;
	const char *key_scheme, *key_id, *kek, *wrapped_key;
} wrap_v1 = {
	.recipient_secret = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
	.recipient_public = "07a37cbc142093c8b755dc1b10e86cb426374ad16aa853ed0bdfc0b2b86d1c7c",
	.eph_secret = "4142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f60",
	.eph_pub = "64b101b1d0be5a8704bd078f9895001fc03e8e9f9522f188dd128d9846d48466",
	.image_key = "8182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0",
	.image_id = "c1c2c3c4c5c6c7c8c9cacbcccdcecfd0",
	.auth = "2122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f40",
	.encryption = "02000000",
	.key_scheme = "01000000",
	.key_id = "aaa8fff703b50b22",
	.kek = "ca2d45c44eb058f6bd17538a1c77bc5a45a49b0a844fd93dc897f854db6e9c7a",
	.wrapped_key =
		"abd3141b300c69c134f8c1cb662ce941754d3b54d62d6969b1b82ff8a08b8fea1abc699ee6236c1904ae1d6d12e4bb32",
};

/* The vector's owner key: its public key and authentication key. */
static struct s2_owner_key *s2_owner_v1(struct kunit *test)
{
	struct s2_owner_key *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	memcpy(o->pub, s2_hex(test, wrap_v1.recipient_public, S2_KEY_LEN),
	       S2_KEY_LEN);
	memcpy(o->auth, s2_hex(test, wrap_v1.auth, S2_KEY_LEN), S2_KEY_LEN);
	return o;
}

/* The header fields as hibernate(8)'s caller fills them, then the wrap. */
static struct s2_header_crypt *s2_wrap_v1(struct kunit *test)
{
	struct s2_header_crypt *hc = kunit_kzalloc(test, sizeof(*hc),
						   GFP_KERNEL);
	struct s2_owner_key *owner = s2_owner_v1(test);
	const u8 *pub = owner->pub;

	KUNIT_ASSERT_NOT_NULL(test, hc);
	hc->encryption = cpu_to_le32(S2_ENC_CHACHA20_POLY1305);
	hc->key_scheme = cpu_to_le32(S2_KEY_X25519);
	memcpy(hc->image_id, s2_hex(test, wrap_v1.image_id, S2_IMAGE_ID_LEN),
	       S2_IMAGE_ID_LEN);
	s2_crypt_key_id(pub, hc->key_id);
	KUNIT_ASSERT_EQ(test,
			__s2_crypt_wrap(s2_hex(test, wrap_v1.image_key,
					       S2_KEY_LEN),
					s2_hex(test, wrap_v1.eph_secret,
					       S2_KEY_LEN), owner, hc), 0);
	return hc;
}

static void s2_wrap_known_answer(struct kunit *test)
{
	const u8 *secret = s2_hex(test, wrap_v1.recipient_secret, S2_KEY_LEN);
	const u8 *eph = s2_hex(test, wrap_v1.eph_secret, S2_KEY_LEN);
	const u8 *auth = s2_hex(test, wrap_v1.auth, S2_KEY_LEN);
	struct s2_header_crypt *hc = s2_wrap_v1(test);
	u8 pub[S2_KEY_LEN], shared[S2_KEY_LEN], kek[S2_KEY_LEN];
	u8 key[S2_KEY_LEN];

	KUNIT_ASSERT_TRUE(test, curve25519_generate_public(pub, secret));
	KUNIT_EXPECT_MEMEQ(test, pub,
			   s2_hex(test, wrap_v1.recipient_public, S2_KEY_LEN),
			   S2_KEY_LEN);
	KUNIT_EXPECT_MEMEQ(test, &hc->encryption,
			   s2_hex(test, wrap_v1.encryption, 4), 4);
	KUNIT_EXPECT_MEMEQ(test, &hc->key_scheme,
			   s2_hex(test, wrap_v1.key_scheme, 4), 4);
	KUNIT_EXPECT_MEMEQ(test, hc->key_id,
			   s2_hex(test, wrap_v1.key_id, S2_KEY_ID_LEN),
			   S2_KEY_ID_LEN);
	KUNIT_EXPECT_MEMEQ(test, hc->eph_pub,
			   s2_hex(test, wrap_v1.eph_pub, S2_KEY_LEN),
			   S2_KEY_LEN);
	/* The kek on its own, so a mismatch says which step differs. */
	KUNIT_ASSERT_TRUE(test, curve25519(shared, eph, pub));
	KUNIT_ASSERT_EQ(test, s2_wrap_kek(shared, auth, hc, pub, kek), 0);
	KUNIT_EXPECT_MEMEQ(test, kek, s2_hex(test, wrap_v1.kek, S2_KEY_LEN),
			   S2_KEY_LEN);
	KUNIT_EXPECT_MEMEQ(test, hc->wrapped_key,
			   s2_hex(test, wrap_v1.wrapped_key, S2_WRAPPED_LEN),
			   S2_WRAPPED_LEN);
	KUNIT_EXPECT_NULL(test, memchr_inv(hc->index_digest, 0, S2_DIGEST_LEN));

	KUNIT_ASSERT_EQ(test, s2_crypt_unwrap(hc, secret, auth, key), 0);
	KUNIT_EXPECT_MEMEQ(test, key, s2_hex(test, wrap_v1.image_key,
					     S2_KEY_LEN), S2_KEY_LEN);
}

/*
 * Every byte the unwrap depends on: encryption, key_scheme, image_id and
 * key_id through the associated data, eph_pub through the kek, and the
 * wrapped key itself.  The index digest comes after them and is the
 * header tag's business.
 */
static void s2_wrap_tampered(struct kunit *test)
{
	const u8 *secret = s2_hex(test, wrap_v1.recipient_secret, S2_KEY_LEN);
	const u8 *auth = s2_hex(test, wrap_v1.auth, S2_KEY_LEN);
	struct s2_header_crypt *hc = s2_wrap_v1(test);
	u8 *b = (u8 *)hc;
	u8 key[S2_KEY_LEN], other[S2_KEY_LEN];
	size_t i;

	for (i = 0; i < offsetof(struct s2_header_crypt, index_digest); i++) {
		b[i] ^= 0x01;
		KUNIT_EXPECT_EQ_MSG(test, s2_crypt_unwrap(hc, secret, auth, key),
				    -EBADMSG, "byte %zu of the crypt fields changed",
				    i);
		KUNIT_EXPECT_NULL(test, memchr_inv(key, 0, sizeof(key)));
		b[i] ^= 0x01;
	}
	/* Another recipient. */
	memcpy(other, secret, sizeof(other));
	other[7] ^= 0x10;
	KUNIT_EXPECT_EQ(test, s2_crypt_unwrap(hc, other, auth, key), -EBADMSG);
	/*
	 * Another authentication key: the public key alone does not make
	 * an image the owner's passphrase opens.
	 */
	memcpy(other, auth, sizeof(other));
	other[0] ^= 0x01;
	KUNIT_EXPECT_EQ(test, s2_crypt_unwrap(hc, secret, other, key), -EBADMSG);
	KUNIT_EXPECT_EQ(test, s2_crypt_unwrap(hc, secret, auth, key), 0);
}

/* A low-order point makes the shared secret zero whatever eph is. */
static void s2_wrap_unusable_key(struct kunit *test)
{
	struct s2_header_crypt *hc = kunit_kzalloc(test, sizeof(*hc),
						   GFP_KERNEL);
	struct s2_crypt *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct s2_owner_key *zero = kunit_kzalloc(test, sizeof(*zero),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, hc);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_NOT_NULL(test, zero);
	KUNIT_EXPECT_EQ(test, s2_crypt_new_image(c, S2_ENC_AES_GCM, zero, hc),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, c->enc, S2_ENC_NONE);
	KUNIT_EXPECT_NULL(test, memchr_inv(c, 0, sizeof(*c)));
	KUNIT_EXPECT_NULL(test, memchr_inv(hc, 0, sizeof(*hc)));
}

static void s2_wrap_new_image(struct kunit *test)
{
	const u8 *secret = s2_hex(test, wrap_v1.recipient_secret, S2_KEY_LEN);
	struct s2_owner_key *owner = s2_owner_v1(test);
	const u8 *pub = owner->pub, *auth = owner->auth;
	struct s2_header_crypt *hc = kunit_kzalloc(test, 2 * sizeof(*hc),
						   GFP_KERNEL);
	struct s2_crypt *c = kunit_kzalloc(test, 2 * sizeof(*c), GFP_KERNEL);
	u8 key[S2_KEY_LEN], key_id[S2_KEY_ID_LEN];

	KUNIT_ASSERT_NOT_NULL(test, hc);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, s2_crypt_new_image(&c[0], S2_ENC_NONE, owner,
						 &hc[0]), -EINVAL);
	KUNIT_ASSERT_EQ(test, s2_crypt_new_image(&c[0], S2_ENC_AES_GCM, owner,
						 &hc[0]), 0);
	KUNIT_ASSERT_EQ(test, s2_crypt_new_image(&c[1],
						 S2_ENC_CHACHA20_POLY1305, owner,
						 &hc[1]), 0);

	KUNIT_EXPECT_EQ(test, c[0].enc, S2_ENC_AES_GCM);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(hc[0].encryption), S2_ENC_AES_GCM);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(hc[1].encryption),
			S2_ENC_CHACHA20_POLY1305);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(hc[0].key_scheme), S2_KEY_X25519);
	KUNIT_EXPECT_MEMEQ(test, hc[0].image_id, c[0].image_id,
			   S2_IMAGE_ID_LEN);
	s2_crypt_key_id(pub, key_id);
	KUNIT_EXPECT_MEMEQ(test, hc[0].key_id, key_id, S2_KEY_ID_LEN);
	KUNIT_EXPECT_NULL(test, memchr_inv(hc[0].index_digest, 0,
					   S2_DIGEST_LEN));

	KUNIT_ASSERT_EQ(test, s2_crypt_unwrap(&hc[0], secret, auth, key), 0);
	KUNIT_EXPECT_MEMEQ(test, key, c[0].key, S2_KEY_LEN);
	KUNIT_ASSERT_EQ(test, s2_crypt_unwrap(&hc[1], secret, auth, key), 0);
	KUNIT_EXPECT_MEMEQ(test, key, c[1].key, S2_KEY_LEN);

	/* Fresh randomness every time. */
	KUNIT_EXPECT_NE(test, memcmp(c[0].key, c[1].key, S2_KEY_LEN), 0);
	KUNIT_EXPECT_NE(test, memcmp(c[0].image_id, c[1].image_id,
				     S2_IMAGE_ID_LEN), 0);
	KUNIT_EXPECT_NE(test, memcmp(hc[0].eph_pub, hc[1].eph_pub,
				     S2_KEY_LEN), 0);

	s2_crypt_wipe(&c[0]);
	KUNIT_EXPECT_NULL(test, memchr_inv(&c[0], 0, sizeof(c[0])));
}

/* The buffers a chunk is sealed in. */
struct s2_test_buf {
	const char *what;
	bool vmalloced;
	size_t size;
	size_t off;
	u32 len;
};

static const struct s2_test_buf s2_test_bufs[] = {
	{ "vmalloc, 1 page", true, PAGE_SIZE, 0, PAGE_SIZE },
	{ "vmalloc, 31 pages", true, 31 * PAGE_SIZE, 0, 31 * PAGE_SIZE },
	{ "vmalloc, 32 pages", true, S2_CHUNK_BYTES, 0, S2_CHUNK_BYTES },
	/* The most pages a chunk can touch, and parts of pages. */
	{ "vmalloc, 32 pages over 33", true, S2_CHUNK_BYTES + PAGE_SIZE, 100,
	  S2_CHUNK_BYTES },
	{ "vmalloc, 1000 bytes", true, PAGE_SIZE, 3000, 1000 },
	{ "kmalloc, 5000 bytes", false, 5000, 0, 5000 },
	{ "kmalloc, empty", false, 16, 0, 0 },
};

/* @sealed back into @buf, then opened. */
static int s2_test_open(struct s2_aead *a, const struct s2_crypt *c, u64 seq,
			u8 *buf, const u8 *sealed, u32 len, u32 raw_len,
			const u8 *tag)
{
	memcpy(buf, sealed, len);
	return s2_aead_open(a, c, seq, buf, len, raw_len, tag);
}

static void s2_aead_one_buf(struct kunit *test, struct s2_aead *sealer,
			    struct s2_aead *opener, const struct s2_crypt *c,
			    const struct s2_test_buf *tb)
{
	const u64 seq = 7;
	const u32 raw_len = tb->len + 4321;
	struct s2_crypt *other = kunit_kzalloc(test, sizeof(*other),
					       GFP_KERNEL);
	u8 tag[S2_TAG_LEN], bad_tag[S2_TAG_LEN];
	u8 *mem, *buf, *plain, *sealed;
	u32 len = tb->len;
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, other);
	if (tb->vmalloced) {
		mem = s2_test_vmalloc(test, tb->size);
	} else {
		mem = kmalloc(tb->size, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, mem);
		KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
								s2_kfree_action,
								mem), 0);
	}
	buf = mem + tb->off;
	plain = s2_test_vmalloc(test, len + 1);
	sealed = s2_test_vmalloc(test, len + 1);
	get_random_bytes(plain, len);
	memcpy(buf, plain, len);

	KUNIT_ASSERT_EQ_MSG(test, s2_aead_seal(sealer, c, seq, buf, len,
					       raw_len, tag), 0, "%s", tb->what);
	if (len)
		KUNIT_EXPECT_NE_MSG(test, memcmp(buf, plain, len), 0,
				    "%s: not encrypted", tb->what);
	memcpy(sealed, buf, len);
	KUNIT_EXPECT_EQ_MSG(test, s2_aead_open(opener, c, seq, buf, len,
					       raw_len, tag), 0, "%s", tb->what);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, plain, len), 0,
			    "%s: did not decrypt to the plaintext", tb->what);

	/* A changed byte of the ciphertext: first, middle, last. */
	for (i = 0; len && i < 3; i++) {
		size_t at = i == 0 ? 0 : i == 1 ? len / 2 : len - 1;

		memcpy(buf, sealed, len);
		buf[at] ^= 0x01;
		KUNIT_EXPECT_EQ_MSG(test, s2_aead_open(opener, c, seq, buf, len,
						       raw_len, tag),
				    -EBADMSG, "%s: byte %zu changed", tb->what,
				    at);
	}
	/* A changed byte of the tag. */
	for (i = 0; i < S2_TAG_LEN; i += S2_TAG_LEN - 1) {
		memcpy(bad_tag, tag, S2_TAG_LEN);
		bad_tag[i] ^= 0x80;
		KUNIT_EXPECT_EQ_MSG(test, s2_test_open(opener, c, seq, buf,
						       sealed, len, raw_len,
						       bad_tag),
				    -EBADMSG, "%s: tag byte %zu changed",
				    tb->what, i);
	}
	/* Moved in the stream, or told to hold another amount of image. */
	KUNIT_EXPECT_EQ_MSG(test, s2_test_open(opener, c, seq + 1, buf, sealed,
					       len, raw_len, tag),
			    -EBADMSG, "%s: another seq", tb->what);
	KUNIT_EXPECT_EQ_MSG(test, s2_test_open(opener, c, seq, buf, sealed,
					       len, raw_len + 1, tag),
			    -EBADMSG, "%s: another raw_len", tb->what);
	/* From a longer image. */
	*other = *c;
	other->nr_chunks++;
	KUNIT_EXPECT_EQ_MSG(test, s2_test_open(opener, other, seq, buf, sealed,
					       len, raw_len, tag),
			    -EBADMSG, "%s: another nr_chunks", tb->what);
	/* From another image: in the nonce and the AAD, or the AAD alone. */
	*other = *c;
	other->image_id[0] ^= 0x01;
	KUNIT_EXPECT_EQ_MSG(test, s2_test_open(opener, other, seq, buf, sealed,
					       len, raw_len, tag),
			    -EBADMSG, "%s: another image_id[0]", tb->what);
	*other = *c;
	other->image_id[S2_IMAGE_ID_LEN - 1] ^= 0x01;
	KUNIT_EXPECT_EQ_MSG(test, s2_test_open(opener, other, seq, buf, sealed,
					       len, raw_len, tag),
			    -EBADMSG, "%s: another image_id[15]", tb->what);
	/* Still opens when nothing changed. */
	KUNIT_EXPECT_EQ_MSG(test, s2_test_open(opener, c, seq, buf, sealed,
					       len, raw_len, tag),
			    0, "%s: the untouched chunk", tb->what);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, plain, len), 0, "%s", tb->what);
}

static struct s2_crypt *s2_test_crypt(struct kunit *test,
				      enum s2_encryption enc)
{
	struct s2_crypt *c;

	if (!s2_aead_available(enc))
		kunit_skip(test, "%s is not in this kernel", s2_aead_name(enc));
	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->enc = enc;
	get_random_bytes(c->key, sizeof(c->key));
	get_random_bytes(c->image_id, sizeof(c->image_id));
	c->nr_chunks = 1000;
	return c;
}

static struct s2_aead *s2_test_aead(struct kunit *test,
				    const struct s2_crypt *c)
{
	struct s2_aead *a = s2_aead_new(c);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							s2_aead_free_action,
							a), 0);
	return a;
}

/* Sealed by one worker's transform, opened by another's. */
static void s2_aead_check(struct kunit *test, enum s2_encryption enc)
{
	const struct s2_crypt *c = s2_test_crypt(test, enc);
	struct s2_aead *sealer = s2_test_aead(test, c);
	struct s2_aead *opener = s2_test_aead(test, c);
	struct s2_aead *wrong;
	struct s2_crypt *other;
	u8 tag[S2_TAG_LEN];
	u8 *big;
	size_t i;

	kunit_info(test, "%s is %s, %s\n", s2_aead_name(enc),
		   crypto_aead_driver_name(sealer->tfm),
		   crypto_aead_alg(sealer->tfm)->base.cra_flags &
		   CRYPTO_ALG_ASYNC ? "asynchronous" : "synchronous");
	for (i = 0; i < ARRAY_SIZE(s2_test_bufs); i++)
		s2_aead_one_buf(test, sealer, opener, c, &s2_test_bufs[i]);

	/* Under another key: the key is in the transform. */
	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, other);
	*other = *c;
	other->key[3] ^= 0x01;
	wrong = s2_test_aead(test, other);
	memzero_explicit(other, sizeof(*other));
	big = s2_test_vmalloc(test, S2_CHUNK_BYTES + PAGE_SIZE);
	get_random_bytes(big, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, s2_aead_seal(sealer, c, 3, big, PAGE_SIZE, 9,
					   tag), 0);
	KUNIT_EXPECT_EQ(test, s2_aead_open(wrong, c, 3, big, PAGE_SIZE, 9, tag),
			-EBADMSG);

	/* A chunk is never longer than S2_CHUNK_BYTES. */
	KUNIT_EXPECT_EQ(test, s2_aead_seal(sealer, c, 0, big,
					   S2_CHUNK_BYTES + 1, 1, tag),
			-EINVAL);
}

static void s2_aead_aes_gcm(struct kunit *test)
{
	s2_aead_check(test, S2_ENC_AES_GCM);
}

static void s2_aead_chacha20_poly1305(struct kunit *test)
{
	s2_aead_check(test, S2_ENC_CHACHA20_POLY1305);
}

/*
 * cryptd runs every request in a workqueue and completes it through the
 * callback, as AES-NI's simd wrapper does when the FPU is not usable in
 * the caller's context: crypto_wait_req() must wait for it.  Sealed
 * asynchronously, opened by the transform the workers get, and back.
 */
static void s2_aead_async_check(struct kunit *test, enum s2_encryption enc)
{
	const struct s2_crypt *c = s2_test_crypt(test, enc);
	struct s2_aead *plain = s2_test_aead(test, c);
	char name[CRYPTO_MAX_ALG_NAME];
	struct crypto_aead *sync;
	struct s2_aead *async;
	size_t i;

	/* cryptd wraps a synchronous implementation, by its driver name. */
	sync = crypto_alloc_aead(s2_aead_name(enc), 0, CRYPTO_ALG_ASYNC);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sync);
	KUNIT_ASSERT_LT(test, snprintf(name, sizeof(name), "cryptd(%s)",
				       crypto_aead_driver_name(sync)),
			(int)sizeof(name));
	crypto_free_aead(sync);
	async = s2_aead_alloc(c, name);
	if (IS_ERR(async))
		kunit_skip(test, "%s: %pe", name, async);
	kunit_info(test, "through %s\n", name);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, async);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							s2_aead_free_action,
							async), 0);
	KUNIT_ASSERT_TRUE(test, crypto_aead_alg(async->tfm)->base.cra_flags &
			  CRYPTO_ALG_ASYNC);
	for (i = 0; i < ARRAY_SIZE(s2_test_bufs); i++) {
		s2_aead_one_buf(test, async, plain, c, &s2_test_bufs[i]);
		s2_aead_one_buf(test, plain, async, c, &s2_test_bufs[i]);
	}
}

static void s2_aead_async_aes_gcm(struct kunit *test)
{
	s2_aead_async_check(test, S2_ENC_AES_GCM);
}

static void s2_aead_async_chacha20_poly1305(struct kunit *test)
{
	s2_aead_async_check(test, S2_ENC_CHACHA20_POLY1305);
}

static void s2_aead_no_cipher(struct kunit *test)
{
	struct s2_crypt c = { .enc = S2_ENC_NONE };

	KUNIT_EXPECT_TRUE(test, s2_aead_available(S2_ENC_NONE));
	KUNIT_EXPECT_FALSE(test, s2_aead_available(S2_NR_ENC));
	KUNIT_EXPECT_EQ(test, PTR_ERR(s2_aead_new(&c)), -EINVAL);
}

/* Every byte the header tag covers, and the tag itself. */
static void s2_header_tag_check(struct kunit *test, enum s2_encryption enc)
{
	struct s2_crypt *c = s2_test_crypt(test, enc);
	struct s2_crypt *other = kunit_kzalloc(test, sizeof(*other),
					       GFP_KERNEL);
	struct s2_image_header *h = kunit_kzalloc(test, sizeof(*h),
						  GFP_KERNEL);
	u8 *b = (u8 *)h;
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_ASSERT_NOT_NULL(test, h);
	get_random_bytes(h, sizeof(*h));
	memset(h->header_tag, 0, S2_TAG_LEN);
	KUNIT_ASSERT_EQ(test, s2_crypt_header_seal(c, h), 0);
	KUNIT_EXPECT_NOT_NULL(test, memchr_inv(h->header_tag, 0, S2_TAG_LEN));
	KUNIT_ASSERT_EQ(test, s2_crypt_header_verify(c, h), 0);

	for (i = 0; i < S2_HEADER_AAD_LEN + S2_TAG_LEN; i++) {
		b[i] ^= 0x01;
		KUNIT_EXPECT_EQ_MSG(test, s2_crypt_header_verify(c, h), -EBADMSG,
				    "header byte %zu changed", i);
		b[i] ^= 0x01;
	}
	/* The crc is not covered: it is computed after the tag. */
	h->header_crc ^= cpu_to_le32(1);
	KUNIT_EXPECT_EQ(test, s2_crypt_header_verify(c, h), 0);

	*other = *c;
	other->key[0] ^= 0x01;
	KUNIT_EXPECT_EQ(test, s2_crypt_header_verify(other, h), -EBADMSG);
	*other = *c;
	other->image_id[1] ^= 0x01;
	KUNIT_EXPECT_EQ(test, s2_crypt_header_verify(other, h), -EBADMSG);
	memzero_explicit(other, sizeof(*other));
	KUNIT_EXPECT_EQ(test, s2_crypt_header_verify(c, h), 0);
}

static void s2_header_tag_aes_gcm(struct kunit *test)
{
	s2_header_tag_check(test, S2_ENC_AES_GCM);
}

static void s2_header_tag_chacha20_poly1305(struct kunit *test)
{
	s2_header_tag_check(test, S2_ENC_CHACHA20_POLY1305);
}

/*
 * The keyring lookups, in this kthread whose keyrings hold no suspend2
 * key: refused in the words the cycle reports.
 */
static void s2_keys_missing(struct kunit *test)
{
	struct s2_image_header *h = kunit_kzalloc(test, sizeof(*h),
						  GFP_KERNEL);
	struct s2_crypt *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const char *why = NULL;
	struct s2_owner_key owner;
	char text[256];

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_owner_key("keyring:s2-kunit-none",
						     &owner, text, sizeof(text)),
			-ENOKEY);
	KUNIT_EXPECT_STREQ(test, text,
			   "no owner key suspend2:s2-kunit-none in the keyring (hibernate loads it)");
	KUNIT_EXPECT_EQ(test, s2_crypt_get_owner_key("keyring:", &owner, text,
						     sizeof(text)), -EINVAL);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_owner_key("tpm", &owner, text,
						     sizeof(text)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, text, "key tpm is not keyring:NAME");

	get_random_bytes(h->crypt.image_id, S2_IMAGE_ID_LEN);
	h->crypt.encryption = cpu_to_le32(S2_ENC_AES_GCM);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_image_key(c, h, &why), -ENOKEY);
	KUNIT_EXPECT_STREQ(test, why,
			   "image is encrypted and no key for it was given");
	KUNIT_EXPECT_EQ(test, c->enc, S2_ENC_NONE);
}

/*
 * A thread keyring for this test's thread, as the one hibernate(8)'s
 * process keyring is for the cycle: request_key() searches it.
 */
struct s2_test_keys {
	const struct cred *old;
	struct cred *cred;
	struct key *keyring;
};

static void s2_test_keys_end(void *data)
{
	struct s2_test_keys *k = data;

	revert_creds(k->old);
	put_cred(k->cred);
}

static struct s2_test_keys *s2_test_keys(struct kunit *test)
{
	struct s2_test_keys *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, k->cred);
	k->keyring = keyring_alloc("s2-kunit", GLOBAL_ROOT_UID, GLOBAL_ROOT_GID,
				   k->cred, KEY_POS_ALL, KEY_ALLOC_NOT_IN_QUOTA,
				   NULL, NULL);
	if (IS_ERR(k->keyring)) {
		put_cred(k->cred);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, k->keyring);
	}
	/* put_cred() puts the keyring. */
	k->cred->thread_keyring = k->keyring;
	k->old = override_creds(k->cred);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, s2_test_keys_end,
							k), 0);
	return k;
}

static struct key *s2_test_add_key(struct kunit *test, struct s2_test_keys *k,
				   const char *type, const char *desc,
				   const void *payload, size_t len)
{
	key_ref_t ref = key_create_or_update(make_key_ref(k->keyring, true),
					     type, desc, payload, len,
					     KEY_POS_ALL, KEY_ALLOC_NOT_IN_QUOTA);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ref), "cannot add %s key %s: %ld",
			       type, desc, PTR_ERR(ref));
	return key_ref_to_ptr(ref);
}

static void s2_keys_owner(struct kunit *test)
{
	struct s2_test_keys *k = s2_test_keys(test);
	struct s2_owner_key *want = s2_owner_v1(test);
	struct s2_owner_key got;
	struct key *key;
	char why[256];

	key = s2_test_add_key(test, k, "logon", "suspend2:laptop", want,
			      sizeof(*want));
	KUNIT_EXPECT_EQ(test, s2_crypt_get_owner_key("keyring:laptop", &got,
						     why, sizeof(why)), 0);
	KUNIT_EXPECT_MEMEQ(test, &got, want, sizeof(got));
	/* Looked up, not used up: the next cycle finds it again. */
	KUNIT_EXPECT_EQ(test, s2_crypt_get_owner_key("keyring:laptop", &got,
						     why, sizeof(why)), 0);
	/* The search passes over a revoked key: as good as none. */
	key_revoke(key);
	key_put(key);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_owner_key("keyring:laptop", &got,
						     why, sizeof(why)), -ENOKEY);
	KUNIT_EXPECT_STREQ(test, why,
			   "no owner key suspend2:laptop in the keyring (hibernate loads it)");

	/* A user key of the name is not looked at: only a logon key. */
	key = s2_test_add_key(test, k, "user", "suspend2:user", want,
			      sizeof(*want));
	key_put(key);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_owner_key("keyring:user", &got, why,
						     sizeof(why)), -ENOKEY);

	key = s2_test_add_key(test, k, "logon", "suspend2:short", want,
			      S2_KEY_LEN);
	key_put(key);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_owner_key("keyring:short", &got, why,
						     sizeof(why)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "owner key suspend2:short is not 64 bytes");
}

/* A key another user could plant in a shared session keyring. */
static void s2_keys_not_roots(struct kunit *test)
{
	struct s2_test_keys *k = s2_test_keys(test);
	struct s2_owner_key *want = s2_owner_v1(test);
	struct s2_owner_key got;
	struct key *key;
	char why[256];
	int error;

	key = key_alloc(&key_type_logon, "suspend2:planted", KUIDT_INIT(1000),
			KGIDT_INIT(1000), current_cred(), KEY_POS_ALL | KEY_USR_ALL,
			KEY_ALLOC_NOT_IN_QUOTA, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, key);
	error = key_instantiate_and_link(key, want, sizeof(*want), k->keyring,
					 NULL);
	KUNIT_ASSERT_EQ(test, error, 0);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_owner_key("keyring:planted", &got,
						     why, sizeof(why)),
			-EKEYREJECTED);
	KUNIT_EXPECT_STREQ(test, why, "owner key suspend2:planted is not root's");
	key_put(key);
}

static void s2_keys_image(struct kunit *test)
{
	struct s2_test_keys *k = s2_test_keys(test);
	struct s2_image_header *h = kunit_kzalloc(test, sizeof(*h),
						  GFP_KERNEL);
	struct s2_crypt *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const u8 *image_key = s2_hex(test, wrap_v1.image_key, S2_KEY_LEN);
	const char *why = NULL;
	struct key *key;

	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_NOT_NULL(test, c);
	memcpy(h->crypt.image_id, s2_hex(test, wrap_v1.image_id,
					 S2_IMAGE_ID_LEN), S2_IMAGE_ID_LEN);
	h->crypt.encryption = cpu_to_le32(S2_ENC_CHACHA20_POLY1305);
	h->nr_chunks = cpu_to_le64(1234);

	/* The name hibernate(8) gives it: the image id in lowercase hex. */
	key = s2_test_add_key(test, k, "logon",
			      "suspend2:img:c1c2c3c4c5c6c7c8c9cacbcccdcecfd0",
			      image_key, S2_KEY_LEN);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_image_key(c, h, &why), 0);
	KUNIT_EXPECT_EQ(test, c->enc, S2_ENC_CHACHA20_POLY1305);
	KUNIT_EXPECT_MEMEQ(test, c->key, image_key, S2_KEY_LEN);
	KUNIT_EXPECT_MEMEQ(test, c->image_id, h->crypt.image_id,
			   S2_IMAGE_ID_LEN);
	KUNIT_EXPECT_EQ(test, c->nr_chunks, 1234);
	/* Used once: invalidated, so a second look finds nothing. */
	KUNIT_EXPECT_TRUE(test, test_bit(KEY_FLAG_INVALIDATED, &key->flags));
	key_put(key);
	s2_crypt_wipe(c);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_image_key(c, h, &why), -ENOKEY);
	KUNIT_EXPECT_STREQ(test, why,
			   "image is encrypted and no key for it was given");

	key = s2_test_add_key(test, k, "logon",
			      "suspend2:img:c1c2c3c4c5c6c7c8c9cacbcccdcecfd0",
			      image_key, 16);
	key_put(key);
	KUNIT_EXPECT_EQ(test, s2_crypt_get_image_key(c, h, &why), -EINVAL);
	KUNIT_EXPECT_STREQ(test, why, "the image key given is not 32 bytes");
	KUNIT_EXPECT_EQ(test, c->enc, S2_ENC_NONE);
}

/*
 * What s2_aead_workspace_bytes() says an AEAD takes bounds what can be
 * seen of it: our structures, the transform and its context, the request
 * and the algorithm's part of it.
 */
static void s2_aead_sizes(struct kunit *test)
{
	enum s2_encryption enc;

	KUNIT_EXPECT_EQ(test, s2_aead_workspace_bytes(S2_ENC_NONE), 0UL);
	for (enc = S2_ENC_AES_GCM; enc < S2_NR_ENC; enc++) {
		struct s2_crypt *c;
		struct s2_aead *a;
		size_t seen;

		if (!s2_aead_available(enc))
			continue;
		c = s2_test_crypt(test, enc);
		a = s2_test_aead(test, c);
		seen = sizeof(*a) + sizeof(*a->scratch) + sizeof(*a->tfm) +
		       crypto_aead_alg(a->tfm)->base.cra_ctxsize +
		       sizeof(*a->req) + crypto_aead_reqsize(a->tfm);
		kunit_info(test, "%s (%s): %zu bytes seen, %zu counted\n",
			   s2_aead_name(enc), crypto_aead_driver_name(a->tfm),
			   seen, s2_aead_workspace_bytes(enc));
		KUNIT_EXPECT_LE(test, seen, s2_aead_workspace_bytes(enc));
	}
}

static struct kunit_case s2_crypt_cases[] = {
	KUNIT_CASE(s2_aead_sizes),
	KUNIT_CASE(s2_hkdf_rfc5869),
	KUNIT_CASE(s2_wrap_known_answer),
	KUNIT_CASE(s2_wrap_tampered),
	KUNIT_CASE(s2_wrap_unusable_key),
	KUNIT_CASE(s2_wrap_new_image),
	KUNIT_CASE(s2_aead_aes_gcm),
	KUNIT_CASE(s2_aead_chacha20_poly1305),
	KUNIT_CASE(s2_aead_async_aes_gcm),
	KUNIT_CASE(s2_aead_async_chacha20_poly1305),
	KUNIT_CASE(s2_aead_no_cipher),
	KUNIT_CASE(s2_header_tag_aes_gcm),
	KUNIT_CASE(s2_header_tag_chacha20_poly1305),
	KUNIT_CASE(s2_keys_missing),
	KUNIT_CASE(s2_keys_owner),
	KUNIT_CASE(s2_keys_not_roots),
	KUNIT_CASE(s2_keys_image),
	{}
};

static struct kunit_suite s2_crypt_suite = {
	.name = "suspend2_crypt",
	.test_cases = s2_crypt_cases,
};

kunit_test_suite(s2_crypt_suite);

# Sourced by boot1 once the sealed test image is rearmed on /dev/vda and
# saved in /tmp/pristine: attacker A1 of docs/tpm-lockdown.md, root on
# the running (locked-down) system, with tpm2-tools on /dev/tpmrm0.
#
# pcr23-tpm2-tools-refused: root cannot bring PCR 23 into the kernel's
# state: extend, event and reset of PCR 23 fail with EPERM (kernel patch
# 0004), PCR 23 unchanged, while the same extend of PCR 16 works.
#
# forged-tpm2-tools-refused: root seals a key of its own choosing under
# the kernel's storage key (same template, so the same name) with the
# kernel's policy (the boot PCRs as they are, PCR 23 = S) and the same
# creation PCR selection, puts it in the image (s2img sealput: every crc
# and digest right, only the header tag, keyed with the image key root
# does not have, stays the genuine image's) and asks for a resume.  The
# forged object differs from the kernel's only in what the creation data
# recorded for PCR 23, so the refusal must be the creation check's, made
# before anything is unsealed.  A forgery tpm2-tools did not complete
# proves nothing: then the result is FAIL, not PASS.
export TPM2TOOLS_TCTI=device:/dev/tpmrm0
fdir=/tmp/forge
rm -rf $fdir
mkdir -p $fdir
flog=$fdir/log
: > $flog

# forge_run CMD...: CMD with its output in the log; after the first
# failure nothing more runs and forge_fail says what failed.
forge_fail=
forge_run() {
	[ -z "$forge_fail" ] || return 1
	echo "# $*" >> $flog
	"$@" >> $flog 2>&1 && return 0
	forge_fail="'$*' failed: $(tail -n 3 $flog | tr '\n' ' ')"
	return 1
}
# be16 FILE OFFSET: the big-endian u16 there (TPM2B sizes).
be16() {
	od -An -tu1 -j "$2" -N 2 "$1" | awk '{ print $1 * 256 + $2 }'
}
# cut_bytes FILE OFFSET COUNT > OUT
cut_bytes() {
	dd if="$1" bs=1 skip="$2" count="$3" 2>/dev/null
}
hex() {
	od -An -tx1 -v "$@" | tr -d ' \n'
}

if ! command -v tpm2_create > /dev/null; then
	result pcr23-tpm2-tools-refused FAIL "no tpm2-tools in the initramfs (the host needs tpm2-tools: make deps)"
	result forged-tpm2-tools-refused FAIL "no tpm2-tools in the initramfs: no forgery made"
	return 0
fi

# --- PCR 23 stays the kernel's ----------------------------------------
blot=$(printf 'root wants PCR 23' | sha256sum | cut -d' ' -f1)
tpm2_pcrread sha256:16,23 -o $fdir/before.bin > /dev/null 2>&1
tpm2_pcrextend "16:sha256=$blot" > $fdir/pcr16.out 2>&1
pcr16=$?
tpm2_pcrread sha256:16,23 -o $fdir/after16.bin > /dev/null 2>&1
echo "$blot" > $fdir/event.in
bad=
for op in "tpm2_pcrextend 23:sha256=$blot" "tpm2_pcrevent $fdir/event.in 23" \
	  "tpm2_pcrreset 23"; do
	# shellcheck disable=SC2086
	if $op > $fdir/op.out 2>&1; then
		bad="$bad '$op' succeeded;"
	elif ! grep -q 'Operation not permitted' $fdir/op.out; then
		bad="$bad '$op' failed without EPERM: $(tail -n 2 $fdir/op.out | tr '\n' ' ');"
	fi
done
tpm2_pcrread sha256:16,23 -o $fdir/after.bin > /dev/null 2>&1
pcr23_before=$(cut_bytes $fdir/before.bin 32 32 | hex)
pcr23_after=$(cut_bytes $fdir/after.bin 32 32 | hex)
if [ $pcr16 != 0 ] || cmp -s $fdir/before.bin $fdir/after16.bin; then
	result pcr23-tpm2-tools-refused FAIL "control: tpm2_pcrextend of PCR 16 did not work: $(tail -n 2 $fdir/pcr16.out | tr '\n' ' ')"
elif [ -n "$bad" ] || [ -z "$pcr23_after" ] ||
     [ "$pcr23_before" != "$pcr23_after" ]; then
	result pcr23-tpm2-tools-refused FAIL "$bad PCR 23 ${pcr23_before:-?} -> ${pcr23_after:-?}"
else
	result pcr23-tpm2-tools-refused PASS "tpm2_pcrextend, tpm2_pcrevent, tpm2_pcrreset of PCR 23 on /dev/tpmrm0 failed with EPERM, PCR 23 still ${pcr23_after%"${pcr23_after#????????}"}...; tpm2_pcrextend of PCR 16 worked"
fi

# --- the forgery ------------------------------------------------------
# S, the value PCR 23 has while the kernel seals (tpm/seal.c,
# kernel_state_value()): extend(0, SHA-256("suspend2 image key v1")).
label=$(printf 'suspend2 image key v1' | sha256sum | cut -d' ' -f1)
{ head -c 32 /dev/zero; echo "$label" | xxd -r -p; } | sha256sum |
	cut -d' ' -f1 | xxd -r -p > $fdir/S.bin
# The kernel's storage key: TPM2_CreatePrimary in the owner hierarchy
# with its template (create_primary()): ECC NIST P-256, no scheme, no
# KDF, AES-128-CFB, its attributes, empty unique.
forge_run tpm2_createprimary -C o -g sha256 -G ecc256:aes128cfb \
	-a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda|restricted|decrypt' \
	-c $fdir/srk.ctx
forge_run tpm2_readpublic -c $fdir/srk.ctx -n $fdir/srk.name
# The kernel's policy: PolicyPCR over the boot PCRs (S2_TPM_BOOT_PCRS) as
# they are now and PCR 23 = S, which tpm2_createpolicy takes as given.
forge_run tpm2_pcrread sha256:0,2,4,7,8,9,12 -o $fdir/boot.bin
cat $fdir/boot.bin $fdir/S.bin > $fdir/pcrvalues.bin
forge_run tpm2_createpolicy --policy-pcr -l sha256:0,2,4,7,8,9,12,23 \
	-f $fdir/pcrvalues.bin -L $fdir/policy.dat
# Root's own image key, sealed like the kernel's: a keyed-hash data
# object with the kernel's attributes (S2_SEALED_ATTRS), the policy, and
# creation data over the same PCRs; then loaded under the storage key,
# which shows the TPM takes it as a well-made object of that parent.
head -c 32 /dev/urandom > $fdir/key.bin
forge_run tpm2_create -C $fdir/srk.ctx -g sha256 -a 'fixedtpm|fixedparent|noda' \
	-L $fdir/policy.dat -i $fdir/key.bin -l sha256:0,2,4,7,8,9,12,23 \
	-u $fdir/forged.pub -r $fdir/forged.priv \
	--creation-data $fdir/forged.cdata --creation-ticket $fdir/forged.ticket \
	--creation-hash $fdir/forged.chash
forge_run tpm2_load -C $fdir/srk.ctx -u $fdir/forged.pub -r $fdir/forged.priv \
	-c $fdir/forged.ctx
# The kernel's blob layout (tpm/seal.c, parse_blob()): TPM2B_PUBLIC,
# TPM2B_PRIVATE, TPM2B_CREATION_DATA, TPMT_TK_CREATION; no creation hash.
[ -n "$forge_fail" ] ||
	cat $fdir/forged.pub $fdir/forged.priv $fdir/forged.cdata \
		$fdir/forged.ticket > $fdir/forged.blob
forge_run s2img sealget /dev/vda $fdir/genuine.blob

# Compare with the kernel's own blob.  Public area: type, nameAlg,
# attributes and policy (bytes 2 to 43) must be the same, or the kernel
# would refuse it as "not one the kernel makes" or for "other boot
# measurements".  Creation data (after both TPM2Bs): the PCR selection
# (10 bytes), the PCR digest (TPM2B, 32 bytes), locality, parent name
# algorithm, parent name (TPM2B), parent qualified name, outside info;
# the kernel refuses all of them with the one message the attack
# expects, so all but the PCR digest must be the kernel's, byte for
# byte: then only PCR 23's record can have refused it.
cdata_at() {
	_p=$((2 + $(be16 "$1" 0)))
	echo $((_p + 2 + $(be16 "$1" $_p)))
}
why=
if [ -z "$forge_fail" ]; then
	for b in genuine forged; do
		c=$(cdata_at $fdir/$b.blob)
		cut_bytes $fdir/$b.blob 2 42 > $fdir/$b.head
		cut_bytes $fdir/$b.blob $((c + 2)) 10 > $fdir/$b.sel
		cut_bytes $fdir/$b.blob $((c + 14)) 32 > $fdir/$b.digest
		cut_bytes $fdir/$b.blob $((c + 51)) "$(be16 $fdir/$b.blob $((c + 49)))" \
			> $fdir/$b.parent
		clen=$((2 + $(be16 $fdir/$b.blob $c)))
		{ cut_bytes $fdir/$b.blob $c 14
		  cut_bytes $fdir/$b.blob $((c + 46)) $((clen - 46)); } > $fdir/$b.cmask
	done
	cut_bytes $fdir/genuine.blob 12 32 > $fdir/genuine.policy
	# What the creation data must record: the boot PCRs and S, and what
	# the TPM recorded for root: the boot PCRs and PCR 23 as it was.
	cat $fdir/boot.bin $fdir/S.bin | sha256sum | cut -d' ' -f1 > $fdir/want
	{ cat $fdir/boot.bin; cut_bytes $fdir/after.bin 32 32; } | sha256sum |
		cut -d' ' -f1 > $fdir/got
	if ! cmp -s $fdir/srk.name $fdir/genuine.parent; then
		why="storage key name $(hex $fdir/srk.name) is not the kernel's parent $(hex $fdir/genuine.parent)"
	elif ! cmp -s $fdir/policy.dat $fdir/genuine.policy; then
		why="policy $(hex $fdir/policy.dat) is not the kernel's $(hex $fdir/genuine.policy)"
	elif ! cmp -s $fdir/genuine.head $fdir/forged.head ||
	     ! cmp -s $fdir/genuine.sel $fdir/forged.sel ||
	     ! cmp -s $fdir/forged.parent $fdir/genuine.parent ||
	     ! cmp -s $fdir/forged.cmask $fdir/genuine.cmask; then
		why="the forged object's public area or creation data differ from the kernel's in more than PCR 23's record (creation data but the digest: kernel's $(hex $fdir/genuine.cmask), root's $(hex $fdir/forged.cmask))"
	elif [ "$(hex $fdir/genuine.digest)" != "$(cat $fdir/want)" ] ||
	     [ "$(hex $fdir/forged.digest)" != "$(cat $fdir/got)" ]; then
		why="creation PCR digests not as expected: kernel's $(hex $fdir/genuine.digest), want $(cat $fdir/want); root's $(hex $fdir/forged.digest), want $(cat $fdir/got)"
	fi
fi
name=$(hex $fdir/srk.name 2>/dev/null)
if [ -n "$forge_fail" ]; then
	result forged-tpm2-tools-refused FAIL "tpm2-tools could not make the forgery, so it proves nothing: $forge_fail"
elif [ -n "$why" ]; then
	result forged-tpm2-tools-refused FAIL "the forgery is not the kernel's object but for PCR 23: $why"
else
	tampered forged-tpm2-tools-refused "sealput /dev/vda $fdir/forged.blob" \
		'sealed key not made by the kernel \(PCR 23 not in its state at creation\)' \
		"tpm2_createprimary, tpm2_readpublic, tpm2_pcrread, tpm2_createpolicy, tpm2_create, tpm2_load all succeeded; storage key name ${name%"${name#????????????}"}... = the kernel's parent; policy $(hex $fdir/policy.dat | cut -c1-12)... = the kernel's; $(wc -c < $fdir/forged.blob)-byte blob, its creation data differing only in the PCR digest (PCR 23 $(cut_bytes $fdir/after.bin 32 4 | hex)..., not S)"
fi
# The rest of the boot hibernates: the ~20 MiB of tpm2-tools and their
# libraries would only make its image bigger.
rm -rf $fdir /usr/bin/tpm2 /usr/bin/tpm2_* /lib/x86_64-linux-gnu

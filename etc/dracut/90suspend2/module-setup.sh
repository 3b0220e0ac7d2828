#!/bin/bash
# dracut module of suspend2: the hibernate command, the module, the
# resume settings, the key files of encrypted images (/etc/suspend2/keys),
# the TPM 2.0 drivers for images sealed to the TPM and a pre-mount hook
# that resumes a suspend2 image before the root filesystem is mounted.
# Same settings as the initramfs-tools integration: /etc/hibernate.conf,
# /etc/default/suspend2.

check() {
	require_binaries hibernate || return 1
	[ -r /etc/hibernate.conf ] || return 1
	return 0
}

depends() {
	return 0
}

installkernel() {
	hostonly='' instmods suspend2
	# An encrypted image's AEAD, asked for by name (no dependency brings
	# it); instmods skips what this kernel has built in.
	hostonly='' instmods gcm ghash-generic aesni-intel aes-generic \
		chacha20poly1305 chacha-x86_64 chacha-generic poly1305-x86_64 \
		poly1305-generic libcurve25519 libchacha20poly1305 hmac \
		sha256-generic
	# The compressors, asked for by name too; all of them, as the resume
	# goes by the image's header, not by hibernate.conf.
	hostonly='' instmods lzo lz4 lz4hc zstd deflate
	# The ACPI button driver, loaded before the resume (the initramfs-
	# tools hook says why).
	hostonly='' instmods button
	# The TPM 2.0 drivers, for an image whose key the kernel sealed to
	# the TPM (key = tpm), whatever hibernate.conf says: --set key=tpm
	# seals one too and the resume goes by the image's header.  Small,
	# and loaded only for a TPM that is there; built in: skipped.
	hostonly='' instmods tpm tpm_tis_core tpm_tis tpm_crb tpm_tis_spi
}

install() {
	inst_binary "$(command -v hibernate)" /sbin/hibernate
	inst_simple /etc/hibernate.conf
	[ -r /etc/default/suspend2 ] && inst_simple /etc/default/suspend2
	local f
	# Only NAME.pub and NAME.sec, never the owner authentication key
	# NAME.auth: whoever reads it can write an image that resumes.
	for f in /etc/suspend2/keys/*.pub /etc/suspend2/keys/*.sec; do
		[ -f "$f" ] && inst_simple "$f"
	done
	[ -d "$initdir/etc/suspend2/keys" ] && chmod 0700 "$initdir/etc/suspend2/keys"
	inst_hook pre-mount 10 "$moddir/suspend2-resume.sh"
}

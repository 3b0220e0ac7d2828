# Shared by the boots: the configuration the CLI reads.
CONF=/etc/hibernate.conf
MOD=/lib/suspend2/suspend2.ko
write_conf() {
	cat > $CONF <<'EOC'
# cli-cycle: the image goes to /dev/vda
[default]
target = /dev/vda
compressor = lzo

[vm]
compressor = lz4
io_depth = 32
encryption = aes-gcm
key = keyring:vm
EOC
	printf 'the right passphrase\n' > /tmp/pass
	chmod 600 /tmp/pass
}
# The key files, from boot 1 to the next boots' "initramfs" (/dev/vdb).
save_keys() {
	# As the initramfs hooks copy them: the public and sealed keys, never
	# NAME.auth, which resuming does not need.
	tar -c -C /etc/suspend2 keys/vm.pub keys/vm.sec > /dev/vdb
}
load_keys() {
	mkdir -p /etc/suspend2 && tar -x -C /etc/suspend2 < /dev/vdb
}

# Shared by both boots: the configuration the hibernate command reads.
CONF=/etc/hibernate.conf
MOD=/lib/suspend2/suspend2.ko
write_conf() {
	cat > $CONF <<'EOC'
[default]
target = /dev/vda

[demo]
compressor = lz4
checksum = crc32c
powerdown = shutdown
EOC
}

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
EOC
}

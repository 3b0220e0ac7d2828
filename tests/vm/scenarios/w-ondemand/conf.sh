# Shared by the boots: the configuration the command reads.
CONF=/etc/hibernate.conf
MOD=/lib/suspend2/suspend2.ko
# write_conf [RESUME_LOCATION]
write_conf() {
	cat > $CONF <<EOC
[default]
writer = swapfile
target = /mnt/swapfile
swap_on_demand = yes
compressor = lz4
${1:+resume_location = $1}
EOC
}

cfs=/sys/kernel/config/suspend2
CONF=/tmp/hibernate.conf
cat > $CONF <<'EOC'
[default]
target = /dev/vda
module = /lib/suspend2/suspend2.ko
compressor = lz4
EOC

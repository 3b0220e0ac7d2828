# The fault layer of this scenario: /dev/mapper/s2t over /dev/vda, whose
# first page (the anchor) can fail or drop every write.
cfs=/sys/kernel/config/suspend2
t=/dev/mapper/s2t
sectors=$(cat /sys/block/vda/size)
linear="0 $sectors linear /dev/vda 0"

# anchor_fault FEATURE: error_writes (EIO) or drop_writes (reported done,
# never written) on the first page; the rest of vda passed through.
anchor_fault() {
	echo "0 8 flakey /dev/vda 0 0 1 1 $1; 8 $((sectors - 8)) linear /dev/vda 8"
}

# has_image: the anchor on the medium says there is an image.
has_image() {
	s2img info $t > /dev/null 2>&1
}

conf() {
	cat > /tmp/hibernate.conf <<-EOC
	[default]
	target = $t
	module = /lib/suspend2/suspend2.ko
	compressor = lz4
	EOC
}

profile() {
	s2_profile vm writer=swap target=$t compressor=lz4
}

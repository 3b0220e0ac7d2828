# Sourced by the conf.sh of f-endurance and s2-endurance.
swap_conf

# kernel_code: where this boot's kernel sits in physical memory, for the
# host check that KASLR put the boot kernels elsewhere than the image's
# (s2-endurance/host-check).
kernel_code() {
	say "kernel code at $(sed -n 's/^ *\([0-9a-f]*\)-[0-9a-f]* : Kernel code$/\1/p' /proc/iomem)"
}

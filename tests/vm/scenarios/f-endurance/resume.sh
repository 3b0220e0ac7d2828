# The boots after boot 1 of f-endurance and s2-endurance, sourced after
# their conf.sh: resume the image; boot 1's script carries on.
kernel_code
hibernate --resume -c $CONF > /tmp/out 2>&1
rc=$?
n=$(sed -n 's/.*s2\.boot=\([0-9]*\).*/\1/p' /proc/cmdline)
result cycles FAIL "boot $n did not resume: exit $rc: $(tr '\n' ' ' < /tmp/out)"

#!/bin/bash
# Source the bash-completion script and check COMPREPLY.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=cli/completion/hibernate
. "$TOP/cli/completion/hibernate"

# complete LINE: fill COMP_WORDS the way bash does ('=' breaks words).
complete_line() {
	local line=$1
	COMP_LINE=$line
	COMP_POINT=${#line}
	# shellcheck disable=SC2206
	COMP_WORDS=(${line//=/ = })
	[[ $line == *" " || $line == *"=" ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_hibernate
	echo "${COMPREPLY[*]}"
}

expect_completion() {
	local name=$1 line=$2 want=$3 got
	got=$(complete_line "$line")
	if [[ $got == "$want" ]]; then
		pass "completion: $name"
	else
		fail "completion: $name: got '$got', wanted '$want'"
	fi
}

cat >"$T/c.conf" <<CONF
[default]
target = /dev/vda
[laptop]
[lab-2]
[acpi]
lid = yes
CONF
mkdir -p "$T/cfs"
printf 'compressors: none lz4 zstd\nwriters: swap swapfile\n' >"$T/cfs/capabilities"

expect_completion "long options" "hibernate --li" "--list-profiles"
expect_completion "--dry-run" "hibernate --dr" "--dry-run"
expect_completion "profiles from -c" "hibernate -c $T/c.conf -p " "default lab-2 laptop"
expect_completion "profiles from --config" "hibernate --config $T/c.conf --profile la" "lab-2 laptop"
expect_completion "--set keys" "hibernate --set comp" "compressor= compress_threads="
expect_completion "built-in compressors" "hibernate --configfs $T/nosuch --set compressor=lz" "lzo lz4 lz4hc"
expect_completion "module compressors" "hibernate --configfs $T/cfs --set compressor=" "none lz4 zstd"
expect_completion "module writers" "hibernate --configfs $T/cfs -o writer=sw" "swap swapfile"
expect_completion "powerdown" "hibernate --configfs $T/nosuch --set powerdown=p" "platform"
expect_completion "unload_module" "hibernate --set unload_module=" "yes no"
expect_completion "encryption" "hibernate --configfs $T/nosuch --set encryption=" "none aes-gcm chacha20-poly1305"
expect_completion "key: keyring:default or tpm" "hibernate --set key=" "keyring:default tpm"
expect_completion "key: tpm" "hibernate -o key=t" "tpm"
expect_completion "--kdf" "hibernate --setup-key x --kdf " "moderate insecure-test"
expect_completion "--setup-key: tpm" "hibernate --setup-key t" "tpm"
expect_completion "--setup-key: options still" "hibernate --setup-key --dr" "--dry-run"
touch "$T/c2.conf"
expect_completion "files for --config" "hibernate --config $T/c" "$T/c.conf $T/c2.conf $T/cfs"
expect_completion "directories for --configfs" "hibernate --configfs $T/cf" "$T/cfs"
expect_completion "nothing after --help" "hibernate --help " ""
expect_completion "--set abort_ keys" "hibernate --set abort_" "abort_key= abort_lid= abort_ac="
expect_completion "abort_lid values" "hibernate --set abort_lid=" "yes no"
expect_completion "abort_ac values" "hibernate --set abort_ac=y" "yes"
expect_completion "--system-sleep phases" "hibernate --system-sleep " "pre post"
expect_completion "--system-sleep verbs" "hibernate --system-sleep pre hy" "hybrid-sleep"
expect_completion "--system-sleep verbs, all" "hibernate --system-sleep post " "hibernate hybrid-sleep suspend-then-hibernate"

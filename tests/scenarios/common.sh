# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2086  # word splitting is meant here
#
# Shared by the traffic scenarios: busybox sh inside an edgedma-vm guest.
# A scenario loads a real in-tree driver, makes it move real data by DMA,
# checks that the data really moved, unloads the driver and exits 0. Any
# doubt exits non-zero; the kernel's own complaints (WARN, oops, ...) fail
# the run on the host side whatever the scenario says.
#
# Output: "# " diagnostic lines only, so tests/scenarios/run-all can nest
# them under its KTAP result lines.

note() { echo "# $*"; }

fail() {
	echo "# FAIL: $*"
	[ -n "${nspid:-}" ] && kill "$nspid" 2>/dev/null
	exit 1
}

# wait_for SECONDS COMMAND...: poll every 0.2 s until COMMAND succeeds.
wait_for() {
	_n=$(($1 * 5))
	shift
	while [ "$_n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		usleep 200000
		_n=$((_n - 1))
	done
	return 1
}

modules_now() { cut -d' ' -f1 /proc/modules | sort; }

# watch_cpu_writes DRIVER...: turn on, for the devices these drivers drive,
# the check no device runs by default (it hashes each to-device buffer at
# every hand-over): cpu-write-while-device-owned. A real driver used
# correctly never writes a buffer it gave its device to read, so
# no_findings holds with it on.
watch_cpu_writes() {
	for _d in "$@"; do
		edgedma policy set --driver "$_d" --enable cpu-write-while-device-owned > /dev/null ||
			fail "cannot turn cpu-write-while-device-owned on for $_d"
	done
	note "cpu-write-while-device-owned on for $*"
}

# load_driver MODULE: modprobe it; remember every module that loading it
# brought in, to unload them all again. busybox modprobe reads the Debian
# trees' .ko.xz (checked on 6.1 and 6.12, both architectures).
load_driver() {
	modules_now > /tmp/modules.before
	modprobe "$1" || fail "modprobe $1 failed"
	new_modules=$(modules_now | grep -vxF -f /tmp/modules.before)
	if [ -n "$new_modules" ]; then
		note "loaded:" $new_modules
	else
		note "$1 is built in (nothing to unload)"
	fi
}

# unload_driver: rmmod what load_driver brought in, dependents first (the
# order is found by retrying), and make sure all of it is gone.
unload_driver() {
	for _pass in 1 2 3 4 5 6; do
		_left=
		for _m in $new_modules; do
			grep -q "^$_m " /proc/modules || continue
			rmmod "$_m" 2>/dev/null || _left="$_left $_m"
		done
		[ -z "$_left" ] && break
	done
	[ -z "$_left" ] || fail "could not unload:$_left"
	[ -n "$new_modules" ] && note "unloaded:" $new_modules
	return 0
}

# calls_seen DRIVER: edgedma saw DMA-API calls of a device DRIVER drives
# (edgedma devices). Run after the traffic, while the driver is bound:
# "no findings" from hooks that saw nothing would prove nothing, so
# no_findings refuses to pass unless this ran first. Devices whose DMA goes
# through another driver's device name that one (virtio: virtio-pci).
calls_seen() {
	edgedma devices --json > /tmp/devices.json || fail "edgedma devices failed"
	_calls=$(sed -n "s/.*\"driver\":\"$1\",\"calls\":\([0-9]*\).*/\1/p" /tmp/devices.json |
		awk '{ s += $1 } END { print s + 0 }')
	if [ "$_calls" -eq 0 ]; then
		sed 's/^/#   /' /tmp/devices.json
		fail "edgedma saw no DMA-API call of a device driven by $1"
	fi
	note "edgedma saw $_calls DMA-API calls of devices driven by $1"
	calls_checked=1
}

# no_findings: a real driver used correctly must give edgedma nothing to
# say. Runs after unload_driver, so leaks at unbind are counted too. The
# module's counters go to the log either way (missed calls would explain a
# stale entry). With --report-findings (given to the scenario) the findings
# are summed up by kind and caller instead: on a DMA-non-coherent machine
# real drivers are bounced and share cache lines, and that is what edgedma
# is there to show.
no_findings() {
	command -v edgedma >/dev/null || fail "no edgedma tool in the guest (make guest-tools)"
	[ "${calls_checked:-0}" = 1 ] ||
		fail "no_findings without calls_seen: no finding means nothing unless edgedma saw the driver's calls"
	edgedma status --stats | sed 's/^/#   /'
	edgedma findings --json > /tmp/findings.json || fail "edgedma findings failed"
	# A scenario that sets explained to a filter's name has the findings
	# it explains taken out first: the filter copies the others to its
	# output and notes each one it explains, with the evidence, on fd 3.
	if [ -n "${explained:-}" ]; then
		"$explained" < /tmp/findings.json 3>&1 > /tmp/findings.rest ||
			fail "$explained failed"
		_x=$(($(grep -c . /tmp/findings.json) - $(grep -c . /tmp/findings.rest)))
		[ "$_x" -eq 0 ] || note "edgedma: $_x finding(s) explained by $explained"
		mv /tmp/findings.rest /tmp/findings.json
	fi
	_n=$(grep -c . /tmp/findings.json)
	if [ "$_n" -eq 0 ]; then
		note "edgedma: no findings"
	elif [ "$report_findings" = 1 ]; then
		note "edgedma: $_n finding(s), by kind, driver and caller:"
		sed -n 's/.*"kind":"\([^"]*\)".*"driver":"\([^"]*\)".*"caller":"\([^"+]*\).*/\1 \2 \3/p' \
			/tmp/findings.json | sort | uniq -c | sed 's/^/#   /'
		# Possible losses are what a non-coherent machine shows; an
		# observed one (the CPU wrote next to, or into, a buffer the
		# device owned) would be a bug of these drivers, and repeats
		# fold per site.
		_observed='"kind":"(cacheline-neighbour-written|cpu-write-while-device-owned)"'
		if grep -Eq "$_observed" /tmp/findings.json; then
			grep -E "$_observed" /tmp/findings.json | sed 's/^/#   /'
			fail "a correct driver was seen writing a buffer its device owned, or next to it"
		fi
		_sites=$(sed -n 's/.*"kind":"\([^"]*\)".*"device":"\([^"]*\)".*"caller":\("[^"]*"\|null\).*/\1 \2 \3/p' \
			/tmp/findings.json | sort | uniq -d)
		[ -z "$_sites" ] || fail "findings not folded per site: $_sites"
	else
		sed 's/^/#   /' /tmp/findings.json
		fail "edgedma reported $_n finding(s) for correct DMA-API use"
	fi
}

report_findings=0
for _arg in "$@"; do
	[ "$_arg" = --report-findings ] && report_findings=1
done

# ---- block devices ----------------------------------------------------------

sectors() { awk -v f="$2" '{ print $f }' "/sys/block/$1/stat"; }

# block_traffic DEV: direct and buffered reads and writes of several sizes
# on /dev/DEV, checked against the device's own I/O counters. The backend
# is QEMU's null-co with read-zeroes=on: writes are dropped, reads return
# zeroes written into guest memory by the device. So the last check writes
# a random pattern through the page cache, drops the cache and reads the
# same blocks again into the recycled pages: only real device-to-memory DMA
# turns them into zeroes. That needs init_on_alloc=0 on the kernel command
# line (run-all passes it; Debian zeroes every new page by default, which
# would make the check pass without DMA; checked both ways on nvme).
block_traffic() {
	dev=$1
	wait_for 20 test -b "/dev/$dev" || fail "/dev/$dev did not appear"
	size=$(($(cat "/sys/block/$dev/size") * 512))
	note "/dev/$dev: $size bytes"
	[ "$size" -ge $((32 << 20)) ] || fail "/dev/$dev is smaller than 32 MiB"

	r0=$(sectors "$dev" 3)
	w0=$(sectors "$dev" 7)
	want=0
	# O_DIRECT: the driver maps dd's own buffer; sizes from one sector to
	# requests the block layer splits.
	for io in "512 64 0" "4096 256 1" "131072 64 2" "1048576 8 3"; do
		set -- $io
		dd if="/dev/$dev" of=/dev/null bs="$1" count="$2" skip="$3" \
			iflag=direct 2>/dev/null || fail "direct read bs=$1 failed"
		want=$((want + $1 * $2))
	done
	dd if=/dev/urandom of=/tmp/pattern bs=65536 count=64 2>/dev/null
	for io in "512 64 0" "4096 256 1" "131072 32 2" "1048576 4 3"; do
		set -- $io
		dd if=/tmp/pattern of="/dev/$dev" bs="$1" count="$2" seek="$3" \
			oflag=direct conv=notrunc 2>/dev/null || fail "direct write bs=$1 failed"
	done
	wantw=$((512 * 64 + 4096 * 256 + 131072 * 32 + 1048576 * 4))

	# Buffered: readahead and writeback build multi-page requests. The
	# last close of a block device drops its page cache, so hold it open.
	exec 3< "/dev/$dev"
	echo 3 > /proc/sys/vm/drop_caches
	dd if="/dev/$dev" of=/dev/null bs=1048576 count=8 skip=16 2>/dev/null ||
		fail "buffered read failed"
	want=$((want + 8 * 1048576))
	dd if=/tmp/pattern of="/dev/$dev" bs=1048576 count=4 seek=24 conv=notrunc,fsync \
		2>/dev/null || fail "buffered write failed"
	wantw=$((wantw + 4 * 1048576))
	sync

	# The page cache holds the pattern now; the device holds nothing.
	[ "$(dd if="/dev/$dev" bs=1048576 count=4 skip=24 2>/dev/null | md5sum)" = \
	  "$(dd if=/tmp/pattern bs=1048576 count=4 2>/dev/null | md5sum)" ] ||
		fail "the page cache lost the written pattern"
	echo 3 > /proc/sys/vm/drop_caches
	[ "$(dd if="/dev/$dev" bs=1048576 count=4 skip=24 2>/dev/null | md5sum)" = \
	  "$(dd if=/dev/zero bs=1048576 count=4 2>/dev/null | md5sum)" ] ||
		fail "re-reading after drop_caches did not return the device's zeroes"
	if grep -qw init_on_alloc=0 /proc/cmdline; then
		note "/dev/$dev: re-read blocks hold the device's zeroes, not the cached pattern"
	else
		note "/dev/$dev: init_on_alloc is on, so the re-read proves nothing; counters only"
	fi
	exec 3<&-
	want=$((want + 4 * 1048576))

	rd=$((($(sectors "$dev" 3) - r0) * 512))
	wr=$((($(sectors "$dev" 7) - w0) * 512))
	note "/dev/$dev: read $rd bytes (want >= $want), wrote $wr bytes (want >= $wantw)"
	[ "$rd" -ge "$want" ] || fail "the device read less than was asked of it"
	[ "$wr" -ge "$wantw" ] || fail "the device wrote less than was asked of it"
}

# ---- network devices --------------------------------------------------------

# ifaces_of DRIVER: the network interfaces DRIVER drives.
ifaces_of() {
	for _i in /sys/class/net/*; do
		_d=$(readlink "$_i/device/driver" 2>/dev/null) || continue
		[ "${_d##*/}" = "$1" ] && echo "${_i##*/}"
	done
}

# dev_counter NETNS-PID IFACE FIELD: a /proc/net/dev counter (1 rx_bytes,
# 2 rx_packets, 9 tx_bytes, 10 tx_packets) as seen in that process's netns.
dev_counter() {
	nsenter -t "$1" -n cat /proc/net/dev |
		awk -v i="$2:" -v f="$3" '{ sub(/^ */, "") } $1 == i { print $(f + 1) }'
}

has_carrier() { nsenter -t "$1" -n ip link show "$2" | grep -q LOWER_UP; }

# net_pair_traffic DRIVER: DRIVER's two NICs sit on one QEMU hub. One moves
# into its own network namespace, so the only way between their addresses is
# over the wire: ping (small and fragmented) and a TCP copy of 4 MiB of
# random data, compared byte for byte, with both NICs' counters checked.
# A scenario that sets while_linked to a function's name has it run after
# the copy, with both links still up and their rings in use.
net_pair_traffic() {
	drv=$1
	# shellcheck disable=SC2046
	set -- $(ifaces_of "$drv")
	[ $# -eq 2 ] || fail "want two $drv interfaces, found $# ($*)"
	a=$1 b=$2
	note "interfaces: $a (here), $b (own network namespace)"

	unshare -n sleep 600 &
	nspid=$!
	wait_for 5 sh -c "[ \"\$(readlink /proc/$nspid/ns/net)\" != \"\$(readlink /proc/1/ns/net)\" ]" ||
		fail "no network namespace"
	ip link set dev "$b" netns "$nspid" || fail "cannot move $b into a namespace"
	nsenter -t "$nspid" -n ip link set lo up
	nsenter -t "$nspid" -n ip addr add 10.99.0.2/24 dev "$b"
	nsenter -t "$nspid" -n ip link set "$b" up || fail "cannot bring $b up"
	ip addr add 10.99.0.1/24 dev "$a"
	ip link set "$a" up || fail "cannot bring $a up"
	wait_for 30 has_carrier 1 "$a" || fail "$a has no link"
	wait_for 30 has_carrier "$nspid" "$b" || fail "$b has no link"

	tx0=$(dev_counter 1 "$a" 9) rx0=$(dev_counter "$nspid" "$b" 1)
	ping -c 10 -i 0.2 -W 5 10.99.0.2 > /tmp/ping.out ||
		{ cat /tmp/ping.out; fail "no ping replies over the hub"; }
	note "$(grep 'packets transmitted' /tmp/ping.out)"
	ping -c 3 -s 4000 -W 5 10.99.0.2 > /tmp/ping.out ||
		{ cat /tmp/ping.out; fail "no replies to fragmented pings"; }

	dd if=/dev/urandom of=/tmp/send bs=65536 count=64 2>/dev/null
	# busybox nc quits when its own stdin ends, so the receiving end is a
	# program that nc starts on the connection: cat until the sender closes.
	nsenter -t "$nspid" -n nc -l -p 5001 -e sh -c 'cat > /tmp/recv' &
	listener=$!
	# Port 5001 is 1389 in /proc/net/tcp*; state 0A is LISTEN. busybox nc
	# listens on an IPv6 (dual-stack) socket when IPv6 is there.
	wait_for 10 sh -c "nsenter -t $nspid -n grep -qs ':1389 0*:0000 0A' /proc/net/tcp /proc/net/tcp6" ||
		fail "the TCP listener did not start"
	nc 10.99.0.2 5001 < /tmp/send || fail "TCP copy over the hub failed"
	wait_for 60 sh -c "[ \$(wc -c < /tmp/recv) -ge 4194304 ]" ||
		fail "the TCP copy did not finish ($(wc -c < /tmp/recv) bytes arrived)"
	wait "$listener" || fail "the TCP receiver failed"
	cmp -s /tmp/send /tmp/recv || fail "TCP copy arrived corrupted ($(wc -c < /tmp/recv) bytes)"
	note "TCP: $(wc -c < /tmp/recv) bytes arrived intact"

	tx=$(($(dev_counter 1 "$a" 9) - tx0))
	rx=$(($(dev_counter "$nspid" "$b" 1) - rx0))
	note "$a sent $tx bytes, $b received $rx bytes"
	if [ "$tx" -lt 4194304 ] || [ "$rx" -lt 4194304 ]; then
		fail "the NICs' counters do not show the copy"
	fi
	[ -z "${while_linked:-}" ] || "$while_linked"

	nsenter -t "$nspid" -n ip link set "$b" down
	nsenter -t "$nspid" -n ip link set "$b" netns 1 || fail "cannot move $b back"
	kill "$nspid"
	wait "$nspid" 2>/dev/null
	nspid=
	ip link set "$a" down
}

#!/bin/sh
# Helpers for the VM test cases (tests/vm/cases/NN-name.sh), sourced as
# ". /pgpk/lib.sh".  A case runs as root under busybox sh, cwd /pgpk, in a
# fresh session keyring, with PGPK_DATA=/pgpk/data.  Exit status: 0 PASS,
# 77 SKIP, anything else FAIL.  Everything a case prints goes to the
# console prefixed with its name, so print what you run (pgpk_run does).

PGPK_KO=${PGPK_KO:-/pgpk/pgpk.ko}
PGPK_HELPER=${PGPK_HELPER:-/usr/sbin/pgpk-helper}
PGPK=${PGPK:-/usr/bin/pgpk}
PGPK_SYSLOG=${PGPK_SYSLOG:-/var/log/messages}
PGPK_DATA=${PGPK_DATA:-/pgpk/data}
# The helper's syslog tag; one line per upcall it served.
PGPK_HELPER_TAG=${PGPK_HELPER_TAG:-pgpk-helper}
# How much slower this kernel is than Debian's (the debug kernel: /init
# sets it from pgpk.slowdown=); the waits below are multiplied by it.
PGPK_SLOWDOWN=${PGPK_SLOWDOWN:-1}

pgpk_fail() {
	echo "FAIL: $*"
	exit 1
}

pgpk_skip() {
	echo "SKIP: $*"
	exit 77
}

# pgpk_status NAME: why a build input is missing (written by run.sh).
pgpk_status() {
	if [ -s "/pgpk/status/$1" ]; then
		cat "/pgpk/status/$1"
	else
		echo "$1 missing from the initramfs"
	fi
}

# pgpk_need_module / pgpk_need_helper: FAIL (not skip) with the build
# error when a component did not build: the suite must show it.
pgpk_need_module() {
	[ -f "$PGPK_KO" ] || pgpk_fail "module not available: $(pgpk_status module)"
}

pgpk_need_helper() {
	[ -x "$PGPK_HELPER" ] && [ -x "$PGPK" ] ||
		pgpk_fail "pgpk-helper or pgpk not available: $(pgpk_status helper)"
}

pgpk_need_data() {
	for _f in "$@"; do
		[ -s "$PGPK_DATA/$_f" ] ||
			pgpk_fail "test data $PGPK_DATA/$_f missing (generator failed?)"
	done
}

pgpk_loaded() {
	grep -q '^pgpk ' /proc/modules
}

# pgpk_load [PARAM=VALUE...]: insmod the module unless it is loaded.
pgpk_load() {
	pgpk_need_module
	pgpk_loaded && return 0
	echo "+ insmod $PGPK_KO $*"
	insmod "$PGPK_KO" "$@" || pgpk_fail "insmod $PGPK_KO failed"
	pgpk_loaded || pgpk_fail "pgpk not in /proc/modules after insmod"
}

# pgpk_unload: rmmod the module if it is loaded.  Every pgpk key holds
# a reference on the module (its subtype): the keys of earlier cases'
# session keyrings go with the key garbage collector, asynchronously, so
# this retries for up to 10 s (times PGPK_SLOWDOWN).
pgpk_unload() {
	pgpk_loaded || return 0
	echo "+ rmmod pgpk"
	_n=$((100 * PGPK_SLOWDOWN))
	until rmmod pgpk 2>/dev/null; do
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || pgpk_fail "rmmod pgpk failed:" \
			"$(rmmod pgpk 2>&1), refcnt $(cat /sys/module/pgpk/refcnt)"
		sleep 0.1
	done
	! pgpk_loaded || pgpk_fail "pgpk still in /proc/modules after rmmod"
}

# pgpk_unload_unless_builtin: rmmod pgpk, which must succeed, unless
# .builtin_trusted_keys holds an OpenPGP key (CONFIG_SYSTEM_OPENPGP_KEYS,
# upstream/vm-cases/82-builtin-keys): such keys pin the module, as any
# OpenPGP key does, and rmmod must then fail.
pgpk_unload_unless_builtin() {
	_b=$(awk '$9 == ".builtin_trusted_keys:" { print $1 }' /proc/keys)
	_pinned=
	for _k in $([ -n "$_b" ] && keyctl rlist "$(printf '%d' "0x$_b")" 2>/dev/null); do
		awk -v id="$(printf '%08x' "$_k")" '$1 == id && / PGP[.]/ { f = 1 }
			END { exit !f }' /proc/keys && _pinned=1
	done
	if [ -n "$_pinned" ]; then
		pgpk_run rmmod pgpk &&
			pgpk_fail "pgpk unloaded while .builtin_trusted_keys holds its keys"
	else
		expect_ok rmmod pgpk
	fi
	return 0
}

# pgpk_fake_helper DIR: until the case exits, upcalls are answered by
# tools/pgpk-fake-helper.sh from DIR (answers named by the SHA-256 of the
# submitted OpenPGP bytes: pgpk_sha256 FILE) instead of pgpk-helper.
pgpk_fake_helper() {
	_conf=/etc/request-key.d/pgpk.conf
	cp "$_conf" /tmp/pgpk.conf.saved
	trap 'cp /tmp/pgpk.conf.saved '"$_conf" EXIT
	echo "create pgpk * * /bin/sh $PGPK_DATA/k/fake-helper.sh $1 %k" >"$_conf"
}

# pgpk_errno_text NAME: the strerror() text keyctl prints for errno NAME.
pgpk_errno_text() {
	case "$1" in
	EBADMSG) echo "Bad message" ;;
	EKEYREJECTED) echo "Key was rejected by service" ;;
	ENOPKG) echo "Package not installed" ;;
	ENOKEY) echo "Required key not available" ;;
	EKEYEXPIRED) echo "Key has expired" ;;
	EKEYREVOKED) echo "Key has been revoked" ;;
	ETIMEDOUT) echo "Connection timed out" ;;
	ECHILD) echo "No child processes" ;;
	ENODEV) echo "No such device" ;;
	EINVAL) echo "Invalid argument" ;;
	EPERM) echo "Operation not permitted" ;;
	EACCES) echo "Permission denied" ;;
	ENOENT) echo "No such file or directory" ;;
	EEXIST) echo "File exists" ;;
	ENOMEM) echo "Cannot allocate memory" ;;
	EMSGSIZE) echo "Message too long" ;;
	E2BIG) echo "Argument list too long" ;;
	EFBIG) echo "File too large" ;;
	EOPNOTSUPP) echo "Operation not supported" ;;
	ENOTSUPP) echo "Unknown error 524" ;;
	EDQUOT) echo "Disk quota exceeded" ;;
	EAGAIN) echo "Resource temporarily unavailable" ;;
	EIO) echo "Input/output error" ;;
	*) pgpk_fail "pgpk_errno_text: unknown errno name '$1'" ;;
	esac
}

# pgpk_run CMD...: print the command, run it, print its output; returns
# its status.  Output is also left in $PGPK_OUT.
pgpk_run() {
	echo "+ $*"
	PGPK_OUT=$("$@" 2>&1)
	_rc=$?
	[ -n "$PGPK_OUT" ] && echo "$PGPK_OUT"
	return $_rc
}

# expect_ok CMD...: run CMD, FAIL the case unless it succeeds.  Its
# output is in $PGPK_OUT (e.g. the key ID keyctl padd printed).
expect_ok() {
	pgpk_run "$@" || pgpk_fail "command failed (exit $_rc): $*"
}

# expect_fail ERRNO CMD...: run CMD, FAIL the case unless it fails and
# its error message names ERRNO (e.g. EBADMSG -> "Bad message").
expect_fail() {
	_want=$(pgpk_errno_text "$1")
	shift
	if pgpk_run "$@"; then
		pgpk_fail "expected failure '$_want', but it succeeded: $*"
	fi
	case "$PGPK_OUT" in
	*"$_want"*) echo "ok: failed with '$_want' as expected" ;;
	*) pgpk_fail "expected failure '$_want', got: $PGPK_OUT" ;;
	esac
}

# assert_eq EXPECTED ACTUAL [WHAT]
assert_eq() {
	[ "$1" = "$2" ] ||
		pgpk_fail "${3:-value}: expected '$1', got '$2'"
	echo "ok: ${3:-value} = '$2'"
}

# assert_ne UNEXPECTED ACTUAL [WHAT]
assert_ne() {
	[ "$1" != "$2" ] ||
		pgpk_fail "${3:-value}: must not be '$2'"
	echo "ok: ${3:-value} = '$2' (not '$1')"
}

# assert_contains HAYSTACK NEEDLE [WHAT]
assert_contains() {
	case "$1" in
	*"$2"*) echo "ok: ${3:-output} contains '$2'" ;;
	*) pgpk_fail "${3:-output} does not contain '$2': $1" ;;
	esac
}

# assert_not_contains HAYSTACK NEEDLE [WHAT]
assert_not_contains() {
	case "$1" in
	*"$2"*) pgpk_fail "${3:-output} contains '$2': $1" ;;
	*) echo "ok: ${3:-output} does not contain '$2'" ;;
	esac
}

# pgpk_sha256 FILE: 64 lowercase hex digits.
pgpk_sha256() {
	sha256sum "$1" | cut -d ' ' -f 1
}


# count_upcalls [PATTERN]: how many helper log lines (matching PATTERN,
# default any) syslog holds.  syslogd writes asynchronously: take the
# count after pgpk_wait_log or compare before/after a step that you know
# finished (the upcall completes before request_key returns, and the
# helper logs before it instantiates).
count_upcalls() {
	grep "$PGPK_HELPER_TAG" "$PGPK_SYSLOG" 2>/dev/null |
		grep -c -e "${1:-.}"
}

# pgpk_wait_upcalls N [WHAT]: wait until the helper has logged N lines
# (5 s at most, times PGPK_SLOWDOWN), then FAIL unless it is exactly N.
pgpk_wait_upcalls() {
	_n=$((50 * PGPK_SLOWDOWN))
	while [ "$(count_upcalls)" -lt "$1" ] && [ "$_n" -gt 0 ]; do
		sleep 0.1
		_n=$((_n - 1))
	done
	assert_eq "$1" "$(count_upcalls)" "${2:-helper log lines}"
}

# pgpk_wait_log PATTERN [SECS]: wait until syslog has a line matching
# PATTERN (default 5 s; times PGPK_SLOWDOWN); FAIL if it never comes.
pgpk_wait_log() {
	_n=$((${2:-5} * 10 * PGPK_SLOWDOWN))
	while [ "$_n" -gt 0 ]; do
		grep -q -e "$1" "$PGPK_SYSLOG" 2>/dev/null && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	echo "--- syslog:"
	cat "$PGPK_SYSLOG"
	pgpk_fail "no syslog line matching '$1' within" \
		"$((${2:-5} * PGPK_SLOWDOWN))s"
}

# pgpk_log_since N: syslog lines after the first N (N from
# pgpk_log_lines taken earlier).
pgpk_log_lines() {
	wc -l <"$PGPK_SYSLOG"
}

pgpk_log_since() {
	tail -n +"$(($1 + 1))" "$PGPK_SYSLOG"
}

# pgpk_key_type ID, pgpk_key_desc_of ID: the type and description of a key.
pgpk_key_type() {
	keyctl rdescribe "$1" | cut -d ';' -f 1
}

pgpk_key_desc_of() {
	keyctl rdescribe "$1" | cut -d ';' -f 5-
}

# pgpk_kmsg_mark; ...; pgpk_kmsg_since: kernel log lines printed since
# the mark (the harness dumps and clears the kernel log between cases
# only, so a case must not clear it: it would hide a WARNING).
# A refusal's line is ratelimited per call site (10 in 5 s): after a
# burst of the module's lines, the mark waits for the window to pass, so
# that the lines a case expects next are printed.
pgpk_kmsg_mark() {
	_now=$(cut -d ' ' -f 1 /proc/uptime)
	_n=$(dmesg | sed -n 's/^\[ *\([0-9.]*\)\] pgpk.*/\1/p' |
		awk -v t="$_now" '$1 + 5 > t { n++ } END { print n + 0 }')
	[ "$_n" -lt 8 ] || sleep 5
	PGPK_KMSG_MARK=$(dmesg | wc -l)
}

pgpk_kmsg_since() {
	dmesg | tail -n +"$((${PGPK_KMSG_MARK:-0} + 1))"
}

# pgpk_slab_snapshot FILE: "cache objects-in-use object-size" for every
# cache, after shrinking them all (per-CPU and partial slabs flushed,
# KASAN's quarantine of the cache emptied; root may: SLUB's sysfs).
pgpk_slab_snapshot() {
	for _f in /sys/kernel/slab/*/shrink; do
		echo 1 >"$_f"
	done 2>/dev/null
	awk 'NR > 2 { print $1, $2, $4 }' /proc/slabinfo >"$1"
}

# [N1=.. N2=..] pgpk_slab_slope NAME CMD...: a leak test that slab page
# noise cannot fail and a leak cannot pass.  Runs "CMD N1" (N1 = 100
# calls of one path), then "CMD N2" (N2 = 400), counting each cache's
# objects before and after each round (growths d1, d2).  An object
# leaked per call grows a cache by about N1, then N2: by at least a
# call's share in the first round (d1 / N1) and in the second beyond the
# first ((d2 - d1) / (N2 - N1)); what the allocator keeps grows it once,
# whatever N (d2 - d1 about 0); noise (objects freed late from the round
# before) seldom does both.  A cache's slope is the smaller of the two,
# in thousandths of an object per call: about 1000 for a leak.  Prints
# the three steepest caches; sets $slope (the steepest).  Total slab
# pages (SUnreclaim) are no such test: on the debug kernel they move by
# 100 to 280 kB between two rounds of the same 400 refused add_keys.
pgpk_slab_slope() {
	_what=$1
	shift
	_n1=${N1:-100} _n2=${N2:-400}
	pgpk_slab_snapshot /tmp/slab.a0
	"$@" "$_n1"
	pgpk_slab_snapshot /tmp/slab.a1
	pgpk_slab_snapshot /tmp/slab.b0
	"$@" "$_n2"
	pgpk_slab_snapshot /tmp/slab.b1
	_top=$(awk -v n1="$_n1" -v n2="$_n2" '
		FILENAME ~ /a0$/ { a0[$1] = $2 }
		FILENAME ~ /a1$/ { a1[$1] = $2 }
		FILENAME ~ /b0$/ { b0[$1] = $2 }
		FILENAME ~ /b1$/ { b1[$1] = $2 }
		END {
			for (c in a0) {
				# vmalloc areas: pgpk allocates none; the
				# stacks of the usermode helpers are freed
				# lazily (mm/vmalloc.c, lazy_max_pages()).
				# The records of kmemleak (debug kernel): one per
				# object of every other cache, freed after an
				# RCU grace period; a leak shows in its own
				# cache (measured: 420/1000 per refused upcall).
				# So with the records of debugobjects (a pool
				# refilled and freed in batches by a worker:
				# 1813/1000 per refused upcall once on
				# 7.3-pgpk-debug, +480 then +752 objects).
				if (c == "vmap_area" || c ~ /^kmemleak_/ ||
				    c == "debug_objects_cache")
					continue
				d1 = a1[c] - a0[c]; d2 = b1[c] - b0[c]
				s = int(d1 * 1000 / n1)
				t = int((d2 - d1) * 1000 / (n2 - n1))
				if (t < s) s = t
				if (s < 0) s = 0
				print s, c, d1, d2
			}
		}' /tmp/slab.a0 /tmp/slab.a1 /tmp/slab.b0 /tmp/slab.b1 |
		sort -rn | tee /tmp/slab.slopes | head -n 3)
	slope=$(echo "$_top" | head -n 1 | cut -d ' ' -f 1)
	echo "slab objects, $_what (objects grown at N=$_n1 and at N=$_n2;" \
		"slope in 1/1000 object per call):"
	echo "$_top" |
		awk '{ printf "  %-24s %+d, %+d: slope %d\n", $2, $3, $4, $1 }'
}

# pgpk_no_leak NAME CMD...: pgpk_slab_slope, measured again once if
# steeper than half an object per call (no leak of one object per call
# hides under that); FAIL if the same cache is that steep both times (a
# leak grows its cache in every round; noise that looks like one seldom
# does so twice, and in the same cache: on 7.3-pgpk-debug under load,
# anon_vma_chain at 0, then 1040/1000 per refused upcall, as processes
# were torn down late).  Prints "PGPK-SLAB-SLOPE NAME: ...".
pgpk_no_leak() {
	pgpk_slab_slope "$@"
	if [ "$slope" -ge 500 ]; then
		echo "steeper than 500/1000 once: measuring again"
		cp /tmp/slab.slopes /tmp/slab.slopes.1
		pgpk_slab_slope "$@"
		# each cache's gentler slope of the two rounds
		slope=$(awk 'NR == FNR { s[$2] = $1; next }
			{ m = $2 in s && s[$2] < $1 ? s[$2] : $1
			  if (m > b) b = m } END { print b + 0 }' \
			/tmp/slab.slopes.1 /tmp/slab.slopes)
	fi
	echo "PGPK-SLAB-SLOPE $1: steepest cache $slope/1000 objects per call" \
		"(in both rounds, if measured twice)"
	[ "$slope" -lt 500 ] ||
		pgpk_fail "$1: a cache grows by $slope/1000 objects per call" \
			"at two sizes of N, twice: a leak"
}

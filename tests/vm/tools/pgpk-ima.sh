#!/bin/sh
# Helpers of the IMA cases (tests/vm/cases/6x-ima-*.sh), sourced after
# /pgpk/lib.sh.  The VM's boot set IMA up (tests/vm/init.sh runs
# policy/ima/pgpk-ima-setup): _ima is in root's user keyring, and files on
# tmpfs owned by uid 4242 need an IMA signature to be read
# (tests/vm/ima.policy).  Data: $PGPK_DATA/ima (tests/vm/data.d/60-ima.sh).
I=$PGPK_DATA/ima
IMA_UID=4242

# ima_ring: _ima's serial in $IMA_RING, emptied now and when the case
# exits (its keys hold the module).
ima_ring() {
	IMA_RING=$(keyctl search @u keyring _ima 2>/dev/null) ||
		pgpk_fail "no _ima in root's user keyring: the boot-time setup failed"
	keyctl clear "$IMA_RING"
	IMA_DIR=$(mktemp -d /tmp/ima.XXXXXX)
	chmod 755 "$IMA_DIR"
	trap 'keyctl clear '"$IMA_RING"'; rm -rf '"$IMA_DIR" EXIT
}

# ima_file NAME [SRC] [IMA]: a new file (new inode: nothing cached) with
# the contents of $I/SRC (default NAME) and the security.ima $I/IMA.ima
# (default SRC; none if missing), owned by 4242; its path in $IMA_FILE.
ima_file() {
	IMA_FILE=$IMA_DIR/$1
	cp "$I/${2:-$1}" "$IMA_FILE"
	_x=$I/${3:-${2:-$1}}.ima
	if [ -f "$_x" ]; then
		setfattr -n security.ima -v "0x$(cat "$_x")" "$IMA_FILE" ||
			pgpk_fail "setfattr $IMA_FILE"
	fi
	chown "$IMA_UID" "$IMA_FILE"
	chmod 644 "$IMA_FILE"
}

# ima_reads NAME [SRC] [IMA]: a fresh file that must read back whole.
ima_reads() {
	ima_file "$@"
	expect_ok cat "$IMA_FILE"
	assert_eq "$(cat "$I/${2:-$1}")" "$PGPK_OUT" "contents of $1"
}

# ima_audit CAUSE: wait up to 2 s for IMA's audit record (kauditd prints
# it a moment later) naming CAUSE since pgpk_kmsg_mark; its lines in $_log.
ima_audit() {
	_n=0
	while [ "$_n" -lt 20 ]; do
		_log=$(pgpk_kmsg_since)
		case "$_log" in *"cause=$1"*) return 0 ;; esac
		sleep 0.1
		_n=$((_n + 1))
	done
	return 1
}

# ima_refused CAUSE NAME [SRC] [IMA]: a fresh file whose read is EACCES,
# with IMA's audit record naming CAUSE.  kauditd prints at most 10
# records in 5 s (printk_ratelimit(), shared with other audit records):
# if the record was dropped, the same refusal again, on a fresh copy (a
# failed appraisal is cached per inode), after the window.
ima_refused() {
	_cause=$1
	shift
	ima_file "$@"
	pgpk_kmsg_mark
	expect_fail EACCES cat "$IMA_FILE"
	if ! ima_audit "$_cause"; then
		_klog=$_log
		echo "no audit record yet (ratelimited?): once more in 5 s"
		sleep 5
		_name=$1
		shift
		ima_file "$_name.again" "${1:-$_name}" "${2:-${1:-$_name}}"
		pgpk_kmsg_mark
		expect_fail EACCES cat "$IMA_FILE"
		ima_audit "$_cause" || {
			echo "$_klog"
			echo "$_log"
			pgpk_fail "no audit record with cause=$_cause for $_name"
		}
		_log="$_klog
$_log"
	fi
	echo "ok: IMA's audit record says cause=$_cause"
}

#!/bin/bash
# Check the series upstream/make-series.sh made, as a maintainer would.
#
# usage: upstream/check.sh [STEP...]   (default: all but kunit, in order)
#   am          git am of upstream/out/series/*.patch onto a fresh "base"
#   checkpatch  scripts/checkpatch.pl --strict on every patch
#   kernel-doc  scripts/kernel-doc -Wall -none on every new .c and .h
#   builds      every patch built (bisection): =y and =m, W=1, in the
#               Debian 13 build root, the directories the series touches
#               (and crypto/rsa.o, patch 1's; kernel/bpf/helpers.o, with
#               CONFIG_BPF_SYSCALL: the kfunc; the rest of kernel/bpf/ has
#               W=1 errors of its own);
#               any warning in the files the series touches fails
#   uapi        CONFIG_UAPI_HEADER_TEST with the series applied
#   kunit       tools/testing/kunit/kunit.py run (UML) with the suites: a
#               whole UML kernel, long on 2 shared cores; the suites also
#               run in the VM (upstream/vm-test.sh)
# Prints "PASS: upstream/<step>[/<what>]" or "FAIL: ..." per check and
# "N passed, N failed" last.  Logs and build trees: upstream/out/check/
# and $PGPK_UPSTREAM_CACHE/check-{y,m,uapi,kunit}.
set -u

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=upstream/lib.sh
. "$here/lib.sh"
series=$here/out/series
logs=$here/out/check
mkdir -p "$logs"
steps=${*:-am checkpatch kernel-doc builds uapi}
npass=0 nfail=0
result() {
	echo "$1: upstream/$2${3:+ ($3)}"
	if [ "$1" = PASS ]; then npass=$((npass + 1)); else nfail=$((nfail + 1)); fi
}
ls "$series"/0001-*.patch >/dev/null 2>&1 ||
	up_die "no series in $series: run upstream/make-series.sh first"
tree=$(up_base_tree) || exit 1
patches=$(ls "$series"/0*.patch | grep -v 0000-cover-letter)
npatches=$(echo "$patches" | wc -l)

# A worktree of the base for the checks, at $PGPK_UPSTREAM_CACHE/check-src.
wt=$PGPK_UPSTREAM_CACHE/check-src
if [ ! -d "$wt" ]; then
	git -C "$tree" worktree add -q --detach "$wt" base || exit 1
fi
reset_wt() {
	git -C "$wt" am --abort >/dev/null 2>&1
	git -C "$wt" checkout -q -f --detach base && git -C "$wt" clean -q -f -d -x
}

step_am() {
	reset_wt || return
	# shellcheck disable=SC2086
	if git -C "$wt" -c user.name=check -c user.email=check@localhost \
		am -q $patches >"$logs/am.log" 2>&1; then
		result PASS am "$npatches patches onto $(git -C "$tree" log -1 --format=%s base)"
	else
		result FAIL am "$(head -n 3 "$logs/am.log" | tr '\n' ' ')"
	fi
}

step_checkpatch() {
	local p n
	if ! PATH=/usr/bin:$PATH python3 -c 'import ply, git' 2>/dev/null; then
		result FAIL checkpatch "checkpatch's SPDX check needs python3-ply and python3-git: apt-get install python3-ply python3-git (tests/deps.sh)"
		return
	fi
	for p in $patches; do
		n=$(basename "$p" .patch)
		if (cd "$wt" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --quiet \
			--no-signoff "$p") >"$logs/checkpatch-$n.log" 2>&1 &&
			! grep -q Traceback "$logs/checkpatch-$n.log"; then
			result PASS "checkpatch/${n:0:4}"
		else
			result FAIL "checkpatch/${n:0:4}" "$(grep -c -E '^(ERROR|WARNING|CHECK)' "$logs/checkpatch-$n.log") findings: $logs/checkpatch-$n.log"
		fi
	done
}

step_kernel_doc() {
	local f added modified bad=0 before after
	(step_am) >/dev/null	# its verdict is not counted again
	: >"$logs/kernel-doc.log"
	added=$(git -C "$wt" diff --name-only --diff-filter=A base HEAD -- '*.c' '*.h' |
		grep -v -E '^tools/|_corpus\.h$')
	modified=$(git -C "$wt" diff --name-only --diff-filter=M base HEAD -- '*.c' '*.h')
	for f in $added; do
		(cd "$wt" && python3 scripts/kernel-doc -Wall -none "$f") \
			>>"$logs/kernel-doc.log" 2>&1 || bad=1
	done
	grep -q . "$logs/kernel-doc.log" && bad=1
	# A file the series changes: no warning that base did not have.
	for f in $modified; do
		after=$(cd "$wt" && python3 scripts/kernel-doc -Wall -none "$f" 2>&1 | sort -u)
		before=$(cd "$wt" && git show "base:$f" >"$logs/base.c" &&
			python3 scripts/kernel-doc -Wall -none "$logs/base.c" 2>&1 |
			sed "s|$logs/base.c|$f|" | sort -u)
		comm -13 <(echo "$before" | sed 's/:[0-9][0-9]* / /') \
			<(echo "$after" | sed 's/:[0-9][0-9]* / /') | grep . \
			>>"$logs/kernel-doc.log" && bad=1
	done
	if [ "$bad" = 0 ]; then
		result PASS kernel-doc "$(echo "$added" | wc -w) new files clean, no new warning in $(echo "$modified" | wc -w) changed"
	else
		result FAIL kernel-doc "$logs/kernel-doc.log"
	fi
}

# The configurations: defconfig plus the keys, integrity and series options.
frag_common="CONFIG_KEYS=y
CONFIG_ASYMMETRIC_KEY_TYPE=y
CONFIG_SYSTEM_DATA_VERIFICATION=y
CONFIG_INTEGRITY=y
CONFIG_INTEGRITY_SIGNATURE=y
CONFIG_INTEGRITY_ASYMMETRIC_KEYS=y
CONFIG_IMA=y
CONFIG_IMA_APPRAISE=y
CONFIG_EVM=y
CONFIG_OPENPGP_TEST_KEY=y
CONFIG_OPENPGP_KEY_PARSER_KUNIT_TEST=y
CONFIG_OPENPGP_KEY_UPCALL=y
CONFIG_BPF_SYSCALL=y
CONFIG_CRYPTO_RSA=y"
frag_y="$frag_common
CONFIG_ASYMMETRIC_PUBLIC_KEY_SUBTYPE=y
CONFIG_X509_CERTIFICATE_PARSER=y
CONFIG_PKCS7_MESSAGE_PARSER=y
CONFIG_KUNIT=y
CONFIG_OPENPGP_KEY_PARSER=y"
frag_m="$frag_common
CONFIG_MODULES=y
CONFIG_KUNIT=m
CONFIG_OPENPGP_KEY_PARSER=m"

# build_in KIND: (re)configure and build the series' directories at the
# check worktree's HEAD, in $PGPK_UPSTREAM_CACHE/check-KIND.
build_in() {
	local kind=$1 frag
	frag=frag_$kind
	mkdir -p "$PGPK_UPSTREAM_CACHE/check-$kind"
	echo "${!frag}" >"$PGPK_UPSTREAM_CACHE/check-$kind/frag.config"
	up_in_buildroot "$PGPK_UPSTREAM_CACHE" "
		set -e
		cd /work/check-src
		o=/work/check-$kind
		[ -f \$o/.config ] || make O=\$o x86_64_defconfig >/dev/null
		scripts/kconfig/merge_config.sh -m -O \$o \$o/.config \$o/frag.config >/dev/null
		make O=\$o olddefconfig >/dev/null
		make O=\$o -j2 W=1 crypto/asymmetric_keys/ security/integrity/ certs/ \
			crypto/rsa.o kernel/bpf/helpers.o 2>&1"
}

step_builds() {
	local i kind log warn
	reset_wt || return
	for i in $(seq 1 "$npatches"); do
		p=$(echo "$patches" | sed -n "${i}p")
		git -C "$wt" -c user.name=check -c user.email=check@localhost \
			am -q "$p" >>"$logs/am-builds.log" 2>&1 ||
			{ result FAIL "build/$i" "git am failed"; return; }
		for kind in y m; do
			log=$logs/build-$i-$kind.log
			if ! build_in "$kind" >"$log" 2>&1; then
				result FAIL "build/$i=$kind" "$(grep -m 1 -E 'error' "$log")"
				continue
			fi
			# Warnings in what the series touches (W=1).
			warn=$(grep -E 'warning:' "$log" | grep -E \
				'pgpk|public_key|asymmetric_type|x509_cert_parser|pkcs7_parser|digsig_asymmetric|system_keyring|helpers\.c|/rsa\.c' |
				sort -u)
			if [ -n "$warn" ]; then
				result FAIL "build/$i=$kind" "$(echo "$warn" | head -n 1)"
			else
				result PASS "build/$i=$kind" "$(grep -c -E '^  CC ' "$log") compiled"
			fi
		done
	done
}

step_uapi() {
	local log=$logs/uapi.log
	(step_am) >/dev/null	# its verdict is not counted again
	mkdir -p "$PGPK_UPSTREAM_CACHE/check-uapi"
	# The kernel's own rule (usr/include/Makefile, cmd_hdrtest: its flags,
	# -std=c90, -nostdinc, included twice, headers_check.pl) for the
	# series' header alone, after "make headers": the whole of usr/ is 900
	# compilations.  (No C++ pass: the build root has no g++, and
	# cc-can-compile-cxx is then false for the kernel too.)
	if up_in_buildroot "$PGPK_UPSTREAM_CACHE" '
		set -e
		cd /work/check-src
		o=/work/check-uapi
		[ -f $o/.config ] || make O=$o x86_64_defconfig >/dev/null
		printf "CONFIG_HEADERS_INSTALL=y\nCONFIG_UAPI_HEADER_TEST=y\n" >$o/frag.config
		scripts/kconfig/merge_config.sh -m -O $o $o/.config $o/frag.config >/dev/null
		make O=$o olddefconfig >/dev/null
		grep -q "^CONFIG_UAPI_HEADER_TEST=y" $o/.config || { echo "CONFIG_UAPI_HEADER_TEST did not hold"; exit 1; }
		make O=$o headers >/dev/null
		u=$o/usr/include
		set -x
		gcc -Wall -Wmissing-prototypes -Wstrict-prototypes -O2 \
			-fomit-frame-pointer -std=gnu11 -std=c90 \
			-Werror=implicit-function-declaration -fsyntax-only -Werror \
			-nostdinc -I $u -x c /dev/null \
			-include $u/linux/pgpk.h -include $u/linux/pgpk.h
		perl usr/include/headers_check.pl $u $u/linux/pgpk.h
		echo HDRTEST-OK' >"$log" 2>&1 &&
		grep -q '^HDRTEST-OK' "$log"; then
		result PASS uapi "linux/pgpk.h: -std=c90, included twice, headers_check.pl"
	else
		result FAIL uapi "$(grep -m 1 -E 'error|warning' "$log"): $log"
	fi
}

step_kunit() {
	local log=$logs/kunit.log
	(step_am) >/dev/null	# its verdict is not counted again
	if up_in_buildroot "$PGPK_UPSTREAM_CACHE" '
		set -e
		cd /work/check-src
		printf "CONFIG_KUNIT=y\nCONFIG_KEYS=y\nCONFIG_CRYPTO=y\nCONFIG_ASYMMETRIC_KEY_TYPE=y\nCONFIG_ASYMMETRIC_PUBLIC_KEY_SUBTYPE=y\nCONFIG_OPENPGP_KEY_PARSER=y\nCONFIG_OPENPGP_KEY_PARSER_KUNIT_TEST=y\n" >/work/check-kunit.kunitconfig
		python3 tools/testing/kunit/kunit.py run --jobs 2 \
			--build_dir /work/check-kunit \
			--kunitconfig /work/check-kunit.kunitconfig 2>&1' >"$log" 2>&1; then
		result PASS kunit "$(grep -E 'Testing complete' "$log" | tail -n 1)"
	else
		result FAIL kunit "$(grep -E 'Testing complete|FAILED|Error' "$log" | tail -n 1): $log"
	fi
}

for s in $steps; do
	case "$s" in
	am) step_am ;;
	checkpatch) step_checkpatch ;;
	kernel-doc) step_kernel_doc ;;
	builds) step_builds ;;
	uapi) step_uapi ;;
	kunit) step_kunit ;;
	*) up_die "unknown step $s (--help: see the header)" ;;
	esac
done
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]

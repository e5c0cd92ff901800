#!/bin/bash
# Make the upstream series: pgpk as in-tree patches for Debian's
# linux-source-7.3 (7.3.4), from kernel/'s own sources.
#
# usage: upstream/make-series.sh [-o DIR] [--tree DIR] [--rfc]
#   -o DIR     where the patches go (default upstream/out/series); the
#              cover letter is 0000-cover-letter.patch, from
#              upstream/cover-letter.txt
#   --tree DIR a git tree of linux-source-7.3 with its "base" tag (default:
#              the cached one, made on first use: upstream/lib.sh)
#   --rfc      subject prefix "RFC PATCH" (default "PATCH")
#
# What it does, in this order, on branch "pgpk-series" of the tree (reset
# to "base" first):
#   1. git am upstream/core/*.patch: a fix of crypto/rsa.c and the
#      preparatory core patches
#   2. the canonical format as an ABI: include/uapi/linux/pgpk.h
#      (kernel/uapi/linux/pgpk.h) and Documentation/crypto/pgpk.rst
#      (upstream/abi/)
#   3. the module: kernel/'s carried files into crypto/asymmetric_keys/,
#      with the Kconfig, Makefile and MAINTAINERS entries (upstream/intree/)
#   4. KUnit suites (upstream/kunit/, with the fuzz corpus's regression
#      inputs: upstream/kunit/gen-corpus.py)
#   5. the kselftest (upstream/selftests/keys/)
#   6. system_trusted_keyring() in certs/ (upstream/intree/system-keyring.diff)
#   7. verify_openpgp_signature() and its KUnit suite (upstream/intree/
#      pgpk_verify*.c, verification.diff, Makefile.verify)
#   8. its user, the BPF kfunc bpf_verify_openpgp_signature()
#      (upstream/intree/bpf.diff)
#   9. CONFIG_SYSTEM_OPENPGP_KEYS (upstream/intree/builtin-keys.diff,
#      upstream/abi/pgpk-system.rst), and the parser's call that loads
#      them, which step 3 leaves out
#  10. [RFC] the upcall: kernel/pgpk_upcall.c and OPENPGP_KEY_UPCALL
# each committed with its message from upstream/messages/ and a
# Signed-off-by of git's user.name and user.email (PGPK_SIGNOFF="Name
# <mail>" to override); then git format-patch with the cover letter.
# Prints the module's line counts (kernel/count-lines.sh, on the carried
# files) and the core patches' separately.
#
# It refuses (exit 1, naming each) a kernel/ that still carries
# out-of-tree compatibility in a carried file: module parameters,
# MODULE_AUTHOR, version tests, the Bazel include path, an EXPORT_SYMBOL
# with no in-tree user, conditionals; or lacks pgpk_core.h or
# pgpk_compat.h.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$here/out/series
tree="" prefix=PATCH
while [ $# -gt 0 ]; do
	case "$1" in
	-o) out=$2; shift ;;
	--tree) tree=$2; shift ;;
	--rfc) prefix="RFC PATCH" ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "make-series.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
	esac
	shift
done
# (git add -f: the tree keeps Debian's .gitignore, which ignores every
# top-level path but debian/.)
# shellcheck source=upstream/lib.sh
. "$here/lib.sh"

# The files of kernel/ the series carries, and where they go: the module
# (patch 7) into crypto/asymmetric_keys/, the upcall last (RFC).
MODULE="pgpk_canon.c pgpk_frame.c pgpk_rebuild.c pgpk_sig.c pgpk_key.c
pgpk.h pgpk_canon.h pgpk_core.h"
UPCALL="pgpk_upcall.c"
CARRIED="$MODULE $UPCALL"

# --- kernel/'s sources, checked ---
src=$(mktemp -d /tmp/pgpk-series.XXXXXX)
trap 'rm -rf "$src"' EXIT
cp -r "$root/kernel" "$src/"
k=$src/kernel
missing=""
need() { missing="$missing
  $1"; }
for f in $CARRIED; do
	[ -f "$k/$f" ] || need "kernel/$f: no such file (the series carries it)"
done
[ -f "$k/pgpk_compat.h" ] ||
	need "kernel/pgpk_compat.h: no such file (what stands in for the core patches out of tree)"
[ -f "$k/uapi/linux/pgpk.h" ] ||
	need "kernel/uapi/linux/pgpk.h: no such file (the format's UAPI header)"
for f in $CARRIED; do
	[ -f "$k/$f" ] || continue
	grep -n -E 'module_param|MODULE_PARM_DESC' "$k/$f" | sed "s|^|kernel/$f:|" |
		while read -r l; do echo "$l: a module parameter (Kconfig in tree; pgpk_compat.c out of tree)"; done >>"$src/bad"
	grep -n 'MODULE_AUTHOR' "$k/$f" | sed "s|^|kernel/$f:|; s|$|: MODULE_AUTHOR (none in tree)|" >>"$src/bad"
	grep -n -E 'PGPK_HAVE_|LINUX_VERSION|KERNEL_VERSION' "$k/$f" |
		sed "s|^|kernel/$f:|; s|$|: a version test (pgpk_compat.h only)|" >>"$src/bad"
	grep -n -E 'bazel|kernel_user' "$k/$f" | grep -v -E '^[0-9]+: \*' |
		sed "s|^|kernel/$f:|; s|$|: the Bazel include path (bazel/shim/ only)|" >>"$src/bad"
	grep -n -E 'EXPORT_SYMBOL' "$k/$f" |
		sed "s|^|kernel/$f:|; s|$|: an export with no in-tree user (pgpk_compat.c out of tree)|" >>"$src/bad"
	grep -n -E '#include "pgpk_compat.h"' "$k/$f" |
		sed "s|^|kernel/$f:|; s|$|: includes pgpk_compat.h (Kbuild force-includes it out of tree)|" >>"$src/bad"
	grep -n -E '^\s*#\s*if' "$k/$f" | grep -v -E '#\s*ifndef _PGPK' |
		sed "s|^|kernel/$f:|; s|$|: a conditional (none but include guards in tree)|" >>"$src/bad"
done
[ -s "$src/bad" ] && while read -r l; do need "$l"; done <"$src/bad"
if [ -n "$missing" ]; then
	echo "make-series.sh: kernel/ is not ready for the series:$missing" >&2
	echo "(upstream/README.md, \"The compat split\", says where each belongs)" >&2
	exit 1
fi

# --- the tree ---
[ -n "$tree" ] || tree=$(up_base_tree)
cd "$tree"
git rev-parse -q --verify base >/dev/null ||
	up_die "$tree has no \"base\" tag (upstream/lib.sh makes one)"
signoff=${PGPK_SIGNOFF:-"$(git config user.name) <$(git config user.email)>"}
[ "$signoff" != " <>" ] || up_die "no git user.name/user.email: set them or PGPK_SIGNOFF"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f -B pgpk-series base
git clean -q -f -d -x -e /.git
export GIT_AUTHOR_NAME=${signoff% <*} GIT_AUTHOR_EMAIL=${signoff##*<}
GIT_AUTHOR_EMAIL=${GIT_AUTHOR_EMAIL%>}
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
# Reproducible hashes: one date for every commit.
export GIT_AUTHOR_DATE=${PGPK_SERIES_DATE:-"2026-12-05T00:00:00Z"}
export GIT_COMMITTER_DATE=$GIT_AUTHOR_DATE

# 1. the core patches (their own authorship and sign-off)
git am -q --committer-date-is-author-date "$here"/core/*.patch ||
	up_die "upstream/core/ does not apply to $(git describe --always base)"

# commit MESSAGE-FILE: commit everything staged, with the message and the
# sign-off.
commit() {
	local m=$1
	[ -f "$m" ] || up_die "no commit message $m"
	git commit -q -s -F "$m" || up_die "commit of $m failed"
}

# kconfig_after ENTRY FRAGMENT: insert FRAGMENT into
# crypto/asymmetric_keys/Kconfig after the entry "config ENTRY".
kconfig_after() {
	awk -v add="$2" -v entry="config $1" '
		{ print }
		$0 == entry { inkey = 1 }
		inkey && /^$/ && !done {
			while ((getline l < add) > 0) if (l != "" || n++) print l
			print ""; done = 1; inkey = 0
		}' crypto/asymmetric_keys/Kconfig >"$src/Kconfig"
	grep -q -x "$(sed -n '/^config /{p;q}' "$2")" "$src/Kconfig" ||
		up_die "crypto/asymmetric_keys/Kconfig: no $1 entry to put $2 after"
	cp "$src/Kconfig" crypto/asymmetric_keys/Kconfig
}

# maintainers PATTERN...: F: lines for the OpenPGP entry of MAINTAINERS
# (each patch that adds files names them there, so checkpatch need not ask).
maintainers() {
	python3 - "$@" <<'EOF'
import sys
lines = open("MAINTAINERS").read().split("\n")
i = lines.index("OPENPGP KEYS (CANONICAL FORM)")
j = lines.index("", i)
f = sorted(set([l for l in lines[i:j] if l.startswith("F:")] +
               ["F:\t" + a for a in sys.argv[1:]]))
rest = [l for l in lines[i:j] if not l.startswith("F:")]
lines[i:j] = rest + f
open("MAINTAINERS", "w").write("\n".join(lines))
EOF
	git add MAINTAINERS
}

# 2. the ABI
cp "$k/uapi/linux/pgpk.h" include/uapi/linux/pgpk.h
cp "$here/abi/pgpk.rst" Documentation/crypto/pgpk.rst
grep -q '^   pgpk$' Documentation/crypto/index.rst ||
	sed -i '/^   asymmetric-keys$/a\   pgpk' Documentation/crypto/index.rst
grep -q '^   pgpk$' Documentation/crypto/index.rst ||
	up_die "Documentation/crypto/index.rst: no asymmetric-keys entry to put pgpk after"
awk -v add="$here/intree/MAINTAINERS.pgpk" -v who="$signoff" '
	/^OPENRISC ARCHITECTURE$/ && !done {
		while ((getline l < add) > 0) { sub(/PGPK_MAINTAINER/, who, l); print l }
		print ""; done = 1
	}
	{ print }' MAINTAINERS >"$src/MAINTAINERS"
cp "$src/MAINTAINERS" MAINTAINERS
git add -f include/uapi/linux/pgpk.h Documentation/crypto/pgpk.rst \
	Documentation/crypto/index.rst MAINTAINERS
commit "$here/messages/05-abi.txt"

# 3. the module, without the call that loads the builtin keyring's OpenPGP
# keys (patch 13 adds it, with the function)
for f in $MODULE; do
	cp "$k/$f" crypto/asymmetric_keys/
done
python3 - crypto/asymmetric_keys/pgpk_key.c <<'EOF_PY' || up_die "kernel/pgpk_key.c: no load_system_openpgp_keys() call to leave out of patch 7"
import sys
p = sys.argv[1]
s = open(p).read()
inc = "#include <keys/system_keyring.h>\n"
call = "\tif (!ret) {\n" \
       "\t\tload_system_openpgp_keys();\t/* the builtin keyring's, if any */\n" \
       "\t\treturn 0;\n\t}\n"
if s.count(inc) != 1 or s.count(call) != 1:
    sys.exit(1)
s = s.replace(inc, "").replace(call, "\tif (!ret)\n\t\treturn 0;\n")
open(p, "w").write(s)
EOF_PY
# Kconfig: after the PKCS#7 test key; Makefile: at the end.
kconfig_after PKCS7_TEST_KEY "$here/intree/Kconfig.pgpk"
cat "$here/intree/Makefile.pgpk" >>crypto/asymmetric_keys/Makefile
# shellcheck disable=SC2046
maintainers $(for f in $MODULE; do echo crypto/asymmetric_keys/$f; done)
git add -f crypto/asymmetric_keys
commit "$here/messages/06-module.txt"

# 4. KUnit
cp "$here/kunit/pgpk_kunit.c" crypto/asymmetric_keys/
python3 "$here/kunit/gen-corpus.py" "$root" >crypto/asymmetric_keys/pgpk_kunit_corpus.h
kconfig_after OPENPGP_TEST_KEY "$here/intree/Kconfig.kunit"
cat "$here/intree/Makefile.kunit" >>crypto/asymmetric_keys/Makefile
maintainers crypto/asymmetric_keys/pgpk_kunit.c \
	crypto/asymmetric_keys/pgpk_kunit_corpus.h
git add -f crypto/asymmetric_keys
commit "$here/messages/07-kunit.txt"

# 5. the kselftest
mkdir -p tools/testing/selftests/keys
cp "$here"/selftests/keys/* tools/testing/selftests/keys/
grep -q '^TARGETS += keys$' tools/testing/selftests/Makefile ||
	sed -i '/^TARGETS += kcmp$/a TARGETS += keys' tools/testing/selftests/Makefile
grep -q '^TARGETS += keys$' tools/testing/selftests/Makefile ||
	up_die "tools/testing/selftests/Makefile: no kcmp target to put keys after"
maintainers tools/testing/selftests/keys/
git add -f tools/testing/selftests
commit "$here/messages/08-selftest.txt"

# apply DIFF: a diff of upstream/intree/ (made against the series so far)
apply() {
	git apply --index "$here/intree/$1" || up_die "upstream/intree/$1 does not apply"
}

# 6. the system keyrings for other verifiers (certs/)
apply system-keyring.diff
commit "$here/messages/09-system-keyring.txt"

# 7. verify_openpgp_signature(), with its KUnit suite
cp "$here/intree/pgpk_verify.c" "$here/intree/pgpk_verify_kunit.c" crypto/asymmetric_keys/
apply verification.diff
cat "$here/intree/Makefile.verify" >>crypto/asymmetric_keys/Makefile
maintainers crypto/asymmetric_keys/pgpk_verify.c \
	crypto/asymmetric_keys/pgpk_verify_kunit.c
git add -f crypto/asymmetric_keys
commit "$here/messages/10-verify.txt"

# 8. its in-tree user: the BPF kfunc
apply bpf.diff
commit "$here/messages/11-bpf.txt"

# 9. OpenPGP keys in the builtin trusted keyring: certs/, the
# documentation, and the parser's call
apply builtin-keys.diff
cat "$here/abi/pgpk-system.rst" >>Documentation/crypto/pgpk.rst
cp "$k/pgpk_key.c" crypto/asymmetric_keys/
maintainers certs/system_openpgp_keys.S
git add -f Documentation/crypto/pgpk.rst crypto/asymmetric_keys certs
commit "$here/messages/12-builtin-keys.txt"

# 10. the upcall (RFC)
cp "$k/$UPCALL" crypto/asymmetric_keys/
kconfig_after OPENPGP_KEY_PARSER_KUNIT_TEST "$here/intree/Kconfig.upcall"
cat "$here/intree/Makefile.upcall" >>crypto/asymmetric_keys/Makefile
maintainers "crypto/asymmetric_keys/$UPCALL"
git add -f crypto/asymmetric_keys
commit "$here/messages/13-upcall.txt"

# --- the patches ---
rm -rf "$out"
mkdir -p "$out"
git format-patch -q --cover-letter --no-signature --zero-commit -N \
	--subject-prefix="$prefix" -o "$out" base..pgpk-series
cover=$(ls "$out"/0000-cover-letter.patch)
# The upcall's patch is an RFC whatever the series' prefix.
last=$(ls "$out"/0*.patch | tail -n 1)
sed -i "0,/^Subject: \[/ s/^Subject: \[\(RFC \)\{0,1\}/Subject: [RFC /" "$last"
python3 - "$cover" "$here/cover-letter.txt" <<'EOF'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read()
subject, _, body = text.partition("\n\n")
c = open(cover).read()
c = c.replace("*** SUBJECT HERE ***", subject.strip())
c = c.replace("*** BLURB HERE ***", body.rstrip() + "\n")
open(cover, "w").write(c)
EOF

# --- counts ---
cnt=$src/count
mkdir -p "$cnt"
cp "$root/kernel/count-lines.sh" "$cnt/"
for f in $CARRIED; do cp "crypto/asymmetric_keys/$f" "$cnt/"; done
echo "== the module in the series (kernel/count-lines.sh on the carried files)"
sh "$cnt/count-lines.sh" --check || echo "(over the budget: see above)"
echo "== the UAPI header (code lines, the same counter, not in the budget)"
awk '{ l = $0 } l ~ /[^ \t]/ && l !~ /^[ \t]*(\/\*|\*|\/\/)/ { n++ }
	END { print n " code lines: include/uapi/linux/pgpk.h" }' include/uapi/linux/pgpk.h
echo "== the core patches (code lines added/removed, the same counter)"
git diff base "$(git rev-list --reverse base..pgpk-series | sed -n "$(ls "$here"/core/*.patch | wc -l)p")" \
	-- '*.c' '*.h' | awk '
	/^\+\+\+|^---/ { next }
	/^\+/ { l = substr($0, 2); if (l ~ /[^ \t]/ && l !~ /^[ \t]*(\/\*|\*|\/\/)/) a++ }
	/^-/ { l = substr($0, 2); if (l ~ /[^ \t]/ && l !~ /^[ \t]*(\/\*|\*|\/\/)/) r++ }
	END { printf "%d code lines added, %d removed\n", a, r }'
echo "== the series: $(ls "$out" | wc -l) files in $out"
git diff --stat base pgpk-series | tail -n 1
ls "$out"

#!/bin/bash
# THE pgpk demo: install the apt packages (idempotently), build the
# helper and the module, boot Debian's kernel in qemu and run the
# narrated end-to-end demo (tests/vm/demo/demo.sh) with the VM console
# streamed to this terminal.  Exit status 0 iff every step behaved as
# described; the failing step is named at the end.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/deps.sh
. "$root/tests/deps.sh"
pgpk_install_deps || { echo "demo: installing dependencies failed" >&2; exit 1; }
# KERNEL=VERSION: on that kernel (tests/vm/run.sh --list-kernels).
exec "$root/tests/vm/run.sh" --demo ${KERNEL:+--kernel "$KERNEL"}

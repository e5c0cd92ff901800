#!/bin/bash
# Test data for the trust-boundary cases 40, 41, 43 and 44: keys,
# signatures, X.509 certificates and canonical blobs made by
# tests/vm/tools/pgpk-forge.py (python3-cryptography, independent of
# helper/ and kernel/; every forgery checked valid before it is written).
# Output in $PGPK_VM_DATA/f/.
set -euo pipefail

out=${PGPK_VM_DATA:?PGPK_VM_DATA not set}
root=${PGPK_ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
python3 "$root/tests/vm/tools/pgpk-forge.py" "$out/f"

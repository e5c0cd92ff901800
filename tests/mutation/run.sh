#!/bin/sh
# Mutation testing of pgpk's acceptance checks: see README.md here.
# usage: tests/mutation/run.sh [--list] [NAME...]
exec python3 "$(dirname "$0")/mutate.py" "$@"

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Mutation testing of pgpk's acceptance checks (see README.md here).

Every check in the kernel and the broker whose failure refuses something
has a named mutant in tests/mutation/mutants: one exact text replacement
that disables exactly that check.  For each mutant this applies it to a
scratch copy of the tree (build/mutation/tree: the shipped sources never
carry mutants), builds what it touches, runs the tests the mutant names,
and reports the first test that failed (the mutant is KILLED) or
SURVIVED.  Before any mutant, the same tests run on the unmutated copy
and must all pass, or nothing is proven.

usage: tests/mutation/run.sh [--list] [--without TEST]... [NAME...]
  --without TEST   leave TEST (e.g. vm:45-each-check) out of every
                   mutant's tests: which checks does only TEST prove?
Exit status: 0 when every mutant was killed, 1 otherwise.
"""
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORK = os.path.join(ROOT, "build", "mutation")
TREE = os.path.join(WORK, "tree")
LOGS = os.path.join(WORK, "logs")
VM_OUT = os.path.join(WORK, "vm-out")


def parse(path):
    """[name] blocks of "key: value" lines; \\n and \\t escapes in
    find/replace; "tests" a space-separated list."""
    mutants, cur = [], None
    for lineno, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.fullmatch(r"\[([a-z0-9-]+)\]", line)
        if m:
            cur = {"name": m.group(1), "line": lineno}
            mutants.append(cur)
            continue
        key, sep, value = line.partition(": ")
        if not sep or cur is None or key not in (
                "check", "file", "find", "replace", "tests"):
            sys.exit("%s:%d: not a mutant line: %s" % (path, lineno, line))
        if key in ("find", "replace"):
            value = value.replace("\\n", "\n").replace("\\t", "\t")
        cur[key] = value
    for mu in mutants:
        missing = {"check", "file", "find", "replace", "tests"} - set(mu)
        if missing:
            sys.exit("%s: mutant %s lacks %s" % (path, mu["name"],
                                                   ", ".join(sorted(missing))))
        mu["tests"] = mu["tests"].split()
    return mutants


def sync_tree():
    """Copy the work tree's files (tracked and new, as git sees them) to
    TREE; keep TREE's build outputs so builds stay incremental."""
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard",
         "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for name in files.decode().split("\0"):
        src, dst = os.path.join(ROOT, name), os.path.join(TREE, name)
        if not name or not os.path.isfile(src):
            continue
        if os.path.isfile(dst) and open(src, "rb").read() == open(
                dst, "rb").read():
            continue        # unchanged: keep its mtime, builds stay warm
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)


def run(cmd, log, cwd=TREE, env=None):
    with open(log, "w") as f:
        return subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL,
                              env=dict(os.environ, **(env or {}))).returncode


def build(files, tests, tag):
    """Build what the tests will not build themselves (the VM harness
    builds the module and the helper, Bazel its targets); None or why
    not."""
    if any(f.startswith("kernel/") for f in files) and not any(
            t.startswith(("vm:", "bazel:")) for t in tests):
        if run(["make", "-C", "kernel"], os.path.join(LOGS, tag + "-make.log")):
            return "kernel build failed"
    if any(not f.startswith("kernel/") for f in files):
        if run(["bazel", "build", "//helper:pgpk", "//helper:pgpk-helper"],
               os.path.join(LOGS, tag + "-bazel.log")):
            return "helper build failed"
    return None


def run_tests(tests, tag, data_ready=False):
    """The first failing test of @tests, or None when all pass.  The VM
    test data is made once, by the baseline run (data_ready False)."""
    bazel = [t[len("bazel:"):] for t in tests if t.startswith("bazel:")]
    host = [t[len("host:"):] for t in tests if t.startswith("host:")]
    vm = [t[len("vm:"):] for t in tests if t.startswith("vm:")]
    if bazel:
        log = os.path.join(LOGS, tag + "-bazel-test.log")
        if run(["bazel", "test", "--test_output=errors"] + bazel, log):
            failed = [t for t in bazel if re.search(
                re.escape(t) + r"\s+(FAILED|NO STATUS|TIMEOUT)",
                open(log, errors="replace").read())]
            return "bazel:" + (failed[0] if failed else bazel[0])
    for h in host:
        if run(["bash", "tests/host/%s.sh" % h],
               os.path.join(LOGS, "%s-host-%s.log" % (tag, h))):
            return "host:" + h
    if vm:
        log = os.path.join(LOGS, tag + "-vm.log")
        env = {"PGPK_VM_OUT": VM_OUT}
        if data_ready:
            env["PGPK_VM_NO_DATA"] = "1"
        run(["tests/vm/run.sh"] + vm, log, env=env)
        out = open(log, errors="replace").read()
        if "module not available" in out:
            return "BUILD FAILED: module (see %s)" % log
        # A case that could not run (missing data, module or helper)
        # proves nothing: that is the harness's failure, not a kill.
        infra = re.search(r"^FAIL: vm/\S+ \(FAIL: (test data .* missing|"
                          r"module not available|helper not available)",
                          out, re.M)
        if infra:
            return "BUILD FAILED: %s (see %s)" % (infra.group(1), log)
        for case in vm:
            if not re.search(r"^PASS: vm/%s$" % re.escape(case), out, re.M):
                return "vm:" + case
        if not re.search(r"^PASS: vm/kernel-log$", out, re.M):
            return "vm:kernel-log"
    return None


def main():
    args, without = [], set()
    argv = iter(sys.argv[1:])
    for a in argv:
        if a == "--without":
            without.add(next(argv, ""))
        else:
            args.append(a)
    mutants = parse(os.path.join(ROOT, "tests", "mutation", "mutants"))
    for mu in mutants:
        mu["tests"] = [t for t in mu["tests"] if t not in without]
    if "--list" in args:
        for mu in mutants:
            print("%-28s %s" % (mu["name"], mu["check"]))
        return 0
    if args:
        unknown = set(args) - {mu["name"] for mu in mutants}
        if unknown:
            sys.exit("no such mutant: " + ", ".join(sorted(unknown)))
        mutants = [mu for mu in mutants if mu["name"] in args]
    os.makedirs(LOGS, exist_ok=True)
    t0 = time.time()
    sync_tree()

    tests = sorted({t for mu in mutants for t in mu["tests"]})
    files = sorted({mu["file"] for mu in mutants})
    print("baseline: %d tests on the unmutated tree" % len(tests), flush=True)
    err = build(files, tests, "baseline") or run_tests(tests, "baseline")
    if err:
        print("baseline FAILED (%s): fix the tree first; logs in %s"
              % (err, LOGS))
        return 1

    rows, bad = [], 0
    for mu in mutants:
        path = os.path.join(TREE, mu["file"])
        orig = open(path).read()
        n = orig.count(mu["find"])
        if not mu["tests"]:
            verdict = "SURVIVED (no test left)"
        elif n != 1:
            verdict = "STALE (find text occurs %d times)" % n
        else:
            with open(path, "w") as f:
                f.write(orig.replace(mu["find"], mu["replace"]))
            t = time.time()
            err = build([mu["file"]], mu["tests"], mu["name"])
            verdict = ("BUILD FAILED: " + err if err else
                       run_tests(mu["tests"], mu["name"], True) or
                       "SURVIVED")
            with open(path, "w") as f:
                f.write(orig)
            mu["secs"] = time.time() - t
        killed = not verdict.startswith(("STALE", "BUILD", "SURVIVED"))
        bad += not killed
        rows.append((mu["name"], mu["check"], verdict))
        print("%-28s %-8s %s" % (mu["name"], "killed" if killed else "!!",
                                 verdict), flush=True)

    print()
    print("| mutant | check it disables | first test that failed |")
    print("|---|---|---|")
    for name, check, verdict in rows:
        print("| %s | %s | %s |" % (name, check, verdict))
    print()
    print("%d mutants: %d killed, %d not killed (%.0f s)"
          % (len(rows), len(rows) - bad, bad, time.time() - t0))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""KCOV coverage of pgpk.ko, per function and per file.

usage: kcov-report.py PGPK_KO CONSOLE_OR_COVERAGE

PGPK_KO is the module the VM ran (tests/vm/out/kbuild/pgpk.ko), built
with KCOV_INSTRUMENT=y against the debug kernel.  The second argument is
either the console log of a run of tests/vm/cases/70-sysfuzz.sh (its
"PGPK-KCOV <section> <offset>" lines) or pgpk-sysfuzz's -k file
("<section> <offset>").

A coverage point is a call to __sanitizer_cov_trace_pc (one per basic
block); kcov records its return address, the call's offset + 5.  The
points of each function come from `objdump -dr` of the module, the file
of each function from its DWARF line table (addr2line).  Printed: per
file, points and functions reached; per function, the same; then every
function never reached.  Module init and exit code is counted: the
fuzzer unloads and loads the module once with KCOV on.  KASAN's
constructors (_sub_I_*, _sub_D_*) are listed apart, not counted.
"""
import collections
import os
import re
import subprocess
import sys

CALL = "__sanitizer_cov_trace_pc"


def parse_module(ko):
    """{(section, function): set of point offsets}, {function: (section,
    start)}, and the number of tail calls to the tracer: a `jmp` to it
    records the caller's return address, in the kernel, not a point of
    the module (pgpk-sysfuzz counts those PCs as outside the module)."""
    out = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", ko],
                         check=True, capture_output=True, text=True).stdout
    points = collections.defaultdict(set)
    starts = {}
    section = func = insn = None
    tail_calls = 0
    for line in out.splitlines():
        m = re.match(r"^Disassembly of section (\S+):", line)
        if m:
            section = m.group(1)
            func = None
            continue
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            func = m.group(2)
            starts[func] = (section, int(m.group(1), 16))
            points.setdefault((section, func), set())
            continue
        # "   1a: R_X86_64_PLT32	__sanitizer_cov_trace_pc-0x4"
        m = re.match(r"^\s+([0-9a-f]+): R_X86_64_\w+\s+" + CALL + r"\b",
                     line)
        if m and func:
            if insn == "jmp":
                tail_calls += 1
            else:
                points[(section, func)].add(int(m.group(1), 16) + 4)
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+(\S+)", line)
        if m:
            insn = m.group(1)
    return points, starts, tail_calls


def base_name(func):
    """pgpk_foo for pgpk_foo.cold, .part.0, .isra.0, .constprop.0: the
    pieces gcc cut a function into are counted as that function."""
    return re.sub(r"\.(cold|part|isra|constprop|lto_priv)(\.\d+)?", "",
                  func)


def files_of(ko, starts):
    """{function: source file}: the outermost frame of addr2line -i at the
    function's start (its first instructions may be inlined header code)."""
    files = {}
    by_section = collections.defaultdict(list)
    for f, (s, a) in starts.items():
        by_section[s].append((f, a))
    for s, funcs in by_section.items():
        r = subprocess.run(["addr2line", "-a", "-f", "-i", "-e", ko,
                            "-j", s] + ["0x%x" % a for _, a in funcs],
                           capture_output=True, text=True)
        # Per address: "0x...", then (function, file:line) pairs, inner
        # first.
        outer = []
        for line in r.stdout.splitlines():
            if re.match(r"^0x[0-9a-f]+$", line):
                outer.append(None)
            elif outer and ":" in line and not line.startswith("??:"):
                outer[-1] = line
            elif outer and line.startswith("??:") and outer[-1] is None:
                outer[-1] = "?"
        for (f, _), loc in zip(funcs, outer):
            path = (loc or "?").rsplit(":", 1)[0]
            files[f] = path.rsplit("/", 1)[-1] if path != "?" else "?"
    return files


def defined_in(srcdir, func):
    """The .c file next to the module that defines func (a function gcc
    left only a .cold piece of has no line of its own), or "?"."""
    pat = re.compile(r"^\w[^;=]*\b" + re.escape(func) + r"\(")
    for name in sorted(os.listdir(srcdir)):
        if name.endswith(".c") and not name.endswith(".mod.c"):
            with open(os.path.join(srcdir, name), errors="replace") as fh:
                if any(pat.match(line) for line in fh):
                    return name
    return "?"


def parse_coverage(path):
    """{section: set of offsets} from a console log or a -k file."""
    cov = collections.defaultdict(set)
    with open(path, errors="replace") as fh:
        for line in fh:
            m = re.search(r"(?:PGPK-KCOV )?(\.[\w.]+) ([0-9a-f]+)\s*$", line)
            if m and ("PGPK-KCOV" in line or re.match(r"^\.", line)):
                cov[m.group(1)].add(int(m.group(2), 16))
    return cov


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ko, covfile = sys.argv[1], sys.argv[2]
    points, starts, tail_calls = parse_module(ko)
    files = files_of(ko, starts)
    cov = parse_coverage(covfile)
    if not any(cov.values()):
        sys.exit("kcov-report: no coverage lines in " + covfile)
    # Points and points reached per function, its pieces merged; the
    # file is the whole function's (a .cold piece has no line of its own).
    # KASAN's constructors and destructors (_sub_I_*, _sub_D_*) are the
    # compiler's, not kernel/'s: set apart.
    funcs = collections.defaultdict(lambda: [0, 0])
    apart = set()
    for (s, f), pts in points.items():
        if not pts:
            continue
        if re.match(r"^_sub_[ID]_", f):
            apart.add(f)
            continue
        funcs[base_name(f)][0] += len(pts & cov.get(s, set()))
        funcs[base_name(f)][1] += len(pts)
    per_file = collections.defaultdict(lambda: [0, 0, 0, 0])
    rows = []
    for f, (hit, n) in funcs.items():
        fl = files.get(f, "?")
        if fl == "?":
            fl = defined_in(os.path.dirname(os.path.abspath(ko)), f)
        per_file[fl][0] += hit
        per_file[fl][1] += n
        per_file[fl][2] += 1 if hit else 0
        per_file[fl][3] += 1
        rows.append((fl, f, hit, n))
    rows.sort()
    apart = sorted(apart)
    tot = [sum(v[i] for v in per_file.values()) for i in range(4)]
    print("KCOV coverage of %s: %d of %d points (%.1f%%), %d of %d "
          "functions reached" % (ko, tot[0], tot[1],
                                 100.0 * tot[0] / max(tot[1], 1), tot[2],
                                 tot[3]))
    print("\nper file:               points             functions")
    for fl in sorted(per_file):
        h, n, fh, fn = per_file[fl]
        print("  %-20s %5d/%-5d %5.1f%%   %3d/%-3d" %
              (fl, h, n, 100.0 * h / max(n, 1), fh, fn))
    print("\nper function:")
    for fl, f, h, n in rows:
        print("  %-20s %-40s %4d/%-4d %5.1f%%" %
              (fl, f, h, n, 100.0 * h / max(n, 1)))
    never = [(fl, f) for fl, f, h, n in rows if not h]
    print("\nnever reached (%d):" % len(never))
    for fl, f in never:
        print("  %s: %s" % (fl, f))
    if apart:
        print("\nnot counted (compiler-generated): " + ", ".join(apart))
    if tail_calls:
        print("not counted: %d points reached by a tail call (jmp) to the "
              "tracer, which records the caller's address" % tail_calls)


if __name__ == "__main__":
    main()

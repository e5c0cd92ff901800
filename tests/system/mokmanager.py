#!/usr/bin/python3
"""Answer shim's MokManager on the serial console, as a person would.

usage: mokmanager.py CONSOLE-LOG PASSWORD TIMEOUT -- QEMU-COMMAND...

Runs QEMU-COMMAND (a boot whose firmware variables hold a pending
enrolment: `mokutil --import` in the previous boot), reads its serial
console (written raw to CONSOLE-LOG) and types what the MokManager
screens ask for:

  "Press any key to perform MOK management"   any key (a space)
  "Perform MOK management": Continue boot /
      Enroll MOK / ...                        Down, Enter
  "[Enroll MOK]": View key 0 / Continue       Down, Enter
  "Enroll the key(s)?": No / Yes              Down, Enter
  "Password:"                                 PASSWORD, Enter
  "Perform MOK management": Reboot / ...      Enter

MokManager then resets the machine; with qemu's -no-reboot the command
ends.  Each screen is answered once it has been drawn completely (no
console output for a moment): menus are drawn slowly under TCG.  Exit
status 0 once the last answer was typed and qemu ended, 1 if a screen did
not come within TIMEOUT seconds (the log says which).
"""

import os
import re
import select
import subprocess
import sys
import time

DOWN = b"\x1b[B"
ENTER = b"\r"
# ANSI control sequences and the other escapes OVMF's terminal writes
ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\x1b.")


def screens(password):
    """(what the screen says, what to type, seconds the console must have
    been quiet first) in the order they come.  The first screen counts
    down every second: it is answered at once."""
    return [
        (rb"Press any key to perform MOK management", b" ", 0),
        (rb"Perform MOK management.*Enroll MOK", DOWN + ENTER, 1.5),
        (rb"\[Enroll MOK\].*Continue", DOWN + ENTER, 1.5),
        (rb"Enroll the key\(s\)\?.*Yes", DOWN + ENTER, 1.5),
        (rb"Password", password.encode() + ENTER, 1.5),
        (rb"Perform MOK management.*Reboot", ENTER, 1.5),
    ]


def main(argv):
    if len(argv) < 5 or argv[4] != "--":
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    log_path, password, timeout = argv[1], argv[2], float(argv[3])
    qemu = subprocess.Popen(argv[5:], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    out = qemu.stdout.fileno()
    os.set_blocking(out, False)
    seen = b""  # console text since the last answer, escapes removed
    deadline = time.monotonic() + timeout
    last_output = time.monotonic()
    todo = screens(password)
    with open(log_path, "wb") as log:

        def say(text):
            log.write(b"\nmokmanager.py: " + text.encode() + b"\n")
            log.flush()
            print("mokmanager.py: " + text, file=sys.stderr)

        while True:
            ready, _, _ = select.select([out], [], [], 0.5)
            chunk = b""
            if ready:
                try:
                    chunk = os.read(out, 65536)
                except BlockingIOError:
                    chunk = b""
                if not chunk:  # qemu ended
                    break
                log.write(chunk)
                log.flush()
                seen += ESCAPES.sub(b" ", chunk)
                last_output = time.monotonic()
            if todo and re.search(todo[0][0], seen, re.S) and \
                    time.monotonic() - last_output >= todo[0][2]:
                pattern, keys, _ = todo.pop(0)
                say("screen /%s/: typing %s" % (
                    pattern.decode(), "the password" if
                    password.encode() in keys else repr(keys)))
                qemu.stdin.write(keys)
                qemu.stdin.flush()
                seen = b""
                deadline = time.monotonic() + timeout
            if time.monotonic() > deadline:
                say("no screen /%s/ within %ds: giving up" % (
                    todo[0][0].decode() if todo else "(qemu's end)",
                    timeout))
                qemu.kill()
                qemu.wait()
                return 1
        rc = qemu.wait()
        if todo:
            say("qemu ended (exit %d) before the screen /%s/" % (
                rc, todo[0][0].decode()))
            return 1
        say("enrolled; MokManager reset the machine (qemu exit %d)" % rc)
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
# ttysig.py SIGNAL ANSWERS PROGRAM ARGS...: run PROGRAM on a new
# pseudo-terminal as its controlling terminal, answer ANSWERS of its
# passphrase prompts (known by their text) with "pass", and at the next
# one, once echo is off, send SIGNAL: INT as a typed Ctrl-C, TERM or HUP
# with kill(2).  Exit 0 when the program died of that signal and left
# echo on, else 1 and why.
import fcntl
import os
import re
import select
import signal
import sys
import termios
import time

sig, answers, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
master, slave = os.openpty()
pid = os.fork()
if pid == 0:
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    os.close(master)
    os.close(slave)
    os.execv(argv[0], argv)


def echo_on():
    return bool(termios.tcgetattr(slave)[3] & termios.ECHO)


def fail(why):
    print(why)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    sys.exit(1)


# hibernate's prompts: --setup-key's two, and --resume's.
PROMPT = re.compile(rb"(?:New passphrase for the hibernation key|"
                    rb"Same passphrase again|"
                    rb"Passphrase to resume the hibernation image of "
                    rb"[^\r\n]*\)): ")
out = b""
asked = 0
deadline = time.time() + 60
while asked <= answers:
    if time.time() > deadline:
        fail("no prompt %d after 60 s: %r" % (asked + 1, out))
    if select.select([master], [], [], 0.2)[0]:
        out += os.read(master, 4096)
    # The prompts themselves, not any message that names a passphrase.
    if len(PROMPT.findall(out)) <= asked:
        continue
    asked += 1
    # The prompt is written once echo is off.
    if echo_on():
        fail("echo on at prompt %d" % asked)
    if asked <= answers:
        os.write(master, b"pass\n")
if sig == "INT":
    os.write(master, b"\x03")
else:
    os.kill(pid, getattr(signal, "SIG" + sig))
# Keep reading: a full pty must not block the dying program.
while True:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    if time.time() > deadline:
        fail("still running after SIG%s" % sig)
    if select.select([master], [], [], 0.2)[0]:
        try:
            out += os.read(master, 4096)
        except OSError:
            pass
want = getattr(signal, "SIG" + sig)
if not os.WIFSIGNALED(status) or os.WTERMSIG(status) != want:
    fail("wanted death by SIG%s, got status %#x" % (sig, status))
if not echo_on():
    fail("echo left off after SIG%s" % sig)
sys.exit(0)

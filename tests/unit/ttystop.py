#!/usr/bin/env python3
# ttystop.py PROGRAM ARGS...: run PROGRAM as the foreground job of a
# pseudo-terminal (a small job-control shell in between, as bash would
# run it), and at its first passphrase prompt, once echo is off, type
# Ctrl-Z.  While it is stopped the terminal's echo must be back on (the
# shell's prompt and the user's commands are seen); after "fg" the prompt
# must come again with echo off, and two answers "pass" must let the
# program finish with status 0 and echo on.  Exit 0 when all of that
# holds, else 1 and why.
import fcntl
import os
import re
import select
import signal
import sys
import termios
import time

argv = sys.argv[1:]
master, slave = os.openpty()
status_r, status_w = os.pipe()     # the shell to us: "stopped", "exit N"
control_r, control_w = os.pipe()   # us to the shell: "fg"


def shell():
    """Session leader of the pty, running PROGRAM as its foreground job."""
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    # A job-control shell takes the terminal back from a stopped job.
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    go_r, go_w = os.pipe()
    job = os.fork()
    if job == 0:
        os.setpgid(0, 0)
        os.read(go_r, 1)    # in the foreground first
        for fd in (0, 1, 2):
            os.dup2(slave, fd)
        for fd in (master, slave, status_r, status_w, control_r,
                   control_w, go_r, go_w):
            os.close(fd)
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        os.execv(argv[0], argv)
    os.setpgid(job, job)
    os.tcsetpgrp(slave, job)
    os.write(go_w, b"g")
    while True:
        _, st = os.waitpid(job, os.WUNTRACED)
        if os.WIFSTOPPED(st):
            os.tcsetpgrp(slave, os.getpgrp())
            os.write(status_w, b"stopped\n")
            os.read(control_r, 16)
            os.tcsetpgrp(slave, job)
            os.killpg(job, signal.SIGCONT)
            continue
        code = os.WEXITSTATUS(st) if os.WIFEXITED(st) else \
            128 + os.WTERMSIG(st)
        os.write(status_w, b"exit %d\n" % code)
        os._exit(0)


pid = os.fork()
if pid == 0:
    try:
        shell()
    finally:
        os._exit(1)


def echo_on():
    return bool(termios.tcgetattr(slave)[3] & termios.ECHO)


def fail(why):
    print(why)
    print("terminal output: %r" % out)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    sys.exit(1)


PROMPT = re.compile(rb"(?:New passphrase for the hibernation key|"
                    rb"Same passphrase again): ")
out = b""
deadline = time.time() + 60


def wait_prompts(n):
    """Read the terminal until N prompts in all were shown."""
    global out
    while len(PROMPT.findall(out)) < n:
        if time.time() > deadline:
            fail("no prompt %d after 60 s" % n)
        if select.select([master], [], [], 0.2)[0]:
            out += os.read(master, 4096)


def status():
    """The shell's next report, the terminal drained meanwhile."""
    global out
    line = b""
    while not line.endswith(b"\n"):
        if time.time() > deadline:
            fail("no word from the job after 60 s")
        r = select.select([master, status_r], [], [], 0.2)[0]
        if master in r:
            out += os.read(master, 4096)
        if status_r in r:
            line += os.read(status_r, 64)
    return line.strip().decode()


wait_prompts(1)
if echo_on():
    fail("echo on at the first prompt")
os.write(master, b"\x1a")          # Ctrl-Z
st = status()
if st != "stopped":
    fail("Ctrl-Z at the prompt: wanted the job stopped, got %r" % st)
if not echo_on():
    fail("echo left off while the job is stopped")
os.write(control_w, b"fg\n")
wait_prompts(2)
time.sleep(0.2)
if echo_on():
    fail("echo on at the prompt after fg")
os.write(master, b"pass\n")
wait_prompts(3)
time.sleep(0.2)
if echo_on():
    fail("echo on at the second prompt after fg")
os.write(master, b"pass\n")
st = status()
if st != "exit 0":
    fail("after fg and two answers: wanted exit 0, got %r" % st)
if not echo_on():
    fail("echo left off at the end")
if b": pass" in out:
    fail("the passphrase was echoed")
sys.exit(0)

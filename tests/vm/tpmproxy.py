#!/usr/bin/env python3
"""tpmproxy: a TPM that fails on the host's word, between QEMU and swtpm.

    tpmproxy.py LISTEN SWTPM_CTRL FAULT_FILE

QEMU's TPM emulator backend talks to swtpm over a control socket and
hands it the data channel (a socket) with CMD_SET_DATAFD.  This proxy
listens on LISTEN for QEMU's control connection, relays it to swtpm's
control socket, and gives swtpm a data socket of its own in place of
QEMU's, so that every TPM command passes through it.  While FAULT_FILE
exists and is empty, no command reaches swtpm: each is answered
TPM_RC_INITIALIZE, as a TPM that came back from a sleep without
TPM2_Startup answers (the firmware's own TPM2_Startup on the wake is
refused the same way).  A FAULT_FILE holding "CC RC" (hex) answers only
the commands with code CC, with RC: "15e 101" is a TPM that fails
TPM2_Unseal alone (TPM_RC_FAILURE).  "CC RC after" lets the command
reach swtpm, which runs it, and then answers RC in place of swtpm's
reply, once (the file is removed): a reply lost after the TPM did the
work, "134 101 after" for TPM2_NV_Increment.  The fault is the host's: a
scenario's host script creates and removes the file (tests/vm/README.md).
When swtpm goes away, QEMU's data channel is closed too, so that QEMU
answers every later command with its own failure, as it does when
swtpm stops without a proxy.
"""
import array
import os
import socket
import struct
import sys
import threading

CMD_SET_DATAFD = 16
TPM_RC_INITIALIZE = 0x100
TPM_ST_NO_SESSIONS = 0x8001


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def fault_for(fault_file, code):
    """(RC, after) FAULT_FILE gives command CODE, or (None, False)."""
    try:
        with open(fault_file) as f:
            words = f.read().split()
    except FileNotFoundError:
        return None, False
    if not words:
        return TPM_RC_INITIALIZE, False
    if len(words) in (2, 3) and int(words[0], 16) == code:
        return int(words[1], 16), words[2:] == ["after"]
    return None, False


def data_loop(qemu, swtpm, fault_file, log):
    """One command from QEMU, one response back, as the backend works."""
    try:
        while True:
            head = recv_exact(qemu, 10)
            size = struct.unpack(">I", head[2:6])[0]
            body = recv_exact(qemu, max(size - 10, 0))
            code = struct.unpack(">I", head[6:10])[0]
            rc, after = fault_for(fault_file, code)
            if rc is not None and not after:
                log.write("fault: command 0x%x answered 0x%x\n" % (code, rc))
                log.flush()
                qemu.sendall(struct.pack(">HII", TPM_ST_NO_SESSIONS, 10, rc))
                continue
            swtpm.sendall(head + body)
            rhead = recv_exact(swtpm, 10)
            rsize = struct.unpack(">I", rhead[2:6])[0]
            reply = rhead + recv_exact(swtpm, max(rsize - 10, 0))
            if rc is not None:
                os.unlink(fault_file)
                log.write("fault: command 0x%x ran (swtpm answered 0x%x), its reply lost: answered 0x%x\n"
                          % (code, struct.unpack(">I", rhead[6:10])[0], rc))
                log.flush()
                reply = struct.pack(">HII", TPM_ST_NO_SESSIONS, 10, rc)
            qemu.sendall(reply)
    except (EOFError, OSError):
        log.write("data channel closed\n")
        log.flush()
    qemu.close()
    swtpm.close()


def main():
    listen, swtpm_ctrl, fault_file = sys.argv[1:4]
    log = sys.stdout
    try:
        os.unlink(listen)
    except FileNotFoundError:
        pass
    server = socket.socket(socket.AF_UNIX)
    server.bind(listen)
    server.listen(1)
    qctrl, _ = server.accept()
    sctrl = socket.socket(socket.AF_UNIX)
    sctrl.connect(swtpm_ctrl)

    def to_qemu():
        try:
            while True:
                data = sctrl.recv(65536)
                if not data:
                    break
                qctrl.sendall(data)
        except OSError:
            pass
        qctrl.close()

    threading.Thread(target=to_qemu, daemon=True).start()
    fds = array.array("i")
    while True:
        data, anc, _, _ = qctrl.recvmsg(65536, socket.CMSG_SPACE(4 * fds.itemsize))
        if not data:
            break
        qfd = None
        for level, kind, payload in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                qfd = struct.unpack("i", payload[:4])[0]
        if qfd is None:
            sctrl.sendall(data)
            continue
        # CMD_SET_DATAFD: swtpm gets our end of a new pair, we keep QEMU's.
        ours, theirs = socket.socketpair()
        qemu_data = socket.socket(fileno=qfd)
        sctrl.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                                struct.pack("i", theirs.fileno()))])
        theirs.close()
        threading.Thread(target=data_loop,
                         args=(qemu_data, ours, fault_file, log),
                         daemon=True).start()
        log.write("data channel set (command %d)\n" % struct.unpack(">I", data[:4])[0])
        log.flush()
    sctrl.close()


if __name__ == "__main__":
    main()

"""What one small write to a loopback TCP socket costs this machine (not a test).

The floor under writing every change to every spectator's socket: N connected sockets,
a reader process that waits on all of them (as the clients of a benchmark do), and
rounds of one `os.write` of SIZE bytes to each socket, as the server's watcher flush
does. Reported: user and kernel (system) microseconds per write, and the milliseconds a
round of N writes costs. On loopback the kernel time includes the receiving side's TCP
work and the reader's wake-up, which run in the writer's context.

    .venv/bin/python bench/write_cost.py                  # 500 sockets, 740 bytes
    .venv/bin/python bench/write_cost.py --sockets 50 --size 4000
"""
from __future__ import annotations

import argparse
import os
import resource
import selectors
import socket
import time


def connected_pairs(n: int) -> tuple[list[socket.socket], list[socket.socket]]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(n)
    ours, theirs = [], []
    for _ in range(n):
        client = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
        server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as uvloop's transports
        server.setblocking(False)
        ours.append(server)
        theirs.append(client)
    listener.close()
    return ours, theirs


def read_until_closed(socks: list[socket.socket]) -> None:
    sel = selectors.DefaultSelector()
    for s in socks:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
    open_socks = len(socks)
    while open_socks:
        for key, _ in sel.select():
            try:
                if not key.fileobj.recv(1 << 16):  # type: ignore[union-attr]
                    sel.unregister(key.fileobj)
                    open_socks -= 1
            except BlockingIOError:
                pass


def rounds(fds: list[int], data: bytes, n: int, pause: float) -> tuple[float, float]:
    """(user, system) seconds of n rounds of one write per socket (an empty list: pauses only)."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    for _ in range(n):
        for fd in fds:
            os.write(fd, data)
        time.sleep(pause)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sockets", type=int, default=500)
    ap.add_argument("--size", type=int, default=740, help="bytes per write (a spectator's update)")
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--pause", type=float, default=0.004, help="seconds between rounds (the flush window)")
    args = ap.parse_args()
    ours, theirs = connected_pairs(args.sockets)
    pid = os.fork()
    if pid == 0:
        for s in ours:
            s.close()
        read_until_closed(theirs)
        os._exit(0)
    for s in theirs:
        s.close()
    time.sleep(0.3)
    idle_user, idle_sys = rounds([], b"", args.rounds, args.pause)  # what the pauses cost alone
    user, system = rounds([s.fileno() for s in ours], b"x" * args.size, args.rounds, args.pause)
    writes = args.rounds * args.sockets
    user, system = max(0.0, user - idle_user), max(0.0, system - idle_sys)
    print(f"{args.sockets} sockets, {args.size} bytes, {args.rounds} rounds: per write user "
          f"{1e6 * user / writes:.2f} us, system {1e6 * system / writes:.2f} us; "
          f"per round of {args.sockets} writes {1e3 * (user + system) / args.rounds:.2f} ms; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for s in ours:
        s.close()
    os.waitpid(pid, 0)


if __name__ == "__main__":
    main()

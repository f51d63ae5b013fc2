#!/usr/bin/env python3
"""A TCP tap in front of the printer, run as its own process (like the printer and the platform,
so its forwarding is not counted as the station's work).

Prints `tap listening on tcp://127.0.0.1:PORT`, then for each start of a label (`^XA`) that
arrives: `first-byte SEEN ARRIVED`, both in ns on CLOCK_MONOTONIC (process.hrtime's clock, the
same in every process on the machine, so the benchmark can compare them with its own):

- ARRIVED: when the bytes reached this end of the connection, the kernel's receive timestamp
  (SO_TIMESTAMPNS, set on the listener so every connection has it from its first byte): the
  label at the printer. `-` where the system does not give one (the benchmark counts those).
- SEEN: when this process, woken by them, read them: ARRIVED plus the tap's own wake-up, which
  on a 2-core machine after 100 ms asleep is a few tenths of a millisecond. It is the
  instrument's, not the station's; the benchmark reports it apart.

Written in Python because Node does not give a socket's receive timestamps.
Usage: python3 bench/label-tap.py --target PORT
"""
import os
import selectors
import signal
import socket
import struct
import sys
import time

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35 if sys.platform.startswith("linux") else None)

target = int(sys.argv[sys.argv.index("--target") + 1])
sel = selectors.DefaultSelector()
server = socket.socket()
if SO_TIMESTAMPNS is not None:
    # On the listener, so that every accepted connection has it from its first byte (set on
    # the accepted socket, bytes that arrived before were not stamped).
    try:
        server.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    except OSError:
        pass
server.bind(("127.0.0.1", 0))
server.listen(16)
sel.register(server, selectors.EVENT_READ, None)
sel.register(sys.stdin, selectors.EVENT_READ, "stdin")
peers = {}


def accept():
    client, _ = server.accept()
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        printer = socket.create_connection(("127.0.0.1", target))
    except OSError:
        # The printer is not there: the station sees its connection refused, as it would.
        client.close()
        return
    printer.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    peers[client] = printer
    peers[printer] = client
    sel.register(client, selectors.EVENT_READ, "client")
    sel.register(printer, selectors.EVENT_READ, "printer")


def close(sock):
    other = peers.pop(sock, None)
    for s in (sock, other):
        if s is None:
            continue
        peers.pop(s, None)
        try:
            sel.unregister(s)
        except (KeyError, ValueError):
            pass
        s.close()


def from_client(client):
    try:
        data, ancillary, _, _ = client.recvmsg(65536, socket.CMSG_SPACE(16))
    except OSError:
        return close(client)
    seen_real = time.clock_gettime_ns(time.CLOCK_REALTIME)
    seen = time.monotonic_ns()
    if not data:
        return close(client)
    if b"^XA" in data:
        arrived = "-"
        for level, kind, raw in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(raw) >= 16:
                sec, nsec = struct.unpack("qq", raw[:16])
                # The kernel stamps on the real-time clock: moved onto the monotonic one.
                arrived = str(seen - (seen_real - (sec * 1_000_000_000 + nsec)))
        sys.stdout.write(f"first-byte {seen} {arrived}\n")
        sys.stdout.flush()
    try:
        peers[client].sendall(data)
    except OSError:
        close(client)


def from_printer(printer):
    try:
        data = printer.recv(65536)
        if data:
            return peers[printer].sendall(data)
    except OSError:
        pass
    close(printer)


def stop(*_):
    for s in list(peers):
        s.close()
    server.close()
    os._exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
print(f"tap listening on tcp://127.0.0.1:{server.getsockname()[1]}", flush=True)
while True:
    for key, _ in sel.select():
        if key.data is None:
            accept()
        elif key.data == "stdin":
            if not sys.stdin.buffer.read1(4096):
                stop()
        elif key.data == "client":
            from_client(key.fileobj)
        else:
            from_printer(key.fileobj)

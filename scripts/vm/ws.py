#!/usr/bin/env python3
"""A WebSocket client of touchd's endpoint for the VM checks, standard library only (RFC 6455).

  ws.py HOST PORT [--origin ORIGIN] [--send JSON]... [--seconds S] [--until TEXT]

Connects (with ORIGIN as the Origin header when given), sends each --send as one text message,
then prints each text message it receives as one line, and `close CODE` for the server's close
frame. Stops at the close, after --seconds (default 10), or once a message contains --until.
"""
import argparse
import base64
import os
import socket
import struct
import sys
import time


def frame(opcode, payload):
    mask = os.urandom(4)
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--origin")
    parser.add_argument("--send", action="append", default=[])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--until")
    args = parser.parse_args()
    s = socket.create_connection((args.host, args.port), timeout=args.seconds)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET / HTTP/1.1\r\nHost: {args.host}:{args.port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
    if args.origin:
        request += f"Origin: {args.origin}\r\n"
    s.sendall((request + "\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            sys.exit("ws.py: connection closed during the handshake")
        data += chunk
    head, data = data.split(b"\r\n\r\n", 1)
    if not head.startswith(b"HTTP/1.1 101"):
        sys.exit("ws.py: no upgrade: " + head.decode(errors="replace").splitlines()[0])
    for text in args.send:
        s.sendall(frame(0x1, text.encode()))
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        while len(data) >= 2:
            n, offset = data[1] & 0x7F, 2
            if n == 126:
                if len(data) < 4:
                    break
                n, offset = struct.unpack("!H", data[2:4])[0], 4
            elif n == 127:
                if len(data) < 10:
                    break
                n, offset = struct.unpack("!Q", data[2:10])[0], 10
            if len(data) < offset + n:
                break
            opcode, payload, data = data[0] & 0x0F, data[offset:offset + n], data[offset + n:]
            if opcode == 0x1:
                text = payload.decode()
                print(text, flush=True)
                if args.until and args.until in text:
                    return
            elif opcode == 0x8:
                print("close", struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else "", flush=True)
                return
        s.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        data += chunk


if __name__ == "__main__":
    main()

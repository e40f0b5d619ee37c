"""Sends standard input to a Unix stream socket and prints the answer until the peer closes: HAProxy's runtime API
(`echo "show servers state" | python3 scripts/lib/unix_socket.py /tmp/oncue-fleet/haproxy.sock`) without socat.
"""
import socket
import sys

with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
    s.settimeout(10)
    s.connect(sys.argv[1])
    s.sendall(sys.stdin.buffer.read())
    while chunk := s.recv(65536):
        sys.stdout.buffer.write(chunk)

#!/usr/bin/env python3
"""Hostile clients for scripts/abuse.sh, against http://127.0.0.1:PORT, each bounded in time.

  slow-uploads PORT N   N connections each declaring a 100 MB upload to /admin/imports without a token, two bytes
                        sent; meanwhile /healthz is asked 200 times. Prints how many were answered and closed, and
                        /healthz's p50/p99 in ms.
  slowloris PORT N      N connections from one address (127.0.0.2) each sending half a request head, then nothing;
                        meanwhile /healthz is asked from another (127.0.0.1) every 50 ms for 15 s. Prints how many the
                        server refused at once or cut at the head timeout, and /healthz's p50/p99 in ms.
  spoof PORT N          N requests to /v1/networks through --client-ip-header X-Forwarded-For, each with a new first
                        entry and the same last one (as nginx appends the address it saw). Prints the 200/429 counts.
"""
import socket
import sys
import threading
import time


def healthz(port):
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return (time.perf_counter() - started) * 1000, data.startswith(b"HTTP/1.1 200")


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def slow_uploads(port, n):
    held = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=20)
        s.sendall(b"POST /admin/imports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/csv\r\n"
                  b"Content-Length: 100000000\r\n\r\nab")
        held.append(s)
    times = [healthz(port) for _ in range(200)]
    closed = 0
    for s in held:
        try:
            while s.recv(65536):
                pass
            closed += 1
        except OSError:
            pass
        s.close()
    ok = sum(1 for _, good in times if good)
    ms = [t for t, _ in times]
    print(f"slow uploads: {closed}/{n} answered and closed; /healthz {ok}/200 ok, "
          f"p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms")


def slowloris(port, n):
    held = []

    def attack():
        for _ in range(n):
            s = socket.socket()
            s.settimeout(20)
            s.bind(("127.0.0.2", 0))
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            except OSError:
                pass
            held.append(s)

    attacker = threading.Thread(target=attack)
    attacker.start()
    time.sleep(0.5)
    # Probes while the attack runs: at most 200 or 40 s of them (behind a full server each waits for a slow
    # connection's head timeout).
    times = []
    started = time.perf_counter()
    while time.perf_counter() - started < 15:
        try:
            times.append(healthz(port))
        except OSError:
            times.append((10_000.0, False))
        time.sleep(0.05)
    attacker.join()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as m:
        m.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        text = b""
        while chunk := m.recv(65536):
            text += chunk
    metrics = {line.split(" ")[0]: line.split(" ")[-1] for line in text.decode(errors="replace").split("\n") if line.startswith("oncue_connections")}
    for s in held:
        s.close()
    ok = sum(1 for _, good in times if good)
    ms = [t for t, _ in times]
    refused = metrics.get('oncue_connections_refused_total{reason="per_address"}', "0")
    timed_out = metrics.get('oncue_connections_timed_out_total{phase="head"}', "0")
    print(f"slowloris: the server refused {refused} at once and cut {timed_out} at the head timeout; "
          f"/healthz {ok}/{len(times)} ok, p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.0f} ms")


def spoof(port, n):
    counts = {}
    for i in range(n):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(f"GET /v1/networks HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                      f"X-Forwarded-For: 10.{i // 256 % 256}.{i % 256}.1, 198.51.100.7\r\n\r\n".encode())
            status = s.recv(64).split(b" ")[1].decode()
            counts[status] = counts.get(status, 0) + 1
    print("spoofed X-Forwarded-For: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    {"slow-uploads": slow_uploads, "slowloris": slowloris, "spoof": spoof}[sys.argv[1]](int(sys.argv[2]), int(sys.argv[3]))

#!/usr/bin/env python3
"""The admin API's abuse cases of issue #60 (a security probe of 0.10.0), for scripts/abuse.sh, against a running
release server at http://127.0.0.1:PORT whose store is the SQLite file DB, with ADMIN (the bootstrap token). Each prints
one line of figures; RELIABILITY.md records them.

  audit PORT DB ADMIN           a slow upload of an import key holds nothing open while the admin key makes a key
                                ("backdoor") and a read key sends 10,050 refused PATCHes; then: is the key's creation
                                in audit_log, and how many rows did the refusals add
  flood PORT DB ADMIN SECONDS   a read key sends DELETE /admin/locations/<70 KB of A> for SECONDS at the server's
                                limits: the answers by status and how much the store grew
  deep PORT PID ADMIN           a body of 65,000 '[' on every admin JSON route: status, milliseconds, and the server's
                                RSS before and after
  slow PORT ADMIN               an upload of 1,000,000 bytes at one byte every 2 s: while it lasts, another import, a
                                location edit, a network merge and delete; when and how the slow one ended
  house PORT N                  N keep-alive connections over five addresses (127.0.0.2-6), one request each, then
                                idle; then 200 /healthz on new connections: how many of the N got no answer, p50/p99/max
  jwt PORT SECRET               tokens signed with the server's HS256 secret whose header or lifetime lies: status each
"""
import base64
import hashlib
import hmac
import json
import os
import socket
import sqlite3
import sys
import threading
import time


def request(port, method, path, token=None, body=None, content_type="application/json", source="127.0.0.1", timeout=30):
    """One request on a new connection: (status, body text, milliseconds)."""
    started = time.perf_counter()
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(timeout)
    s.connect(("127.0.0.1", port))
    data = body.encode() if isinstance(body, str) else (body or b"")
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    if body is not None:
        head += f"Content-Type: {content_type}\r\nContent-Length: {len(data)}\r\n"
    s.sendall(head.encode() + b"\r\n" + data)
    reply = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            reply += chunk
    except socket.timeout:
        pass
    s.close()
    text = reply.decode(errors="replace")
    status = int(text.split(" ", 2)[1]) if text.startswith("HTTP/1.1 ") else 0
    return status, text.split("\r\n\r\n", 1)[-1], (time.perf_counter() - started) * 1000


def make_key(port, admin, role, name):
    status, text, _ = request(port, "POST", "/admin/keys", admin, json.dumps({"name": name, "role": role}))
    assert status == 201, text
    made = json.loads(text)
    return made["id"], made["token"]


def slow_upload(port, token, length, network="slow-mart"):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(
        (f"POST /admin/imports?network={network} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
         f"Content-Type: text/csv\r\nContent-Length: {length}\r\n\r\nstore_id,name,lat,lon\n").encode())
    return s


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def audit(port, db, admin):
    importer = make_key(port, admin, "import", "probe importer")[1]
    reader_id, reader = make_key(port, admin, "read", "probe reader")
    rows_before = sqlite3.connect(db).execute("SELECT count(*) FROM audit_log").fetchone()[0]
    upload = slow_upload(port, importer, 100_000)
    status, text, _ = request(port, "POST", "/admin/keys", admin, json.dumps({"name": "backdoor", "role": "admin"}))
    backdoor = json.loads(text)["id"] if status == 201 else None
    counts = {}
    lock = threading.Lock()

    def refuse(n):
        for _ in range(n):
            code = request(port, "PATCH", "/admin/networks/x", reader, '{"name": "X"}')[0]
            with lock:
                counts[code] = counts.get(code, 0) + 1

    started = time.perf_counter()
    threads = [threading.Thread(target=refuse, args=(10_050 // 10,)) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - started
    upload.close()
    time.sleep(2)
    store = sqlite3.connect(db)
    logged = store.execute("SELECT count(*) FROM audit_log WHERE detail = ?", (f"see /admin/keys/{backdoor}",)).fetchone()[0]
    refusal_rows = store.execute("SELECT count(*) FROM audit_log WHERE key_id = ?", (reader_id,)).fetchone()[0]
    rows_after = store.execute("SELECT count(*) FROM audit_log").fetchone()[0]
    print(f"backdoor key {status}; {counts} in {seconds:.1f} s; audit_log rows naming the backdoor's creation: {logged}; "
          f"rows for the 10,050 refusals: {refusal_rows}; rows added in all: {rows_after - rows_before}")


def flood(port, db, admin, seconds):
    reader = make_key(port, admin, "read", "flood reader")[1]
    size = lambda: sum(os.path.getsize(p) for p in (db, db + "-wal") if os.path.exists(p))
    before = size()
    path = "/admin/locations/" + "A" * 70_000
    counts = {}
    deadline = time.time() + seconds
    while time.time() < deadline:
        code = request(port, "DELETE", path, reader)[0]
        counts[code] = counts.get(code, 0) + 1
    time.sleep(2)
    grown = (size() - before) / 1e6
    print(f"{counts} in {seconds} s; the store grew by {grown:.2f} MB ({grown * 3600 / seconds:.1f} MB an hour at this rate)")


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


def deep(port, pid, admin):
    body = "[" * 65_000
    routes = [("POST", "/admin/keys"), ("POST", "/admin/locations"), ("PUT", "/admin/locations/loc_x_1"),
              ("PATCH", "/admin/locations/loc_x_1"), ("PUT", "/admin/networks/x"), ("PATCH", "/admin/networks/x"),
              ("POST", "/admin/networks/x/merge"), ("POST", "/admin/networks/x/aliases"), ("POST", "/v1/region-refresh")]
    before = rss(pid)
    results = []
    peak = before
    for method, path in routes:
        status, _, ms = request(port, method, path, admin, body)
        peak = max(peak, rss(pid))
        results.append(f"{method} {path} {status} {ms:.1f} ms")
    print(f"RSS {before} MB before, {peak} MB at most, {rss(pid)} MB after; " + "; ".join(results))


def slow(port, admin):
    importer = make_key(port, admin, "import", "slow importer")[1]
    s = slow_upload(port, importer, 1_000_000)
    started = time.perf_counter()
    ended = {}

    def trickle():
        try:
            while True:
                s.sendall(b"a")
                time.sleep(2)
        except OSError:
            ended["at"] = time.perf_counter() - started
    t = threading.Thread(target=trickle, daemon=True)
    t.start()
    time.sleep(3)
    csv = "store_id,name,lat,lon\ns1,S One,40.75,-73.99\n"
    others = {
        "import": request(port, "POST", "/admin/imports?network=other-mart", admin, csv, "text/csv")[0],
        "edit": request(port, "POST", "/admin/locations", admin,
                        json.dumps({"network": "other-mart", "id": "s2", "name": "S Two", "latitude": 40.76, "longitude": -73.98}))[0],
        "merge": request(port, "POST", "/admin/networks/other-mart/merge", admin, json.dumps({"into": "dense"}))[0],
        "delete": request(port, "DELETE", "/admin/networks/dense", admin)[0],
    }
    s.settimeout(60)
    try:
        answer = s.recv(4096).decode(errors="replace").split("\r\n", 1)[0]
    except OSError as error:
        answer = str(error)
    t.join(timeout=5)
    print(f"while the upload trickled: {others}; the upload: '{answer}' after {time.perf_counter() - started:.1f} s")


def house(port, n):
    held, unanswered = [], 0
    for i in range(n):
        s = socket.socket()
        s.bind((f"127.0.0.{2 + i % 5}", 0))
        s.settimeout(15)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            if not s.recv(4096).startswith(b"HTTP/1.1 200"):
                unanswered += 1
        except OSError:
            unanswered += 1
        held.append(s)
    times = []
    for _ in range(200):
        status, _, ms = request(port, "GET", "/healthz", timeout=15)
        times.append(ms if status == 200 else 15_000)
    print(f"{n} idle keep-alive connections, {unanswered} of them unanswered; /healthz on a new connection: "
          f"p50 {percentile(times, 0.5):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, max {max(times):.2f} ms")
    for s in held:
        s.close()


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(port, secret):
    key = open(secret, "rb").read().rstrip(b"\r\n")
    now = int(time.time())

    def token(header, claims):
        signing = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
        return signing + "." + b64(hmac.new(key, signing.encode(), hashlib.sha256).digest())

    claims = {"sub": "probe", "iat": now, "exp": now + 900}
    cases = {
        "valid": token({"alg": "HS256"}, claims),
        "alg none, valid HS256 signature": token({"alg": "none"}, claims),
        "crit [exp]": token({"alg": "HS256", "crit": ["exp"]}, claims),
        "iat 10^8 s ahead": token({"alg": "HS256"}, dict(claims, iat=now + 10**8, exp=now + 10**8 + 900)),
        "exp 1e20": token({"alg": "HS256"}, dict(claims, exp=1e20)),
    }
    print("; ".join(f"{why}: {request(port, 'GET', '/v1/networks', value)[0]}" for why, value in cases.items()))


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "audit":
        audit(int(args[0]), args[1], args[2])
    elif command == "flood":
        flood(int(args[0]), args[1], args[2], int(args[3]))
    elif command == "deep":
        deep(int(args[0]), int(args[1]), args[2])
    elif command == "slow":
        slow(int(args[0]), args[1])
    elif command == "house":
        house(int(args[0]), int(args[1]))
    elif command == "jwt":
        jwt(int(args[0]), args[1])
    else:
        sys.exit(f"admin_probe.py: unknown case {command}")

#!/usr/bin/env python3
"""A tile server for the console test: answers GET /{z}/{x}/{y}.png with one 256x256 grey PNG, on a free loopback
port that it writes to the file named by its argument. Standard library only."""
import http.server, struct, sys, zlib


def png(size=256, grey=200):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + bytes([grey]) * size for _ in range(size))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


TILE = png()


class Tiles(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        ok = len(parts) == 3 and parts[2].endswith(".png") and all(p.isdigit() for p in (parts[0], parts[1], parts[2][:-4]))
        self.send_response(200 if ok else 404)
        self.send_header("Content-Type", "image/png" if ok else "text/plain")
        body = TILE if ok else b"not a tile"
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Tiles)
with open(sys.argv[1], "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()

#!/usr/bin/env bash
# No container engine runs on the development machine (`docker` there is only a client), so this checks the
# runtime stage of deploy/Containerfile another way: a minimal Debian bookworm made with debootstrap, the stage's
# own RUN line executed in it (parsed from the Containerfile, not copied), the static-stdlib release binary and the
# entrypoint copied in as the COPY lines say, then `serve` started as the `oncue` user inside the chroot and the
# stage's HEALTHCHECK command run in it. Needs root.
#
#   make release && bash scripts/check-container-runtime.sh     # ROOTFS=/tmp/oncue-rootfs by default, kept for reuse
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOTFS="${ROOTFS:-/tmp/oncue-rootfs}"
BIN="${ONCUE_BIN:-$ROOT/.build/release/oncue}"
FILE="$ROOT/deploy/Containerfile"
PORT="${PORT:-18099}"
[ -x "$BIN" ] || { echo "check-container-runtime: build the release binary first (make release)" >&2; exit 2; }
bash "$ROOT/scripts/system-deps.sh" debootstrap curl >&2

# The runtime stage: everything after the last FROM.
stage="$(awk '/^FROM /{s=""} {s=s $0 "\n"} END{printf "%s", s}' "$FILE")"
run="$(printf '%s' "$stage" | awk '/^RUN /{sub(/^RUN /,""); r=$0; while (r ~ /\\$/) { sub(/\\$/,"",r); getline l; r=r l } print r; exit}')"
health="$(printf '%s' "$stage" | sed -n 's/^HEALTHCHECK .* CMD //p')"
[ -n "$run" ] && [ -n "$health" ] || { echo "check-container-runtime: cannot read the runtime stage" >&2; exit 1; }

if [ ! -x "$ROOTFS/bin/sh" ]; then
  echo "check-container-runtime: debootstrap bookworm into $ROOTFS" >&2
  debootstrap --variant=minbase bookworm "$ROOTFS" http://deb.debian.org/debian >/tmp/oncue-debootstrap.log 2>&1 \
    || { tail -20 /tmp/oncue-debootstrap.log >&2; exit 1; }
fi
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf" 2>/dev/null || true
mountpoint -q "$ROOTFS/proc" || mount -t proc proc "$ROOTFS/proc"
# shellcheck source=lib/server.sh
. "$ROOT/scripts/lib/server.sh"
cleanup() {
  server_stop >/dev/null 2>&1 || true
  umount "$ROOTFS/proc" 2>/dev/null || true
}
trap cleanup EXIT

echo "check-container-runtime: RUN $run" >&2
# A rootfs kept from an earlier run: take its user away, so the stage's useradd runs as it would in a fresh image.
chroot "$ROOTFS" /bin/sh -c "userdel oncue >/dev/null 2>&1; rm -rf /var/lib/oncue; $run" >&2
install -m 0755 "$BIN" "$ROOTFS/usr/local/bin/oncue"
install -m 0755 "$ROOT/deploy/container-entrypoint.sh" "$ROOTFS/usr/local/bin/oncue-entrypoint"
rm -f "$ROOTFS/var/lib/oncue/stores.sqlite"*

echo "check-container-runtime: libraries the binary needs in the image:" >&2
chroot "$ROOTFS" ldd /usr/local/bin/oncue >&2
if chroot "$ROOTFS" ldd /usr/local/bin/oncue | grep -q "not found"; then echo "check-container-runtime: missing libraries" >&2; exit 1; fi

# The port is the one given (the image's is fixed), and "up" is /healthz, what the HEALTHCHECK asks.
server_start --port "$PORT" --probe /healthz --timeout 20 /tmp/oncue-chroot.log \
  chroot --userspec=oncue:oncue "$ROOTFS" /usr/bin/env -i HOME=/var/lib/oncue PATH=/usr/local/bin:/usr/bin:/bin \
  ONCUE_DB=/var/lib/oncue/stores.sqlite ONCUE_HOST=127.0.0.1 ONCUE_PORT="$PORT" \
  /bin/sh -c 'cd /var/lib/oncue && exec /usr/local/bin/oncue-entrypoint serve'
# The HEALTHCHECK as the image runs it, inside the image, at the image's port.
check="${health//8080/$PORT}"
chroot "$ROOTFS" /bin/sh -c "$check" >/dev/null || { cat /tmp/oncue-chroot.log >&2; echo "check-container-runtime: health check failed" >&2; exit 1; }
curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null
curl -fsS "http://127.0.0.1:$PORT/console/" | grep -q "OnCue console"
chroot "$ROOTFS" sh -c 'oncue db check --db /var/lib/oncue/stores.sqlite' >&2
echo "check-container-runtime: the runtime stage installs what the binary needs; the store was created, /healthz, /readyz and /console/ answer" >&2

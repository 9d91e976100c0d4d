#!/usr/bin/env bash
# Builds the gin-referee image without a container engine and checks it runs:
#   1. a static release binary on the host (musl target; falls back to a
#      static glibc binary when the musl target cannot be installed);
#   2. a FROM-scratch image with buildah holding only that binary, with the
#      same user, port and entrypoint as the Dockerfile's runtime stage;
#   3. mounts the committed image and runs its binary from the image's root
#      filesystem (chroot, as UID 65532, root filesystem bind-mounted read-only
#      like the chart's readOnlyRootFilesystem) on a free loopback port; polls
#      GET /healthz, /readyz and /metrics until 200; stops it with SIGTERM and
#      requires a clean exit;
#   4. prints the binary and image sizes.
#
# Runs as root (buildah's vfs storage and chroot need it). Not part of the
# default CI: the release build takes minutes. Environment:
#   IMAGE             image name (default localhost/gin-referee:<crate version>)
#   SKIP_BUILD=1      reuse the binary from the last build
#   BINARY=path       package this prebuilt static binary instead of building
#   STORAGE_DRIVER    buildah storage driver (default vfs: works everywhere,
#                     including inside containers without fuse-overlayfs)
#   STARTUP_TIMEOUT   seconds to wait for /healthz and /readyz (default 30)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
IMAGE=${IMAGE:-localhost/gin-referee:$VERSION}
export STORAGE_DRIVER=${STORAGE_DRIVER:-vfs}
STARTUP_TIMEOUT=${STARTUP_TIMEOUT:-30}
# The service's own drain timeout, kept short here; the script waits a little longer.
SHUTDOWN_TIMEOUT=5
RUNTIME_UID=65532

log() { printf '==> %s\n' "$*"; }
die() { printf 'build-image: %s\n' "$*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || die "run as root (buildah vfs storage, chroot)"
for tool in curl chroot unshare python3; do
  command -v "$tool" >/dev/null || die "$tool is required"
done
if ! command -v buildah >/dev/null; then
  log "installing buildah"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq buildah >/dev/null
fi

# --- 1. static binary ------------------------------------------------------
if [[ -n ${BINARY:-} ]]; then
  BIN=$BINARY
  TARGET=prebuilt
else
  HOST_ARCH=$(uname -m)
  if rustup target list --installed | grep -qx "$HOST_ARCH-unknown-linux-musl" \
    || rustup target add "$HOST_ARCH-unknown-linux-musl" >/dev/null 2>&1; then
    # Rust's musl targets link statically by default. The allocator used on
    # musl (mimalloc) is C, compiled with musl-gcc from musl-tools.
    TARGET=$HOST_ARCH-unknown-linux-musl
    RUSTFLAGS_STATIC=""
    if ! command -v musl-gcc >/dev/null; then
      log "installing musl-tools (musl-gcc, for mimalloc)"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq musl-tools >/dev/null
    fi
  else
    # The musl standard library cannot be fetched: link glibc statically. With an
    # explicit --target the flag applies to the binary only, not to build
    # scripts and proc macros (which must stay dynamic).
    TARGET=$HOST_ARCH-unknown-linux-gnu
    RUSTFLAGS_STATIC="-C target-feature=+crt-static"
    log "musl target unavailable; falling back to static glibc"
  fi
  BIN=target/$TARGET/release/gin-referee
  if [[ ${SKIP_BUILD:-0} != 1 || ! -x $BIN ]]; then
    log "cargo build --release --target $TARGET"
    RUSTFLAGS="${RUSTFLAGS:-} $RUSTFLAGS_STATIC" \
      cargo build --release --locked --bin gin-referee --target "$TARGET"
  fi
fi
# No program interpreter (PT_INTERP) means no dynamic loader: the binary runs
# on an empty filesystem.
if LC_ALL=C readelf -l "$BIN" | grep -q 'Requesting program interpreter'; then
  die "$BIN is dynamically linked"
fi

# --- 2. image ----------------------------------------------------------------
WORK=""
RUN_CTR=""
RUN_PID=""
cleanup() {
  if [[ -n $RUN_PID ]] && kill -0 "$RUN_PID" 2>/dev/null; then kill -KILL "$RUN_PID" 2>/dev/null || true; fi
  if [[ -n $RUN_CTR ]]; then
    buildah umount "$RUN_CTR" >/dev/null 2>&1 || true
    buildah rm "$RUN_CTR" >/dev/null 2>&1 || true
  fi
  if [[ -n $WORK ]]; then buildah rm "$WORK" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT

log "buildah: $IMAGE from scratch"
# Re-running replaces the image instead of leaving an untagged copy behind.
buildah rmi "$IMAGE" >/dev/null 2>&1 || true
WORK=$(buildah from scratch)
buildah copy --quiet --chown 0:0 --chmod 0555 "$WORK" "$BIN" /gin-referee >/dev/null
# Mirrors the Dockerfile's runtime stage.
buildah config \
  --user "$RUNTIME_UID:$RUNTIME_UID" \
  --port 8080/tcp \
  --entrypoint '["/gin-referee"]' \
  --cmd '' \
  --env MIMALLOC_ARENA_EAGER_COMMIT=0 \
  --env MIMALLOC_PURGE_DELAY=0 \
  --created-by "scripts/build-image.sh: COPY gin-referee /gin-referee" \
  --label org.opencontainers.image.title=gin-referee \
  --label "org.opencontainers.image.version=$VERSION" \
  --label org.opencontainers.image.licenses=Apache-2.0 \
  "$WORK"
buildah commit --quiet --rm "$WORK" "$IMAGE" >/dev/null
WORK=""

# --- 3. run the binary from the mounted image --------------------------------
RUN_CTR=$(buildah from "$IMAGE")
ROOTFS=$(buildah mount "$RUN_CTR")
[[ -x $ROOTFS/gin-referee ]] || die "no /gin-referee in $IMAGE"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LOG=$(mktemp)
log "running /gin-referee from the image (uid $RUNTIME_UID, read-only root) on 127.0.0.1:$PORT"
# A private mount namespace makes the read-only bind visible to this process
# only. unshare, sh and chroot all exec, so $! is the service's own PID.
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  GIN_REFEREE_LISTEN="127.0.0.1:$PORT" \
  GIN_REFEREE_WORKERS=1 \
  GIN_REFEREE_LOG_FORMAT=text \
  GIN_REFEREE_SHUTDOWN_TIMEOUT=$SHUTDOWN_TIMEOUT \
  unshare --mount --propagation private -- /bin/sh -c '
    mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
    exec chroot --userspec="$2:$2" "$1" /gin-referee' sh "$ROOTFS" "$RUNTIME_UID" \
  >"$LOG" 2>&1 &
RUN_PID=$!

status() { curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$PORT$1" || true; }
deadline=$((SECONDS + STARTUP_TIMEOUT))
# /metrics too: proves the Prometheus endpoint works from the image. (Its
# process_* series need /proc, which this chroot lacks and a container has.)
for path in /healthz /readyz /metrics; do
  until [[ $(status "$path") == 200 ]]; do
    if ! kill -0 "$RUN_PID" 2>/dev/null; then
      sed 's/^/  | /' "$LOG" >&2
      die "the binary exited before $path answered 200"
    fi
    ((SECONDS < deadline)) || { sed 's/^/  | /' "$LOG" >&2; die "$path did not answer 200 within ${STARTUP_TIMEOUT}s"; }
    sleep 0.2
  done
  log "GET $path: 200"
done

log "SIGTERM"
kill -TERM "$RUN_PID"
rc=0
deadline=$((SECONDS + SHUTDOWN_TIMEOUT + 5))
while kill -0 "$RUN_PID" 2>/dev/null; do
  ((SECONDS < deadline)) || { sed 's/^/  | /' "$LOG" >&2; die "still running $((SHUTDOWN_TIMEOUT + 5))s after SIGTERM"; }
  sleep 0.1
done
wait "$RUN_PID" || rc=$?
RUN_PID=""
if [[ $rc -ne 0 ]]; then
  sed 's/^/  | /' "$LOG" >&2
  die "exit status $rc after SIGTERM (want 0)"
fi
log "exited cleanly (status 0)"
rm -f "$LOG"

# --- 4. sizes ----------------------------------------------------------------
bin_bytes=$(stat -c %s "$BIN")
image_size=$(buildah images --format '{{.Size}}' "$IMAGE" | head -n 1)
gz_bytes=$(gzip -9 -c "$BIN" | wc -c)
log "binary: $bin_bytes bytes ($TARGET)"
log "image $IMAGE: $image_size uncompressed, about $((gz_bytes / 1024)) KiB compressed (gzip of its single layer)"

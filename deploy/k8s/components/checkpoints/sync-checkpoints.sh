#!/bin/sh
# Ships paperdb checkpoints to a query pod's local disk: copies the newest
# complete checkpoint (a ckpt-<20 digits> directory holding its COMPLETE
# marker) from SRC to DST under a temporary name, renames it into place, and
# keeps the newest KEEP there. query_service --follow_checkpoints=DST serves
# it; a half-copied checkpoint is never renamed into place, and
# query_service checks the marker's file list and sizes anyway.
#
#   sync-checkpoints.sh wait   copy one, waiting until SRC has one (init)
#   sync-checkpoints.sh loop   copy each new one, every INTERVAL s (sidecar)
#
# The transport here is a copy from a volume mounted read-only (SRC). This
# is the place to plug in object storage instead: replace `fetch` with a
# download of the newest complete checkpoint's prefix (e.g. `aws s3 sync`,
# `gsutil rsync`, `rclone copy`) into "$2", the rest stays.
set -eu
SRC=${SRC:-/var/lib/paperdb/checkpoints}
DST=${DST:-/var/lib/paperdb-local/checkpoints}
KEEP=${KEEP:-2}
INTERVAL=${INTERVAL:-5}

# The checkpoint names in directory $1, oldest first.
# shellcheck disable=SC2010  # grep keeps only ckpt-<20 digits>.
names() { ls -1 "$1" 2>/dev/null | grep -E '^ckpt-[0-9]{20}$' | sort || true; }

# Copies checkpoint $1 from SRC into directory $2.
fetch() { cp -r "$SRC/$1" "$2"; }

# Copies the newest complete checkpoint if DST lacks it. Status 0 if DST
# then holds a checkpoint.
sync_once() {
  name=$(names "$SRC" | tail -n 1)
  if [ -n "$name" ] && [ -f "$SRC/$name/COMPLETE" ] && [ ! -d "$DST/$name" ]; then
    mkdir -p "$DST"
    # Per pod and process: replicas sharing DST (podman) never collide.
    # shellcheck disable=SC3028  # Kubernetes and podman set HOSTNAME.
    tmp="$DST/.tmp-${HOSTNAME:-pod}-$$-$name"
    rm -rf "$tmp"
    # mv -T fails rather than move into a directory of that name.
    if fetch "$name" "$tmp" && mv -T "$tmp" "$DST/$name" 2>/dev/null; then
      echo "sync-checkpoints: copied $name"
    fi
    rm -rf "$tmp"
    names "$DST" | head -n "-$KEEP" | while read -r old; do rm -rf "${DST:?}/$old"; done
  fi
  [ -n "$(names "$DST")" ]
}

trap 'echo "sync-checkpoints: stopping on a signal"; exit 0' TERM INT
case "${1:-}" in
  wait)
    until sync_once; do
      echo "sync-checkpoints: waiting for a checkpoint in $SRC"
      sleep "$INTERVAL" & wait $!
    done ;;
  loop)
    while :; do
      sync_once || true
      sleep "$INTERVAL" & wait $!
    done ;;
  *) echo "usage: sync-checkpoints.sh wait|loop" >&2; exit 2 ;;
esac

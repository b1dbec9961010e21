# Sourced by deploy/docker/run_check.sh, deploy/docker/base_image.sh and
# deploy/k8s/play_check.sh: common settings and helpers.
#   WORK      where they keep state: ${BUILD_DIR:-build}/podman (git-ignored)
#   IMAGE     the image they build and run: localhost/paperdb:ci
# podman runs with a containers.conf of its own (CONTAINERS_CONF), which sets
# what this kind of machine needs: runc (crun refuses hybrid cgroups: "cgroups
# in hybrid mode not supported") and rlimits lower than podman's defaults
# (which fail with "setrlimit RLIMIT_NOFILE: Operation not permitted").
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=${BUILD_DIR:-build}
[[ $WORK == /* ]] || WORK="$repo/$WORK"
WORK="$WORK/podman"
IMAGE=${IMAGE:-localhost/paperdb:ci}
mkdir -p "$WORK"
cat >"$WORK/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$WORK/containers.conf"

step() { printf '\n== %s\n' "$*"; }
fail() { printf '%s: FAIL: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }
ok() { printf '  ok: %s\n' "$*"; }
# expect_eq WHAT ACTUAL EXPECTED
expect_eq() { [[ "$2" == "$3" ]] || fail "$1: got '$2', expected '$3'"; ok "$1 = $3"; }

# Installs the Debian packages given, if any is missing.
need_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  [[ $(id -u) -eq 0 ]] || fail "missing packages ${missing[*]}: install them or run as root"
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

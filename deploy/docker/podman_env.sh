# shellcheck shell=bash
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

# A query and its expected best result and total over data/ (found by running
# it), checked by run_check.sh and play_check.sh.
# shellcheck disable=SC2034  # Used by the scripts that source this file.
QUERY="dataset distillation"
# shellcheck disable=SC2034
QUERY_FIRST_ID=iclr2024-57d2834f0813070e
# shellcheck disable=SC2034
QUERY_TOTAL=24

# call ADDR TOKEN METHOD [ARGS...]: tools/grpc_call.py from the host; no
# authorization header if TOKEN is empty; killed after CALL_TIMEOUT seconds.
call() {
  local addr=$1 token=$2 method=$3 header=()
  shift 3
  [[ -z $token ]] || header=(-H "authorization: Bearer $token")
  timeout "${CALL_TIMEOUT:-60}" /usr/bin/python3 "$repo/tools/grpc_call.py" "$addr" call "$method" "${header[@]}" "$@"
}
# json EXPR: prints the Python expression EXPR(s) over the JSON `d` on stdin.
json() { python3 -c "import json, sys; d = json.load(sys.stdin); print(*[$1])"; }
# search ADDR TOKEN QUERY: prints "FIRST_ID TOTAL".
search() {
  call "$1" "$2" paperdb.v1.QueryService/SearchPapers -d "{\"query\": \"$3\", \"page_size\": 3}" |
    json 'd["results"][0]["paper"]["id"], d.get("totalSize", "0")'
}
# stream FILE: the IngestFile messages for FILE on stdout, as in README.
stream() {
  printf '{"file_name": "%s"}' "$(basename "$1")"
  # shellcheck disable=SC2016  # $(base64) runs in split's filter shell.
  split -b 1M --filter='printf "{\"content\": \"%s\"}" "$(base64 -w0)"' "$1"
}

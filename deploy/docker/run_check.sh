#!/usr/bin/env bash
# Builds deploy/docker/Dockerfile with podman and runs the image as Kubernetes
# would (CI runs this; so can you, as root on Debian 12):
#
#   bash deploy/docker/run_check.sh
#
#  1. base images debian:bookworm{,-slim} from debootstrap (base_image.sh;
#     the rootfs tarball is cached in ${BUILD_DIR:-build}/podman/base);
#  2. podman build of the Dockerfile, unchanged, as localhost/paperdb:ci;
#  3. every container as Kubernetes runs the pods: user 10001:10001, read-only
#     root filesystem (podman puts a tmpfs on /tmp), all capabilities dropped,
#     no-new-privileges, the store on a named volume, tokens from read-only
#     files, and --network host so the host reaches it on loopback (ports
#     $QUERY_PORT, $INGEST_PORT, and $INGEST_METRICS_PORT for the writer's
#     Prometheus metrics);
#  4. asserts: the one-shot ingest of /data (76 papers) and `verify`; a search
#     from the host with tools/grpc_call.py (first id, total); the token
#     checks; the image's own `probe` on both servers; a file streamed to
#     `ingest_service serve` with the write token, searchable on query_service
#     after catch-up; SIGTERM once a 20 MB file's call shows in the writer's
#     paperdb_ingest_files_in_progress: the call completes (12,000 added) and
#     both servers exit 0; `verify` (12,077).
# SKIP_BUILD=1 reuses the image built last. Exits non-zero with a FAIL line on the first failed check. Cleans up its
# containers and volume, also on failure.
set -euo pipefail
. "$(dirname "$0")/podman_env.sh"
cd "$repo"
QUERY_PORT=${QUERY_PORT:-56271}
INGEST_PORT=${INGEST_PORT:-56272}
INGEST_METRICS_PORT=${INGEST_METRICS_PORT:-56273}
NAME=paperdb-ci  # Prefix of every container and volume made here.
READ_TOKEN=ci-read-token-NOT-A-SECRET
WRITE_TOKEN=ci-write-token-NOT-A-SECRET
need_packages podman runc debootstrap python3-grpcio python3-grpc-tools wamerican

cleanup() {
  podman rm -f -t 0 "$NAME-query" "$NAME-ingest" >/dev/null 2>&1 || true
  podman volume rm -f "$NAME-store" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cleanup
t0=$SECONDS

step "base images (deploy/docker/base_image.sh)"
bash deploy/docker/base_image.sh
t_base=$((SECONDS - t0))

step "podman build -f deploy/docker/Dockerfile -t $IMAGE"
# SKIP_BUILD=1 runs the checks on the image built last (any change to the
# sources rebuilds the whole build stage: it has no ccache).
if [[ ${SKIP_BUILD:-0} == 1 ]] && podman image exists "$IMAGE"; then
  echo "SKIP_BUILD=1: using the image built last"
else
  nice -n 10 podman build --network host -f deploy/docker/Dockerfile -t "$IMAGE" . >"$WORK/build.log" 2>&1 ||
    { tail -30 "$WORK/build.log"; fail "podman build failed; log: $WORK/build.log"; }
  echo "$(grep -c '^--> Using cache' "$WORK/build.log") steps from podman's cache; image $(tail -1 "$WORK/build.log")"
fi
t_build=$((SECONDS - t0 - t_base))

# Tokens as a Secret volume with fsGroup gives them: readable by 10001 only.
tokens="$WORK/tokens"
mkdir -p "$tokens"
printf '%s' "$READ_TOKEN" >"$tokens/read-token"
printf '%s' "$WRITE_TOKEN" >"$tokens/write-token"
chown 10001:10001 "$tokens"/* && chmod 0400 "$tokens"/*
podman volume create "$NAME-store" >/dev/null
# Options every container gets: the pods' securityContext, the store volume.
RUN=(--user 10001:10001 --read-only --cap-drop all --security-opt no-new-privileges
  -v "$NAME-store:/var/lib/paperdb" -v "$tokens:/etc/paperdb/tokens:ro")
DB=--db=/var/lib/paperdb/store

step "one-shot ingest of /data"
out=$(podman run --rm "${RUN[@]}" "$IMAGE" ingest_service "$DB" /data) ||
  fail "one-shot ingest exited $?: $out"
echo "$out"
expect_eq "one-shot ingest total" "$(grep '^total:' <<<"$out" | cut -d, -f1-2)" "total: 4 files, 76 added"

verify() {  # EXPECTED_FILES EXPECTED_PAPERS
  local out
  out=$(podman run --rm "${RUN[@]}" "$IMAGE" ingest_service verify "$DB") || fail "verify exited $?: $out"
  expect_eq "verify" "$(tail -1 <<<"$out" | sed -E 's/^[^:]*: ([0-9]+ files, [0-9]+ papers).*, ([0-9]+ problems)$/\1, \2/')" \
    "$1 files, $2 papers, 0 problems"
}
verify 4 76

step "query_service and ingest_service serve, detached"
podman run -d --name "$NAME-query" --network host "${RUN[@]}" "$IMAGE" \
  query_service "$DB" --listen="127.0.0.1:$QUERY_PORT" --read_token_file=/etc/paperdb/tokens/read-token \
  --catch_up_interval_ms=500 --shutdown_notice_seconds=1 --drain_seconds=10 >/dev/null
podman run -d --name "$NAME-ingest" --network host "${RUN[@]}" "$IMAGE" \
  ingest_service serve "$DB" --listen="127.0.0.1:$INGEST_PORT" \
  --write_token_file=/etc/paperdb/tokens/write-token --read_token_file=/etc/paperdb/tokens/read-token \
  --metrics_listen="127.0.0.1:$INGEST_METRICS_PORT" --drain_seconds=30 >/dev/null
probe() {  # CONTAINER BINARY PORT: the image's own probe, as an exec probe runs it
  podman exec "$1" "$2" probe --listen="127.0.0.1:$3"
}
for i in $(seq 60); do
  probe "$NAME-query" query_service "$QUERY_PORT" >/dev/null 2>&1 &&
    probe "$NAME-ingest" ingest_service "$INGEST_PORT" >/dev/null 2>&1 && break
  ((i < 60)) || { podman logs "$NAME-query" | tail; podman logs "$NAME-ingest" | tail; fail "not SERVING after 30 s"; }
  sleep 0.5
done
expect_eq "query_service probe" "$(probe "$NAME-query" query_service "$QUERY_PORT")" SERVING
expect_eq "ingest_service probe" "$(probe "$NAME-ingest" ingest_service "$INGEST_PORT")" SERVING
expect_eq "query_service's uid" "$(podman exec "$NAME-query" id -u)" 10001
podman exec "$NAME-query" touch /probe 2>/dev/null && fail "the root filesystem is writable"
ok "root filesystem read-only"

step "search from the host (tools/grpc_call.py)"
health=$(call "127.0.0.1:$QUERY_PORT" "" grpc.health.v1.Health/Check -d '{"service": "paperdb.v1.QueryService"}' | json 'd["status"]')
expect_eq "Health/Check paperdb.v1.QueryService" "$health" SERVING
read -r first total <<<"$(search "127.0.0.1:$QUERY_PORT" "$READ_TOKEN" "$QUERY")"
expect_eq "first id of '$QUERY'" "$first" "$QUERY_FIRST_ID"
expect_eq "total of '$QUERY'" "$total" "$QUERY_TOTAL"
denied=$(call "127.0.0.1:$QUERY_PORT" "" paperdb.v1.QueryService/SearchPapers -d '{"query": "x"}' 2>&1 || true)
grep -q "Code: Unauthenticated" <<<"$denied" || fail "search without a token: $denied"
ok "search without a token: UNAUTHENTICATED"

step "a file streamed to ingest_service serve with the write token"
streamed="$WORK/ci_streamed.txt"
printf 'NeurIPS 2025 论文列表\n\n%s\n' "We study quokkanomic relaxation, a container-tested method for \
sparse retrieval over abstracts, and show that quokkanomic schedules converge." >"$streamed"
denied=$(stream "$streamed" | call "127.0.0.1:$INGEST_PORT" "$READ_TOKEN" paperdb.v1.IngestService/IngestFile -d @ 2>&1 || true)
grep -q "Code: PermissionDenied" <<<"$denied" || fail "IngestFile with the read token: $denied"
ok "IngestFile with the read token: PERMISSION_DENIED"
added=$(stream "$streamed" | call "127.0.0.1:$INGEST_PORT" "$WRITE_TOKEN" paperdb.v1.IngestService/IngestFile -d @ | json 'd.get("added", 0)')
expect_eq "IngestFile added" "$added" 1
for i in $(seq 20); do  # query_service catches up every 500 ms
  total=$(search "127.0.0.1:$QUERY_PORT" "$READ_TOKEN" quokkanomic 2>/dev/null | cut -d' ' -f2) && [[ $total == 1 ]] && break
  sleep 0.5
done
expect_eq "query_service total for the streamed word" "$total" 1

step "SIGTERM during an IngestFile call: the call is drained, not cut; both exit 0"
# 12,000 generated abstracts (20 MB) keep the writer busy for seconds. The
# stream is written out first, and the signal waits until the writer's
# paperdb_ingest_files_in_progress gauge shows the call: the client reads its
# whole input before it calls, which takes seconds on a loaded machine.
python3 bench/gen_corpus.py --count 12000 --per_file 12000 --out "$WORK/drain" >/dev/null
big=("$WORK/drain"/*.txt)
stream "${big[0]}" >"$WORK/drain/stream.json"
{ call "127.0.0.1:$INGEST_PORT" "$WRITE_TOKEN" paperdb.v1.IngestService/IngestFile -d @ <"$WORK/drain/stream.json" \
    >"$WORK/drain/reply.json" 2>&1; } &
client=$!
in_progress() {
  python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$INGEST_METRICS_PORT/metrics').read().decode())" |
    sed -n 's/^paperdb_ingest_files_in_progress //p'
}
for i in $(seq 600); do
  [[ $(in_progress 2>/dev/null) == 1 ]] && break
  ((i < 600)) || fail "the IngestFile call did not reach the writer in 60 s: $(head -c 300 "$WORK/drain/reply.json")"
  sleep 0.1
done
ok "the IngestFile call reached the writer (paperdb_ingest_files_in_progress 1)"
podman kill --signal TERM "$NAME-ingest" >/dev/null
podman stop -t 60 "$NAME-query" >/dev/null
wait "$client" || fail "IngestFile in flight at SIGTERM failed: $(head -c 300 "$WORK/drain/reply.json")"
expect_eq "IngestFile in flight at SIGTERM: added" "$(json 'd.get("added", 0)' <"$WORK/drain/reply.json")" 12000
podman wait "$NAME-ingest" >/dev/null
for c in query ingest; do
  expect_eq "$c exit code after SIGTERM" "$(podman inspect -f '{{.State.ExitCode}}' "$NAME-$c")" 0
  logs=$(podman logs "$NAME-$c" 2>&1)
  grep -q '"signal 15: .*draining' <<<"$logs" || fail "$c logged no drain after SIGTERM"
done
ok "both logged 'signal 15: ... draining'"
# The writer's log: the signal, then the access-log line of the call it drained.
last=$(grep -e '"signal 15' -e '"rpc".*IngestFile' <<<"$logs" | tail -2)
[[ $(head -1 <<<"$last") == *'"signal 15'* && $(tail -1 <<<"$last") == *IngestFile* ]] ||
  fail "the writer did not log the signal, then the end of the call: $last"
ok "the writer logged the signal, then the end of the call in flight"
verify 6 12077

t_total=$((SECONDS - t0))
printf '\nrun_check.sh: all checks passed in %d s (base images %d s, podman build %d s, runs %d s)\n' \
  "$t_total" "$t_base" "$t_build" "$((t_total - t_base - t_build))"

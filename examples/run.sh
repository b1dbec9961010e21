#!/usr/bin/env bash
# Runs the Python and Node example clients and the reflection client
# (tools/grpc_call.py, no .proto files) against a live query service over the
# bundled corpus, and checks their outputs against each other.
#
#   examples/run.sh BUILD_DIR   ingest data/ into a temporary store, start
#                               BUILD_DIR's query_service on a free port, run
#                               everything, stop the service
#   examples/run.sh HOST:PORT   use a running query service that holds data/
#
# Prints every check, then "examples: N passed, M failed" and "examples: ok";
# exits 1 if a check failed, 2 if something could not run (the service,
# a reflection call).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
PY=/usr/bin/python3  # Debian's python3 with python3-grpcio and python3-grpc-tools
start=$EPOCHREALTIME
trap 'echo "examples: stopped by a failure at line $LINENO" >&2; exit 2' ERR

[ $# -eq 1 ] || { echo "usage: examples/run.sh BUILD_DIR | HOST:PORT" >&2; exit 2; }
command -v node >/dev/null || { echo "examples: node is not installed" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/paperdb-examples.XXXXXX")
service_pid=
cleanup() {
  if [ -n "$service_pid" ]; then
    kill "$service_pid" 2>/dev/null || true
    wait "$service_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ -d "$1" ]; then
  build=$(cd "$1" && pwd)
  "$build/ingest_service/ingest_service" --db="$tmp/db" "$repo/data/" >"$tmp/ingest.log" 2>&1 ||
    { cat "$tmp/ingest.log" >&2; echo "examples: ingest failed" >&2; exit 2; }
  : >"$tmp/query.log"
  "$build/query_service/query_service" --db="$tmp/db" --listen=127.0.0.1:0 \
    --secondary_dir="$tmp/secondary" >"$tmp/query.log" 2>&1 &
  service_pid=$!
  port=
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$tmp/query.log")
    [ -n "$port" ] && break
    kill -0 "$service_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$port" ] || { cat "$tmp/query.log" >&2; echo "examples: query_service did not start" >&2; exit 2; }
  addr=127.0.0.1:$port
  echo "query_service on $addr (pid $service_pid, store $tmp/db)"
elif [[ "$1" == */* ]]; then
  echo "examples: $1: no such build directory" >&2
  exit 2
else
  addr=$1
fi

# Client dependencies: Python stubs from proto/, Node packages from the lock file.
"$here/python/generate.sh"
if [ ! -d "$here/node/node_modules" ] ||
   [ "$here/node/package-lock.json" -nt "$here/node/node_modules/.package-lock.json" ]; then
  (cd "$here/node" && npm ci --no-audit --no-fund --ignore-scripts)
fi

passed=0
failed=0
check() {  # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" == "$3" ]; then
    passed=$((passed + 1))
    echo "ok   $1: $3"
  else
    failed=$((failed + 1))
    echo "FAIL $1: expected '$2', got '$3'"
  fi
}
json() {  # json FILE EXPRESSION-OF-d: prints a value of a JSON file
  "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
call() {  # call METHOD JSON > output: a call through server reflection
  "$PY" "$repo/tools/grpc_call.py" "$addr" call "paperdb.v1.QueryService/$1" -d "$2"
}
highlights() {  # the distinct highlighted words of a client's output, lower-cased
  grep -o '\[[^]]*\]' "$1" | tr -d '[]' | tr '[:upper:]' '[:lower:]' | sort -u | tr '\n' ' '
}

# Reflection: what grpcurl does, with no .proto files.
"$PY" "$repo/tools/grpc_call.py" "$addr" list >"$tmp/list.txt"
check "reflection lists QueryService" 1 "$(grep -cx paperdb.v1.QueryService "$tmp/list.txt")"
"$PY" "$repo/tools/grpc_call.py" "$addr" describe paperdb.v1.QueryService >"$tmp/describe.txt"
check "reflection describes 5 methods" 5 "$(grep -c '^  rpc ' "$tmp/describe.txt")"
"$PY" "$repo/tools/grpc_call.py" "$addr" describe paperdb.v1.MatchingStrategy >"$tmp/enum.txt"
check "reflection describes an enum's 3 values" 3 "$(grep -c '^  MATCHING_STRATEGY_' "$tmp/enum.txt")"
"$PY" "$repo/tools/grpc_call.py" "$addr" describe paperdb.v1.SimilarPapersRequest >"$tmp/oneof.txt"
check "reflection describes a oneof's 2 fields" 2 "$(grep -c '^    string ' "$tmp/oneof.txt")"
"$PY" "$repo/tools/grpc_call.py" "$addr" call grpc.health.v1.Health/Check \
  -d '{"service": "paperdb.v1.QueryService"}' >"$tmp/health.json"
check "health" SERVING "$(json "$tmp/health.json" 'd["status"]')"

for query in "spiking neural networks delays" "weights"; do
  echo "== query: $query"
  for client in python node; do
    if [ $client = python ]; then
      "$PY" "$here/python/search.py" "$addr" "$query" >"$tmp/$client.txt" || true
    else
      node "$here/node/search.js" "$addr" "$query" >"$tmp/$client.txt" || true
    fi
    echo "-- $client:"
    cat "$tmp/$client.txt"
  done
  diff "$tmp/python.txt" "$tmp/node.txt" >"$tmp/diff.txt" && same=identical || same=different
  check "python and node print the same lines" identical "$same"
  [ $same = identical ] || sed 's/^/     /' "$tmp/diff.txt"  # < python, > node

  # The same search through reflection: page 1, then page 2 with its token.
  request=$("$PY" -c 'import json, sys; print(json.dumps({"query": sys.argv[1], "page_size": 3}))' "$query")
  call SearchPapers "$request" >"$tmp/page1.json"
  token=$(json "$tmp/page1.json" 'd.get("nextPageToken", "")')
  ids=$(json "$tmp/page1.json" '" ".join(r["paper"]["id"] for r in d.get("results", []))')
  if [ -n "$token" ]; then
    call SearchPapers "$("$PY" -c 'import json, sys; r = json.loads(sys.argv[1]); r["page_token"] = sys.argv[2]; print(json.dumps(r))' "$request" "$token")" >"$tmp/page2.json"
    ids="$ids $(json "$tmp/page2.json" '" ".join(r["paper"]["id"] for r in d.get("results", []))')"
  fi
  total=$(json "$tmp/page1.json" 'd.get("totalSize", "0")')
  first=${ids%% *}
  call GetPaper "{\"name\": \"papers/$first\"}" >"$tmp/paper.json"
  words=$(json "$tmp/paper.json" 'd["wordCount"]')

  for client in python node; do
    out=$tmp/$client.txt
    check "$client total_size = reflection's" "$total" \
      "$(sed -n 's/^SearchPapers .*: total_size \([0-9]*\),.*/\1/p' "$out")"
    check "$client hit ids = reflection's (two pages)" "$ids" \
      "$(sed -n 's/^  #[0-9]* \([^ ]*\) .*/\1/p' "$out" | tr '\n' ' ' | sed 's/ $//')"
    check "$client GetPaper of the first hit" "papers/$first: ICLR 2024, $words words" \
      "$(sed -n 's/^GetPaper \(papers\/[^:]*: ICLR.*\)/\1/p' "$out")"
    check "$client BatchGetPapers" "$(( total < 2 ? total : 2 ))" \
      "$(grep -c '^  papers/iclr2024-[0-9a-f]*: ICLR 2024, [0-9]* words$' "$out")"
    check "$client NOT_FOUND" 1 "$(grep -c '^GetPaper papers/iclr2024-0000000000000000: NOT_FOUND (' "$out")"
  done
  check "python and node highlight the same text" "$(highlights "$tmp/python.txt")" \
    "$(highlights "$tmp/node.txt")"
  if [ "$query" = "spiking neural networks delays" ]; then
    check "highlighted words" "delay delayed delays network networks neural snn snns spike spiking " \
      "$(highlights "$tmp/python.txt")"
  fi
done

# The last query was "weights": its snippets hold characters of several UTF-8
# bytes before some highlights (so byte offsets would mark the wrong text),
# and every highlight must be a form of "weight".
check "weights: a highlight whose bytes and code points differ" True \
  "$(json "$tmp/page1.json" 'any(h.get("startByte", 0) != h.get("startCodePoint", 0) for r in d["results"] for h in r["snippet"].get("highlights", []))')"
check "weights: highlighted words" "weight weighting weights " "$(highlights "$tmp/python.txt")"
check "weights: two pages" "$(sed -n 's/^page 2: //p' "$tmp/python.txt")" "3 results, next_page_token set"

call GetPaper '{"name": "papers/iclr2024-0000000000000000"}' >/dev/null 2>"$tmp/notfound.txt" || true
check "reflection NOT_FOUND" "Code: NotFound" "$(sed -n 's/^  \(Code: .*\)/\1/p' "$tmp/notfound.txt")"

seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
echo "examples: $passed passed, $failed failed"
echo "examples: took ${seconds}s"
[ "$failed" -eq 0 ] || exit 1
echo "examples: ok"

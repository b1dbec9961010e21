#!/usr/bin/env bash
# Regenerates, from a real run, the full terminal session in docs/api.md
# (between the markers "<!-- session:begin -->" and "<!-- session:end -->") and
# the short example in README.md (between "<!-- example:begin -->" and
# "<!-- example:end -->"): ingests data/ into a fresh store, starts
# query_service on a free port, runs each command and pastes its real output.
# The README example is one search with a read_mask and one lookup whose reply
# abridge_paper cuts to its main fields. Run after tools/build.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
WORK=$(mktemp -d)
QS_PID=""
cleanup() { [[ -n "$QS_PID" ]] && kill "$QS_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
"$BUILD_DIR/ingest_service/ingest_service" --db="$WORK/db" data/ >/dev/null
: >"$WORK/log"  # Exists before the service starts: the port is read from it.
"$BUILD_DIR/query_service/query_service" --db="$WORK/db" --listen=127.0.0.1:0 2>"$WORK/log" &
QS_PID=$!
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$WORK/log")
  [[ -n "$port" ]] && break
  sleep 0.1
done
real=127.0.0.1:$port

# The docs show localhost:50051, the quick start's address.
run() {
  local shown="$1"; shift
  echo "\$ $shown"
  "$@" 2>&1 || true
  echo
}
id=$(tools/grpc_call.py "$real" call paperdb.v1.QueryService/SearchPapers \
  -d '{"query": "spiking neural networks delays", "page_size": 1}' |
  sed -n 's/.*"id": "\([^"]*\)".*/\1/p' | head -n 1)
{
  echo '```'
  run "tools/grpc_call.py localhost:50051 list" tools/grpc_call.py "$real" list
  run "tools/grpc_call.py localhost:50051 describe paperdb.v1.QueryService" \
    tools/grpc_call.py "$real" describe paperdb.v1.QueryService
  run "tools/grpc_call.py localhost:50051 call grpc.health.v1.Health/Check -d '{\"service\": \"paperdb.v1.QueryService\"}'" \
    tools/grpc_call.py "$real" call grpc.health.v1.Health/Check -d '{"service": "paperdb.v1.QueryService"}'
  run "tools/grpc_call.py localhost:50051 call paperdb.v1.QueryService/GetPaper -d '{\"name\": \"papers/$id\"}'" \
    tools/grpc_call.py "$real" call paperdb.v1.QueryService/GetPaper -d "{\"name\": \"papers/$id\"}"
  run "tools/grpc_call.py localhost:50051 call paperdb.v1.QueryService/GetPaper -d '{\"name\": \"papers/nope\"}'" \
    tools/grpc_call.py "$real" call paperdb.v1.QueryService/GetPaper -d '{"name": "papers/nope"}'
  echo '```'
  echo
  echo 'A search for a phrase and a word; each highlight span is given in UTF-8 bytes, code points and'
  echo 'UTF-16 code units (fields equal to 0 are omitted by protobuf JSON):'
  echo
  echo '```'
  run "tools/grpc_call.py localhost:50051 call paperdb.v1.QueryService/SearchPapers -d '{\"query\": \"\\\"leading indicators\\\" forecasting\", \"page_size\": 1, \"snippet_length\": 80}'" \
    tools/grpc_call.py "$real" call paperdb.v1.QueryService/SearchPapers \
    -d '{"query": "\"leading indicators\" forecasting", "page_size": 1, "snippet_length": 80}'
  echo '```'
} > "$WORK/session.md"
# The README's example: a search for a results page (read_mask), then a lookup
# of its first paper, the reply cut to its main fields (the abstract shortened).
abridge_paper() {
  python3 -c '
import json, sys
paper = json.load(sys.stdin)
keep = ["name", "venue", "year", "abstract", "sources", "urls", "wordCount"]
out = {k: paper[k] for k in keep if k in paper}
if len(out.get("abstract", "")) > 100:
    out["abstract"] = out["abstract"][:100] + "..."
print(json.dumps(out, indent=2, ensure_ascii=False))
'
}
{
  echo '```'
  run "tools/grpc_call.py localhost:50051 call paperdb.v1.QueryService/SearchPapers -d '{\"query\": \"spiking neural networks delays\", \"page_size\": 2, \"snippet_length\": 80, \"read_mask\": \"paper.name,paper.year,score,snippet.text\"}'" \
    tools/grpc_call.py "$real" call paperdb.v1.QueryService/SearchPapers \
    -d '{"query": "spiking neural networks delays", "page_size": 2, "snippet_length": 80, "read_mask": "paper.name,paper.year,score,snippet.text"}'
  echo "\$ tools/grpc_call.py localhost:50051 call paperdb.v1.QueryService/GetPaper -d '{\"name\": \"papers/$id\"}'"
  tools/grpc_call.py "$real" call paperdb.v1.QueryService/GetPaper -d "{\"name\": \"papers/$id\"}" |
    abridge_paper
  echo '```'
} > "$WORK/example.md"
python3 - "$WORK/session.md" "$WORK/example.md" <<'PY'
import re, sys

def replace_between(path, name, text):
    doc = open(path).read()
    begin, end = "<!-- %s:begin -->\n" % name, "<!-- %s:end -->" % name
    start = doc.index(begin) + len(begin)
    doc = doc[:start] + text + doc[doc.index(end):]
    open(path, "w").write(doc)

session = open(sys.argv[1]).read().replace("\n\n```\n\nA search", "\n```\n\nA search")
session = re.sub(r"\n\n```$", "\n```", session.rstrip("\n")) + "\n"
replace_between("docs/api.md", "session", session)
replace_between("README.md", "example", open(sys.argv[2]).read())
PY
echo "docs/api.md: session regenerated; README.md: example regenerated"

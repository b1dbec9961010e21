#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan) into
# ${BUILD_DIR:-build-fuzz} and runs each for FUZZ_SECONDS (default 60) on a
# working copy of its seed corpus (tests/fuzz/corpus/<parser>/, copied to
# build-fuzz/fuzz/corpus/<parser>/, which keeps what earlier runs found).
# Exits non-zero if a fuzzer finds a crash, sanitizer error, failed check,
# timeout or OOM, and prints the path of the input that caused it.
#
#   FUZZ_SECONDS=120 bash tools/fuzz.sh
#   build-fuzz/tests/fuzz/query_parser_fuzzer <input>   # Reproduce a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install_deps.sh --fuzz
BUILD_DIR=${BUILD_DIR:-build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZERS=(abstract_list_parser query_parser extract)

# Fuzzing needs clang: configure only with it (an existing build-fuzz/ keeps
# its compiler), and build only the fuzzers and the libraries they link.
CC=clang CXX=clang++ cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPAPERDB_FUZZ=ON -DPAPERDB_BUILD_TESTS=OFF >/dev/null
targets=()
for f in "${FUZZERS[@]}"; do targets+=("${f}_fuzzer"); done
ninja -C "$BUILD_DIR" "${targets[@]}"

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
failed=()
for f in "${FUZZERS[@]}"; do
  work="$BUILD_DIR/fuzz"
  corpus="$work/corpus/$f"
  artifacts="$work/artifacts/$f/"
  log="$work/$f.log"
  mkdir -p "$corpus" "$artifacts"
  cp tests/fuzz/corpus/"$f"/* "$corpus"/
  max_len=65536  # Paper-list files: a few abstracts' worth.
  if [[ "$f" == query_parser ]]; then
    max_len=16500  # Just over kMaxQueryBytes, so the limit is exercised.
  fi
  echo "== fuzz: $f for ${FUZZ_SECONDS} s (log: $log)"
  status=0
  "$BUILD_DIR/tests/fuzz/${f}_fuzzer" "$corpus" \
    -dict="tests/fuzz/$f.dict" -artifact_prefix="$artifacts" \
    -max_total_time="$FUZZ_SECONDS" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 >"$log" 2>&1 || status=$?
  grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|Done )' "$log" || true
  grep -E '^#[0-9]+[[:space:]]+DONE' "$log" || true
  if ((status != 0)); then
    echo "fuzz: $f FAILED (exit $status); the end of its log:" >&2
    tail -n 60 "$log" >&2
    inputs=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log")
    if [[ -z "$inputs" ]]; then
      echo "fuzz: $f wrote no crash input; see $log" >&2
    fi
    for input in $inputs; do
      echo "fuzz: $f crash input: $input" >&2
      echo "fuzz: reproduce with: $BUILD_DIR/tests/fuzz/${f}_fuzzer $input" >&2
    done
    failed+=("$f")
  fi
done

if ((${#failed[@]} > 0)); then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ok (${FUZZERS[*]}, ${FUZZ_SECONDS} s each)"

#!/usr/bin/env bash
# Installs, with apt-get, exactly the Debian 12 packages paperdb needs to build,
# test and lint. Idempotent: packages already present are left alone, and
# nothing is fetched when all of them are installed.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
  grpc-proto librocksdb-dev libabsl-dev libgtest-dev libgmock-dev
  libicu-dev libstemmer-dev libxxhash-dev libgoogle-perftools-dev
  wamerican  # The English word list compiled into paperdb/text/english_words.cc.
  python3 python3-grpcio python3-grpc-tools
  prometheus-cpp-dev
  libsqlite3-dev libxapian-dev  # Peers in bench/ (SQLite FTS5, Xapian).
  golang-github-gogo-googleapis-dev  # Only its google/rpc/*.proto files.
  openssl  # The TLS tests make their certificates with the openssl CLI.
)
# Fuzzing (tools/fuzz.sh, `--fuzz`) needs clang and its runtime libraries
# (libFuzzer, ASan, UBSan: libclang-rt-14-dev, which clang only recommends).
# CI also fuzzes, lints and runs the benchmark smoke test: `--ci` adds those,
# clang-format, nghttp2-client
# (h2load, for bench/grpc_load.sh), and Node.js for the buf CLI (from npm) if
# there is no npm yet.
if [[ "${1:-}" == "--ci" || "${1:-}" == "--fuzz" ]]; then
  PACKAGES+=(clang libclang-rt-14-dev)
fi
if [[ "${1:-}" == "--ci" ]]; then
  PACKAGES+=(clang-format nghttp2-client)
fi
# The benchmark (bench/run.sh, `--bench`): words for bench/gen_corpus.py and
# h2load for bench/grpc_load.sh, gnuplot for its plot.
if [[ "${1:-}" == "--bench" ]]; then
  PACKAGES+=(wamerican nghttp2-client gnuplot-nox)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [[ "${1:-}" == "--ci" ]] && ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)  # Node.js may come from any source.
fi

if ((${#missing[@]} > 0)); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  echo "install_deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

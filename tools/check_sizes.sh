#!/usr/bin/env bash
# Fails if a source file is over 600 lines or README.md over 14 KB
# (../shared/STYLE.md: small files, one concept each; a README that starts
# fast). Run by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
while IFS= read -r file; do
  lines=$(wc -l <"$file")
  if ((lines > 600)); then
    echo "check_sizes: $file has $lines lines (at most 600): split it by concept"
    status=1
  fi
done < <(git ls-files '*.h' '*.cc' '*.proto' '*.py' '*.sh' '*.mjs' '*.cmake' \
  '*CMakeLists.txt')
readme=$(wc -c <README.md)
if ((readme > 14336)); then
  echo "check_sizes: README.md is $readme bytes (at most 14 KB): move detail into docs/"
  status=1
fi
if ((status == 0)); then echo "check_sizes: ok"; fi
exit "$status"

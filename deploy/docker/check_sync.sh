#!/usr/bin/env bash
# Checks that deploy/docker/Dockerfile stays in sync with how CI builds
# paperdb (statically and in seconds; deploy/docker/run_check.sh then builds
# the image with podman and runs it):
#   1. the build stage runs tools/install_deps.sh and tools/build.sh, the
#      scripts CI runs, on the same Debian release as this machine;
#   2. the runtime stage installs the Debian package of every shared library
#      the two binaries in BUILD_DIR link directly (ELF NEEDED entries,
#      resolved with ldd and dpkg -S); packages of Debian's base image
#      (libc6, libstdc++6, libgcc-s1) are there already.
#   3. the runtime stage copies both binaries and runs as a non-root user
#      with a HEALTHCHECK.
# Usage: deploy/docker/check_sync.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
DOCKERFILE=deploy/docker/Dockerfile
fail() { echo "check_sync: $*" >&2; exit 1; }

grep -q '^RUN bash tools/install_deps.sh' "$DOCKERFILE" || fail "build stage does not run tools/install_deps.sh"
grep -q '^COPY tools/install_deps.sh' "$DOCKERFILE" || fail "build stage does not copy tools/install_deps.sh"
grep -q 'bash tools/build.sh' "$DOCKERFILE" || fail "build stage does not run tools/build.sh"
release=$(. /etc/os-release && echo "$VERSION_CODENAME")
grep -q "^FROM debian:$release AS build" "$DOCKERFILE" || fail "build stage is not debian:$release (this machine's release)"
grep -q "^FROM debian:$release-slim AS runtime" "$DOCKERFILE" || fail "runtime stage is not debian:$release-slim"

# The runtime stage's package list: the words after "apt-get install" up to
# the next "&&".
runtime=$(sed -n '/AS runtime/,$p' "$DOCKERFILE" | tr '\\\n' '  ' |
  sed -n 's/.*apt-get install -y --no-install-recommends \([^&]*\)&&.*/\1/p')
[[ -n "$runtime" ]] || fail "no apt-get install in the runtime stage"

needed=()
for binary in "$BUILD/ingest_service/ingest_service" "$BUILD/query_service/query_service"; do
  [[ -x "$binary" ]] || fail "$binary not built"
  grep '^COPY --from=build ' "$DOCKERFILE" | grep -q " /build/${binary#"$BUILD"/} " ||
    fail "runtime stage does not copy ${binary#"$BUILD"/}"
  for lib in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    path=$(ldd "$binary" | awk -v lib="$lib" '$1 == lib { print $3 }')
    [[ -n "$path" ]] || fail "$binary: cannot resolve $lib"
    # dpkg may know the file by the path ldd gives or by the one it points
    # to (merged /usr), so ask for both.
    package=$({ dpkg -S "$path" || dpkg -S "$(readlink -f "$path")"; } 2>/dev/null |
      head -1 | cut -d: -f1)
    [[ -n "$package" ]] || fail "$lib ($path) belongs to no Debian package"
    needed+=("$package")
  done
done
missing=()
for package in $(printf '%s\n' "${needed[@]}" | sort -u); do
  case "$package" in libc6 | libstdc++6 | libgcc-s1) continue ;; esac
  grep -qw -- "$package" <<<"$runtime" || missing+=("$package")
done
((${#missing[@]} == 0)) || fail "runtime stage lacks packages the binaries link: ${missing[*]}"
grep -q '^USER [1-9]' "$DOCKERFILE" || fail "runtime stage does not run as a non-root user"
grep -q '^HEALTHCHECK' "$DOCKERFILE" || fail "no HEALTHCHECK"
echo "check_sync: Dockerfile in sync (runtime packages: $(wc -w <<<"$runtime"); linked: $(printf '%s\n' "${needed[@]}" | sort -u | tr '\n' ' '))"

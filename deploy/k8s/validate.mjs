// Validates rendered Kubernetes manifests offline (run by validate.sh).
//
//   node validate.mjs NAME=FILE [NAME=FILE...]
//
// Each FILE is multi-document YAML (the output of `kubectl kustomize`, or a
// plain manifest). For every object it:
//  1. builds the kubernetes-models class for its apiVersion and kind (e.g.
//     kubernetes-models/apps/v1/Deployment) and calls .validate(), which checks
//     it against the Kubernetes OpenAPI schema (types, required fields, enums,
//     formats). An apiVersion/kind with no model is an error, not a skip;
//  2. reports fields the schema does not know (a misspelled "readinesProbe"
//     passes the schema, which allows extra properties, but the API server's
//     strict field validation refuses it). The compiled schema validator reads
//     every property it knows, and enumerates the keys of map-like objects
//     (labels, resources.limits...); validate() runs on a proxy that records
//     this, and any key never read is unknown;
//  3. checks references inside one rendering: names unique per kind, every
//     workload's selector matches its own pod template, every Service,
//     PodDisruptionBudget and NetworkPolicy selects some pod template, every
//     HorizontalPodAutoscaler targets a workload that exists, and no pod
//     template names a ConfigMap of this rendering that lives in another
//     namespace or only under a generated name ("NAME-<hash>": kustomize left
//     the reference unrewritten), and containers naming the same image
//     (its last path component) name it the same way (an overlay's `images:`
//     that missed a container would leave it pulling another image).
// It prints one line per FILE and exits 1 naming every object that failed.

import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The packages live in .validate/node_modules beside this script (validate.sh
// installs them there), or in the directory VALIDATE_PREFIX names.
const prefix = process.env.VALIDATE_PREFIX ||
  path.join(path.dirname(fileURLToPath(import.meta.url)), ".validate");
const require = createRequire(path.join(prefix, "package.json"));
const { YAML11_SCHEMA, loadAll } = require("js-yaml");

function modulePath(apiVersion, kind) {
  // "v1" -> kubernetes-models/v1/Kind; "apps/v1" -> kubernetes-models/apps/v1/Kind
  if (!/^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion) ||
      !/^[A-Z][A-Za-z0-9]*$/.test(kind)) {
    return null;
  }
  return `kubernetes-models/${apiVersion}/${kind}`;
}

function modelClass(apiVersion, kind) {
  const specifier = modulePath(apiVersion, kind);
  if (specifier === null) return null;
  try {
    return require(specifier)[kind] ?? null;
  } catch (error) {
    if (error.code === "MODULE_NOT_FOUND" ||
        error.code === "ERR_PACKAGE_PATH_NOT_EXPORTED") {
      return null;
    }
    throw error;
  }
}

// Wraps `root` so that reads are recorded per JSON pointer: `read` maps a
// path to the keys read there, `enumerated` holds paths whose keys were
// listed (maps, whose keys are all allowed).
function track(root) {
  const read = new Map();
  const enumerated = new Set();
  const proxies = new WeakMap();
  const note = (path, key) => {
    if (typeof key !== "string") return;
    if (!read.has(path)) read.set(path, new Set());
    read.get(path).add(key);
  };
  const wrap = (value, path) => {
    if (value === null || typeof value !== "object") return value;
    if (proxies.has(value)) return proxies.get(value);
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        note(path, key);
        const child = Reflect.get(target, key, receiver);
        if (typeof key !== "string" || typeof child === "function") return child;
        return wrap(child, `${path}/${key}`);
      },
      has(target, key) {
        note(path, key);
        return Reflect.has(target, key);
      },
      getOwnPropertyDescriptor(target, key) {
        note(path, key);
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
      ownKeys(target) {
        enumerated.add(path);
        return Reflect.ownKeys(target);
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };
  return { proxy: wrap(root, ""), read, enumerated };
}

function unknownFields(value, path, read, enumerated, found) {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => unknownFields(item, `${path}/${i}`, read, enumerated, found));
    return;
  }
  const known = read.get(path) ?? new Set();
  for (const key of Object.keys(value)) {
    if (!enumerated.has(path) && !known.has(key)) {
      found.push(`${path}/${key}`);
      continue;
    }
    unknownFields(value[key], `${path}/${key}`, read, enumerated, found);
  }
}

function describe(doc, index) {
  const ns = doc?.metadata?.namespace ? `${doc.metadata.namespace}/` : "";
  return `document ${index + 1}: ${doc?.apiVersion ?? "?"} ${doc?.kind ?? "?"} ` +
    `${ns}${doc?.metadata?.name ?? "(no name)"}`;
}

function validateObject(doc) {
  const problems = [];
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    return ["not a YAML mapping"];
  }
  for (const field of ["apiVersion", "kind"]) {
    if (typeof doc[field] !== "string" || doc[field] === "") {
      problems.push(`missing ${field}`);
    }
  }
  if (typeof doc.metadata?.name !== "string" || doc.metadata.name === "") {
    problems.push("missing metadata.name");
  }
  if (problems.length > 0) return problems;
  const Model = modelClass(doc.apiVersion, doc.kind);
  if (Model === null) {
    return [`no Kubernetes schema for apiVersion ${doc.apiVersion}, kind ${doc.kind}`];
  }
  const plain = JSON.parse(JSON.stringify(doc));
  const { proxy, read, enumerated } = track(new Model(plain));
  try {
    proxy.validate();
  } catch (error) {
    if (!Array.isArray(error.errors)) throw error;
    for (const e of error.errors) {
      problems.push(`${e.instancePath || "/"}: ${e.message}` +
        (e.params?.allowedValues ? ` (${e.params.allowedValues.join(", ")})` : ""));
    }
    return problems;
  }
  const found = [];
  unknownFields(plain, "", read, enumerated, found);
  for (const path of found) problems.push(`${path}: field not in the schema`);
  return problems;
}

function selects(selector, labels) {
  if (!selector || typeof selector !== "object") return false;
  const matchLabels = selector.matchLabels ?? {};
  if (Object.keys(matchLabels).length === 0 && !selector.matchExpressions) {
    return true;  // {} selects everything
  }
  for (const [key, value] of Object.entries(matchLabels)) {
    if (labels?.[key] !== value) return false;
  }
  for (const e of selector.matchExpressions ?? []) {
    const has = labels && Object.hasOwn(labels, e.key);
    const value = labels?.[e.key];
    if (e.operator === "In" && !(has && e.values.includes(value))) return false;
    if (e.operator === "NotIn" && has && e.values.includes(value)) return false;
    if (e.operator === "Exists" && !has) return false;
    if (e.operator === "DoesNotExist" && has) return false;
  }
  return true;
}

const WORKLOADS = new Set(["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"]);

function crossCheck(docs) {
  const problems = [];  // [description, message]
  const seen = new Map();
  const templates = [];
  docs.forEach((doc, i) => {
    const key = `${doc.apiVersion.split("/")[0]}|${doc.kind}|` +
      `${doc.metadata.namespace ?? ""}|${doc.metadata.name}`;
    if (seen.has(key)) {
      problems.push([describe(doc, i), `same kind and name as document ${seen.get(key) + 1}`]);
    }
    seen.set(key, i);
    if (WORKLOADS.has(doc.kind)) {
      if (doc.spec?.selector && doc.kind !== "Job" &&
          !selects(doc.spec.selector, doc.spec?.template?.metadata?.labels)) {
        problems.push([describe(doc, i), "its selector does not match its pod template's labels"]);
      }
      templates.push({
        namespace: doc.metadata.namespace,
        labels: doc.spec?.template?.metadata?.labels ?? {},
      });
    }
  });
  const images = new Map();  // Image name -> [full reference, where].
  docs.forEach((doc, i) => {
    if (!WORKLOADS.has(doc.kind)) return;
    const spec = doc.spec?.template?.spec ?? {};
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      const name = (c.image ?? "").split("@")[0].split("/").pop().split(":")[0];
      const seen = images.get(name);
      if (seen && seen[0] !== c.image) {
        problems.push([describe(doc, i), `container ${c.name} runs image ${c.image}, ` +
          `${seen[1]} runs ${seen[0]}`]);
      } else if (!seen) {
        images.set(name, [c.image, `${describe(doc, i)} container ${c.name}`]);
      }
    }
  });
  const selected = (doc, selector) =>
    templates.some((t) => t.namespace === doc.metadata.namespace && selects(selector, t.labels));
  docs.forEach((doc, i) => {
    const where = describe(doc, i);
    if (doc.kind === "Service" && doc.spec?.selector &&
        !selected(doc, { matchLabels: doc.spec.selector })) {
      problems.push([where, "its selector matches no pod template"]);
    }
    if ((doc.kind === "PodDisruptionBudget" && !selected(doc, doc.spec?.selector)) ||
        (doc.kind === "NetworkPolicy" && !selected(doc, doc.spec?.podSelector))) {
      problems.push([where, "its pod selector matches no pod template"]);
    }
    if (WORKLOADS.has(doc.kind)) {
      for (const volume of doc.spec?.template?.spec?.volumes ?? []) {
        const ref = volume.configMap?.name;
        if (!ref) continue;
        const maps = docs.filter((d) => d.kind === "ConfigMap");
        const same = maps.filter((d) => d.metadata.namespace === doc.metadata.namespace);
        if (same.some((d) => d.metadata.name === ref)) continue;
        if (maps.some((d) => d.metadata.name === ref)) {
          problems.push([where, `volume ${volume.name}: ConfigMap ${ref} is in another namespace`]);
        } else if (maps.some((d) => d.metadata.name.startsWith(`${ref}-`))) {
          problems.push([where, `volume ${volume.name}: ConfigMap ${ref} exists only with a ` +
            "generated suffix (the reference was not rewritten)"]);
        }
      }
    }
    if (doc.kind === "HorizontalPodAutoscaler") {
      const target = doc.spec?.scaleTargetRef ?? {};
      const found = docs.some((d) => d.kind === target.kind && d.apiVersion === target.apiVersion &&
        d.metadata.name === target.name && d.metadata.namespace === doc.metadata.namespace);
      if (!found) {
        problems.push([where, `scaleTargetRef ${target.apiVersion} ${target.kind} ` +
          `${target.name} is not in this rendering`]);
      }
    }
  });
  return problems;
}

function main() {
  const args = process.argv.slice(2);
  if (args.length === 0 || args.some((a) => !a.includes("="))) {
    console.error("usage: node validate.mjs NAME=FILE [NAME=FILE...]");
    process.exit(2);
  }
  let failed = 0;
  for (const arg of args) {
    const [name, file] = [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)];
    let docs;
    try {
      docs = loadAll(fs.readFileSync(file, "utf8"), { schema: YAML11_SCHEMA })
        .filter((d) => d !== null && d !== undefined);
    } catch (error) {
      console.error(`FAIL ${name}: ${file}: ${error.message}`);
      failed++;
      continue;
    }
    const errors = [];
    for (const [i, doc] of docs.entries()) {
      for (const problem of validateObject(doc)) errors.push([describe(doc, i), problem]);
    }
    if (errors.length === 0) errors.push(...crossCheck(docs));
    if (docs.length === 0) errors.push(["(file)", "no objects"]);
    if (errors.length > 0) {
      failed++;
      for (const [where, problem] of errors) {
        console.error(`FAIL ${name}: ${where}: ${problem}`);
      }
      continue;
    }
    const kinds = new Map();
    for (const d of docs) kinds.set(d.kind, (kinds.get(d.kind) ?? 0) + 1);
    const summary = [...kinds].map(([k, n]) => (n > 1 ? `${n} ${k}` : k)).join(", ");
    console.log(`ok ${name}: ${docs.length} object${docs.length === 1 ? "" : "s"} valid (${summary})`);
  }
  if (failed > 0) {
    console.error(`validate.mjs: ${failed} of ${args.length} renderings failed`);
    process.exit(1);
  }
}

main();

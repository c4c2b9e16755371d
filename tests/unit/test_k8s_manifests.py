"""The Kubernetes manifests in deploy/k8s deploy what they say, checked without a cluster.

- Every manifest of a built-in kind is valid against the Kubernetes API's own schemas
  (kubernetes-validate, strict: an unknown field is an error, as ``kubectl apply`` makes it),
  for the oldest and the newest Kubernetes minor listed in :data:`KUBERNETES_VERSIONS`.
- kubernetes-validate knows built-in kinds only. The custom resources (the redis-operator's
  RedisCluster, the Prometheus Operator's PodMonitor) and kustomize's Kustomization files are
  checked against small schemas of this file's own instead (:data:`OWN_SCHEMAS`): the required
  fields and the types and values of the fields we set, and at every level we use the names of
  every field their CRDs have at that level (RedisCluster v1beta2 of redis-operator v0.26.0,
  PodMonitor monitoring.coreos.com/v1 of prometheus-operator v0.93.0), so a misspelt field
  fails here as the API server would refuse it. Not the whole CRDs: fields we do not set are
  not type-checked.
- Then what no schema sees and what would break a deploy quietly: the probes look where the
  service listens, every Secret and ConfigMap referenced exists with the key asked for, each
  process signs in as its own Redis user with the password the cluster's ACL file gives it,
  every siege process (the bus services and the archiver) has a Deployment, every bus service a
  disruption budget and none a budget that blocks a node drain, the archiver's archive
  outlives its pod, the autoscalers scale Deployments that exist on the metric the adapter
  serves, and every kustomization lists every manifest of its folder.

Helm values files (deploy/k8s/helm) are not manifests: they are checked only for what the
manifests rely on (the adapter's rule, the operator's pinned version).
"""

from __future__ import annotations

import base64
import configparser
import re
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import kubernetes_validate
import pytest
import yaml
from redis.crc import key_slot

from siege.eventlog.acl import acl_file, example_passwords
from siege.eventlog.keys import SHARDS, log_key
from siegeworks.serve import PROCESSES, SERVICES

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
HELM = "helm"  # deploy/k8s/helm: values files for Helm charts, not manifests

KUBERNETES_VERSIONS = ("1.35", "1.37")
"""The oldest and newest Kubernetes minors the manifests are checked against (1.37: the newest
the locked kubernetes-validate 1.37.0 ships)."""

HOT_SERVICES = ("rules", "dice")  # the services an HPA scales
ARCHIVER = "archiver"  # the process that reads no bus: no consumer group, lag, HPA or budget
LAG_METRIC = "siege_service_lag"
OPERATOR_CHART_VERSION = "0.26.1"
OPERATOR_VERSION = "v0.26.0"


# --------------------------------------------------------------------------------------------
# Loading


@dataclass(frozen=True)
class Doc:
    path: Path
    body: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.body.get("kind"))

    @property
    def name(self) -> str:
        return str(self.body.get("metadata", {}).get("name"))

    @property
    def namespace(self) -> str | None:
        return self.body.get("metadata", {}).get("namespace")

    def __str__(self) -> str:
        return f"{self.path.relative_to(K8S)}: {self.kind} {self.name}"


def manifest_files() -> list[Path]:
    return sorted(path for path in K8S.rglob("*") if path.suffix in (".yaml", ".yml")
                  and HELM not in path.relative_to(K8S).parts)


def documents() -> list[Doc]:
    docs = []
    for path in manifest_files():
        for body in yaml.safe_load_all(path.read_text()):
            if body is None:
                continue
            assert isinstance(body, dict), f"{path}: a document that is not a mapping"
            docs.append(Doc(path, body))
    return docs


def of_kind(kind: str) -> list[Doc]:
    return [doc for doc in documents() if doc.kind == kind]


def by_name(kind: str) -> dict[str, Doc]:
    found = of_kind(kind)
    names = Counter(doc.name for doc in found)
    assert all(n == 1 for n in names.values()), f"{kind} names used twice: {names}"
    return {doc.name: doc for doc in found}


def helm_values(name: str) -> dict[str, Any]:
    return yaml.safe_load((K8S / HELM / name).read_text())


def is_kustomization(doc: Doc) -> bool:
    return str(doc.body.get("apiVersion", "")).startswith("kustomize.config.k8s.io/")


def is_builtin(doc: Doc) -> bool:
    return (doc.body.get("apiVersion"), doc.kind) not in OWN_SCHEMAS


def pod_spec(deployment: Doc) -> dict[str, Any]:
    return deployment.body["spec"]["template"]["spec"]


def container(deployment: Doc) -> dict[str, Any]:
    (only,) = pod_spec(deployment)["containers"]
    return only


def env_of(box: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["name"]: item for item in box.get("env", [])}


def matches(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    assert set(selector) == {"matchLabels"}, "only matchLabels selectors are checked here"
    return all(labels.get(k) == v for k, v in selector["matchLabels"].items())


def pod_labels(deployment: Doc) -> dict[str, str]:
    return deployment.body["spec"]["template"]["metadata"]["labels"]


def secret_data(secret: Doc) -> dict[str, str]:
    """A Secret's values as text (stringData, or data decoded)."""
    data = {k: base64.b64decode(v).decode() for k, v in secret.body.get("data", {}).items()}
    return data | secret.body.get("stringData", {})


def image_parts(image: str) -> tuple[str, str | None]:
    last = image.rsplit("/", 1)[-1]
    if ":" not in last or "@" in image:
        return image, None
    repo, tag = image.rsplit(":", 1)
    return repo, tag


# --------------------------------------------------------------------------------------------
# Our own schemas for what kubernetes-validate does not know


def closed(known: dict[str, Any], others: tuple[str, ...] = (), required: tuple[str, ...] = (),
           ) -> dict[str, Any]:
    """An object with the fields ``known`` (checked) and ``others`` (allowed by the CRD at
    this level, unchecked here); any other field is an error."""
    return {"type": "object", "required": list(required), "additionalProperties": False,
            "properties": known | {name: {} for name in others}}


NAME = {"type": "string", "pattern": r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "maxLength": 63}
LABELS = {"type": "object", "additionalProperties": {"type": "string"}}
METADATA = closed({"name": NAME, "namespace": NAME, "labels": LABELS, "annotations": LABELS},
                  required=("name", "namespace"))
PINNED_IMAGE = {"type": "string", "pattern": r"^[^:@\s]+(:[\w][\w.-]*)$", "not": {
    "pattern": r":latest$"}}
QUANTITIES = {"type": "object", "propertyNames": {"enum": ["cpu", "memory"]},
              "additionalProperties": {"type": ["string", "integer"]}}
RESOURCES = closed({"requests": QUANTITIES, "limits": QUANTITIES}, ("claims",))
PULL_POLICY = {"enum": ["Always", "IfNotPresent", "Never"]}
CONTAINER_SECURITY = closed({"allowPrivilegeEscalation": {"type": "boolean"},
                             "capabilities": closed({"drop": {"type": "array"}}, ("add",))},
                            ("privileged", "procMount", "readOnlyRootFilesystem", "runAsGroup",
                             "runAsNonRoot", "runAsUser", "seLinuxOptions", "seccompProfile",
                             "windowsOptions", "appArmorProfile"))
PVC_TEMPLATE = closed({"spec": closed({
    "accessModes": {"type": "array", "items": {"type": "string"}},
    "resources": closed({"requests": closed({"storage": {"type": "string"}})}),
}, ("storageClassName", "dataSource", "dataSourceRef", "selector", "volumeAttributesClassName",
    "volumeMode", "volumeName"), required=("accessModes", "resources"))}, ("metadata", "status"),
    required=("spec",))
PDB = closed({"enabled": {"type": "boolean"}, "minAvailable": {"type": "integer"},
              "maxUnavailable": {"type": "integer"}})
REDIS_CONFIG = closed({"additionalRedisConfig": NAME},
                      ("dynamicConfig", "maxMemoryPercentOfLimit"))
REDIS_ROLE = closed({
    "redisConfig": REDIS_CONFIG, "pdb": PDB, "securityContext": CONTAINER_SECURITY,
    "replicas": {"type": "integer", "minimum": 3}, "resources": RESOURCES,
}, ("affinity", "livenessProbe", "nodeSelector", "readinessProbe",
    "terminationGracePeriodSeconds", "tolerations", "topologySpreadConstraints"))

REDIS_CLUSTER = closed({
    "apiVersion": {"const": "redis.redis.opstreelabs.in/v1beta2"},
    "kind": {"const": "RedisCluster"},
    "metadata": METADATA,
    "spec": closed({
        # A Redis Cluster needs three primaries at least.
        "clusterSize": {"type": "integer", "minimum": 3},
        # Redis 7: the ACL users' %R~ / %W~ key patterns.
        "clusterVersion": {"const": "v7"},
        # The match logs are the only copy of every match: never without persistence.
        "persistenceEnabled": {"const": True},
        "podSecurityContext": {"type": "object"},
        "kubernetesConfig": closed({
            "image": PINNED_IMAGE, "imagePullPolicy": PULL_POLICY, "resources": RESOURCES,
            "redisSecret": closed({"name": NAME, "key": {"type": "string"}},
                                  required=("name", "key")),
        }, ("ignoreAnnotations", "imagePullSecrets", "minReadySeconds",
            "persistentVolumeClaimRetentionPolicy", "service", "updateStrategy"),
            required=("image", "redisSecret")),
        "acl": closed({"secret": closed({"secretName": NAME},
                                        ("defaultMode", "items", "optional"),
                                        required=("secretName",))},
                      ("persistentVolumeClaim",), required=("secret",)),
        "redisLeader": REDIS_ROLE,
        "redisFollower": REDIS_ROLE,
        "redisExporter": closed({"enabled": {"type": "boolean"}, "image": PINNED_IMAGE,
                                 "imagePullPolicy": PULL_POLICY, "resources": RESOURCES},
                                ("env", "port", "securityContext"), required=("image",)),
        "storage": closed({"volumeClaimTemplate": PVC_TEMPLATE,
                           "nodeConfVolume": {"type": "boolean"},
                           "nodeConfVolumeClaimTemplate": PVC_TEMPLATE},
                          ("keepAfterDelete", "volumeMount"),
                          required=("volumeClaimTemplate",)),
    }, ("TLS", "env", "hostNetwork", "hostPort", "initContainer", "podManagementPolicy", "port",
        "priorityClassName", "redisConfig", "resources", "serviceAccountName", "sidecars"),
        required=("clusterSize", "kubernetesConfig")),
}, required=("apiVersion", "kind", "metadata", "spec"))

POD_MONITOR = closed({
    "apiVersion": {"const": "monitoring.coreos.com/v1"},
    "kind": {"const": "PodMonitor"},
    "metadata": METADATA,
    "spec": closed({
        "selector": closed({"matchLabels": LABELS}, ("matchExpressions",),
                           required=("matchLabels",)),
        "podMetricsEndpoints": {"type": "array", "minItems": 1, "items": closed({
            "port": {"type": "string"}, "path": {"type": "string", "pattern": "^/"},
            "interval": {"type": "string", "pattern": r"^(\d+(ms|s|m|h))+$"},
        }, ("authorization", "basicAuth", "bearerTokenSecret", "enableHttp2", "filterRunning",
            "followRedirects", "honorLabels", "honorTimestamps", "metricRelabelings", "noProxy",
            "oauth2", "params", "portNumber", "proxyConnectHeader", "proxyFromEnvironment",
            "proxyUrl", "relabelings", "scheme", "scrapeTimeout", "targetPort", "tlsConfig",
            "trackTimestampsStaleness"), required=("port",))},
    }, ("attachMetadata", "bodySizeLimit", "convertClassicHistogramsToNHCB",
        "fallbackScrapeProtocol", "jobLabel", "keepDroppedTargets", "labelLimit",
        "labelNameLengthLimit", "labelValueLengthLimit", "namespaceSelector",
        "nativeHistogramBucketLimit", "nativeHistogramMinBucketFactor", "podTargetLabels",
        "sampleLimit", "scrapeClass", "scrapeClassicHistograms", "scrapeNativeHistograms",
        "scrapeProtocols", "selectorMechanism", "targetLimit"),
        required=("selector", "podMetricsEndpoints")),
}, required=("apiVersion", "kind", "metadata", "spec"))

KUSTOMIZATION = closed({
    "apiVersion": {"const": "kustomize.config.k8s.io/v1beta1"},
    "kind": {"const": "Kustomization"},
    "resources": {"type": "array", "minItems": 1, "items": {"type": "string"}},
    "images": {"type": "array", "items": closed(
        {"name": {"type": "string"}, "newName": {"type": "string"},
         "newTag": {"type": "string"}}, ("digest",), required=("name",))},
}, ("namespace", "namePrefix", "nameSuffix", "labels", "commonLabels", "commonAnnotations",
    "patches", "configMapGenerator", "secretGenerator", "generatorOptions", "replicas",
    "components"), required=("apiVersion", "kind", "resources"))

OWN_SCHEMAS: dict[tuple[str, str], dict[str, Any]] = {
    ("redis.redis.opstreelabs.in/v1beta2", "RedisCluster"): REDIS_CLUSTER,
    ("monitoring.coreos.com/v1", "PodMonitor"): POD_MONITOR,
    ("kustomize.config.k8s.io/v1beta1", "Kustomization"): KUSTOMIZATION,
}


# --------------------------------------------------------------------------------------------
# Schemas


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_built_in_kinds_are_valid_against_the_kubernetes_api(version: str) -> None:
    assert any(v.startswith(version + ".") for v in kubernetes_validate.utils.all_versions())
    errors, checked = [], 0
    for doc in documents():
        if not is_builtin(doc):
            continue
        checked += 1
        try:
            kubernetes_validate.validate(doc.body, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            errors.append(f"{doc}: {'.'.join(map(str, error.path))}: {error.message}")
        except kubernetes_validate.SchemaNotFoundError as error:
            errors.append(f"{doc}: {error.message} (a custom resource needs a schema of its "
                          "own in OWN_SCHEMAS)")
    assert checked >= 10
    assert not errors, "\n".join(errors)


def test_custom_resources_and_kustomizations_match_our_own_schemas() -> None:
    errors, seen = [], set()
    for doc in documents():
        if is_builtin(doc):
            continue
        key = (doc.body.get("apiVersion"), doc.kind)
        seen.add(key)
        validator = jsonschema.Draft202012Validator(OWN_SCHEMAS[key])
        errors += [f"{doc}: {'.'.join(map(str, e.path)) or '(top)'}: {e.message}"
                   for e in validator.iter_errors(doc.body)]
    assert seen == set(OWN_SCHEMAS), f"no document of {set(OWN_SCHEMAS) - seen}"
    assert not errors, "\n".join(errors)


def test_every_kustomization_lists_every_manifest_of_its_folder() -> None:
    folders = {path.parent for path in manifest_files()}
    for folder in folders:
        kustomization = folder / "kustomization.yaml"
        assert kustomization.is_file(), f"{folder} has manifests and no kustomization.yaml"
        listed = yaml.safe_load(kustomization.read_text())["resources"]
        assert len(listed) == len(set(listed)), f"{kustomization} lists a file twice"
        present = {path.name for path in folder.iterdir()
                   if path.suffix in (".yaml", ".yml") and path.name != "kustomization.yaml"}
        assert set(listed) == present, (
            f"{kustomization}: lists {sorted(set(listed) - present)} that are not there, "
            f"misses {sorted(present - set(listed))}")


# --------------------------------------------------------------------------------------------
# The services


def test_every_siege_process_has_a_deployment_that_runs_it() -> None:
    deployments = by_name("Deployment")
    assert set(deployments) == set(PROCESSES), (
        f"Deployments {sorted(deployments)}, siege serve runs {sorted(PROCESSES)}")
    for name, deployment in deployments.items():
        args = container(deployment)["args"]
        assert args == ["serve", name], f"{deployment} runs siege {' '.join(args)}"
        labels = pod_labels(deployment)
        assert matches(deployment.body["spec"]["selector"], labels)
        others = [d.name for d in deployments.values()
                  if d is not deployment and matches(deployment.body["spec"]["selector"],
                                                     pod_labels(d))]
        assert not others, f"{deployment}'s selector also selects {others}"
        assert deployment.body["spec"]["replicas"] >= 1, deployment


def test_every_bus_service_has_a_disruption_budget_over_two_replicas() -> None:
    deployments, budgets = by_name("Deployment"), of_kind("PodDisruptionBudget")
    for service in SERVICES:
        deployment = deployments[service]
        mine = [b for b in budgets if matches(b.body["spec"]["selector"],
                                              pod_labels(deployment))]
        assert len(mine) == 1, f"{service}: {len(mine)} PodDisruptionBudgets select its pods"
        (budget,) = mine
        assert budget.body["spec"].get("minAvailable") == 1, budget
        others = [d.name for d in deployments.values()
                  if d is not deployment and matches(budget.body["spec"]["selector"],
                                                     pod_labels(d))]
        assert not others, f"{budget} also selects {others}"
        assert deployment.body["spec"]["replicas"] >= 2, deployment


def test_no_disruption_budget_blocks_a_node_drain() -> None:
    """A budget keeping as many pods available as the Deployment has (one of one: the
    archiver's single replica) lets no pod be evicted, so a node drain never finishes."""
    deployments = by_name("Deployment")
    for budget in of_kind("PodDisruptionBudget"):
        spec = budget.body["spec"]
        selected = [d for d in deployments.values()
                    if matches(spec["selector"], pod_labels(d))]
        assert selected, f"{budget} selects no Deployment's pods"
        replicas = sum(d.body["spec"]["replicas"] for d in selected)
        if "minAvailable" in spec:
            assert isinstance(spec["minAvailable"], int), f"{budget}: a count, not a share"
            assert spec["minAvailable"] < replicas, (
                f"{budget} keeps {spec['minAvailable']} of {replicas} pods: no drain can evict")
        if "maxUnavailable" in spec:
            assert spec["maxUnavailable"] not in (0, "0%"), f"{budget} allows no eviction"


def test_the_probes_look_where_the_service_serves_them() -> None:
    for deployment in of_kind("Deployment"):
        box = container(deployment)
        env = env_of(box)
        port = int(env["SIEGE_METRICS_PORT"]["value"])
        # The kubelet probes the pod's address: a server on 127.0.0.1 would never answer it.
        assert env["SIEGE_METRICS_HOST"]["value"] == "0.0.0.0", deployment
        ports = {p["name"]: p["containerPort"] for p in box["ports"]}
        assert port in ports.values(), f"{deployment}: metrics port {port} not exposed"
        paths = {"livenessProbe": "/livez", "readinessProbe": "/readyz", "startupProbe": "/livez"}
        assert {"livenessProbe", "readinessProbe"} <= set(box), deployment
        for probe, path in paths.items():
            if probe not in box:
                continue
            get = box[probe]["httpGet"]
            assert get["path"] == path, f"{deployment}: {probe} asks {get['path']}"
            target = ports.get(get["port"], get["port"])
            assert target == port, f"{deployment}: {probe} on {get['port']}, serving on {port}"
        annotations = deployment.body["spec"]["template"]["metadata"].get("annotations", {})
        assert annotations.get("prometheus.io/port") == str(port), deployment
        assert annotations.get("prometheus.io/path", "/metrics") == "/metrics", deployment


def test_each_replica_consumes_under_a_name_of_its_own() -> None:
    for deployment in of_kind("Deployment"):
        consumer = env_of(container(deployment))["SIEGE_CONSUMER"]
        assert "value" not in consumer, f"{deployment}: one fixed name for every replica"
        assert consumer["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name", deployment


def test_a_stopping_replica_has_time_to_finish_its_batch() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string((ROOT / "deploy/services/siege@.service").read_text())
    systemd_grace = int(unit["Service"]["TimeoutStopSec"])
    for deployment in of_kind("Deployment"):
        grace = pod_spec(deployment).get("terminationGracePeriodSeconds", 30)
        assert grace >= systemd_grace, f"{deployment}: {grace} s to stop, systemd gives more"


def test_every_container_requests_and_limits_cpu_and_memory() -> None:
    for deployment in of_kind("Deployment"):
        resources = container(deployment)["resources"]
        for what in ("cpu", "memory"):
            request = quantity(resources["requests"][what])
            limit = quantity(resources["limits"][what])
            assert 0 < request <= limit, f"{deployment}: {what} request {request} > {limit}"


def quantity(value: str | int) -> float:
    """A Kubernetes quantity (100m, 1, 256Mi, 1Gi, 2G) as a number."""
    units = {"m": 1e-3, "": 1, "k": 1e3, "M": 1e6, "G": 1e9, "Ki": 2**10, "Mi": 2**20,
             "Gi": 2**30, "Ti": 2**40}
    number, unit = re.fullmatch(r"([0-9.]+)([a-zA-Z]*)", str(value)).groups()  # type: ignore
    return float(number) * units[unit]


# --------------------------------------------------------------------------------------------
# Secrets, ConfigMaps and who signs in as whom


def references(doc: Doc) -> Iterator[tuple[str, str, str | None]]:
    """(kind, name, key or None) of every Secret and ConfigMap ``doc`` needs."""
    if doc.kind == "Deployment":
        spec = pod_spec(doc)
        for box in spec.get("containers", []) + spec.get("initContainers", []):
            for source in box.get("envFrom", []):
                if "secretRef" in source:
                    yield "Secret", source["secretRef"]["name"], None
                if "configMapRef" in source:
                    yield "ConfigMap", source["configMapRef"]["name"], None
            for item in box.get("env", []):
                ref = item.get("valueFrom", {})
                if "secretKeyRef" in ref:
                    yield "Secret", ref["secretKeyRef"]["name"], ref["secretKeyRef"]["key"]
                if "configMapKeyRef" in ref:
                    ref = ref["configMapKeyRef"]
                    yield "ConfigMap", ref["name"], ref["key"]
        for volume in spec.get("volumes", []):
            if "secret" in volume:
                items = volume["secret"].get("items") or [{"key": None}]
                for item in items:
                    yield "Secret", volume["secret"]["secretName"], item["key"]
            if "configMap" in volume:
                items = volume["configMap"].get("items") or [{"key": None}]
                for item in items:
                    yield "ConfigMap", volume["configMap"]["name"], item["key"]
    if doc.kind == "RedisCluster":
        spec = doc.body["spec"]
        secret = spec["kubernetesConfig"]["redisSecret"]
        yield "Secret", secret["name"], secret["key"]
        # The operator mounts the key user.acl at /etc/redis/user.acl.
        yield "Secret", spec["acl"]["secret"]["secretName"], "user.acl"
        for role in ("redisLeader", "redisFollower"):
            config = spec.get(role, {}).get("redisConfig", {}).get("additionalRedisConfig")
            if config:  # mounted and included as redis-additional.conf
                yield "ConfigMap", config, "redis-additional.conf"


def test_every_secret_and_config_map_referenced_exists_with_its_key() -> None:
    held = {"Secret": {n: set(secret_data(d)) for n, d in by_name("Secret").items()},
            "ConfigMap": {n: set(d.body.get("data", {})) for n, d in by_name("ConfigMap").items()}}
    missing, used = [], 0
    for doc in documents():
        for kind, name, key in references(doc):
            used += 1
            if name not in held[kind]:
                missing.append(f"{doc}: {kind} {name} is not in the manifests")
            elif key is not None and key not in held[kind][name]:
                missing.append(f"{doc}: {kind} {name} has no key {key}")
    assert used >= 8
    assert not missing, "\n".join(missing)


def redis_cluster() -> Doc:
    (cluster,) = of_kind("RedisCluster")
    return cluster


def acl_users(text: str) -> dict[str, str]:
    """user name -> its line, of an ACL file."""
    return {line.split()[1]: line for line in text.splitlines() if line.startswith("user ")}


def test_each_service_signs_in_as_its_own_user_with_the_password_the_cluster_gives_it() -> None:
    secrets, cluster = by_name("Secret"), redis_cluster()
    acl = acl_users(secret_data(secrets[cluster.body["spec"]["acl"]["secret"]["secretName"]])
                    ["user.acl"])
    leader = f"{cluster.name}-leader.{cluster.namespace}.svc"  # the operator's Service
    used_by: dict[str, str] = {}
    for service, deployment in by_name("Deployment").items():
        (source,) = container(deployment)["envFrom"]
        name = source["secretRef"]["name"]
        assert used_by.setdefault(name, service) == service, f"{name} shared by two services"
        url = urlsplit(secret_data(secrets[name])["REDIS_URL"])
        assert url.username == f"siege-{service}", f"{service} signs in as {url.username}"
        assert (url.hostname, url.port) == (leader, cluster.body["spec"].get("port", 6379)), (
            f"{service} connects to {url.hostname}:{url.port}, the cluster is {leader}")
        assert url.path == "/0", "a Redis Cluster has database 0 only"
        assert url.scheme == "redis+cluster", f"{service} would take the cluster for one Redis"
        assert f" on >{url.password} " in acl[url.username] + " ", (
            f"{service}: its Secret's password is not the one the ACL file gives siege-{service}")


def test_the_cluster_acl_file_is_the_projects_with_the_operators_default_user() -> None:
    """The ACL Secret holds the users of ``siege acl file`` (so a change of a service's rights
    in siege.eventlog.acl reaches the cluster only when this Secret is written again), except
    `default`, which the operator, its probes and the replicas sign in as with the password of
    the Secret named by redisSecret."""
    secrets, spec = by_name("Secret"), redis_cluster().body["spec"]
    lines = secret_data(secrets[spec["acl"]["secret"]["secretName"]])["user.acl"].splitlines()
    admin = spec["kubernetesConfig"]["redisSecret"]
    password = secret_data(secrets[admin["name"]])[admin["key"]]
    expected = acl_file(example_passwords()).splitlines()
    assert expected[0].startswith("user default off")
    assert lines[0] == f"user default on >{password} ~* &* +@all", (
        f"the first user of the ACL Secret must be the operator's default user, with the "
        f"password of {admin['name']}: {lines[0][:60]}")
    assert lines[1:] == expected[1:], ("the ACL Secret differs from siege acl file's users: "
                                       "write it again (deploy/k8s/README.md, Secrets)")


def test_the_secrets_in_the_repository_hold_placeholders_only() -> None:
    for secret in of_kind("Secret"):
        for key, value in secret_data(secret).items():
            if key == "REDIS_URL":
                assert urlsplit(value).password.startswith("change-me-"), secret
            elif key == "user.acl":
                for line in value.splitlines():
                    secrets = [word[1:] for word in line.split() if word.startswith(">")]
                    assert all(s.startswith("change-me-") for s in secrets), (secret, line)
            elif key == "password":
                assert value.startswith("change-me-"), secret
            else:
                assert "PRIVATE KEY" not in value and value.startswith("placeholder"), secret


def test_only_dice_reads_the_signing_key_and_from_its_mounted_secret() -> None:
    deployments, secrets = by_name("Deployment"), by_name("Secret")
    for service, deployment in deployments.items():
        box, spec = container(deployment), pod_spec(deployment)
        key_path = env_of(box).get("SIEGE_SIGNING_KEY", {}).get("value")
        if service != "dice":
            assert key_path is None, f"{service} is given the signing key"
            continue
        path = PurePosixPath(key_path)
        mounts = [m for m in box["volumeMounts"] if PurePosixPath(m["mountPath"]) == path.parent]
        assert len(mounts) == 1, f"no volume is mounted at {path.parent}, where the key is read"
        (mount,) = mounts
        assert mount.get("readOnly") is True, "the key is mounted writable"
        (volume,) = [v for v in spec["volumes"] if v["name"] == mount["name"]]
        source = volume["secret"]
        files = {item["path"]: item["key"] for item in source.get("items", [])} or {
            key: key for key in secret_data(secrets[source["secretName"]])}
        assert path.name in files, f"{source['secretName']} puts no file {path.name} there"
        assert files[path.name] in secret_data(secrets[source["secretName"]])


# --------------------------------------------------------------------------------------------
# The archiver


def env_value(deployment: Doc, name: str) -> str | None:
    """What the variable ``name`` is in the Deployment's container: its env entry (a value or
    a ConfigMap's or Secret's key), else what an envFrom source gives (later ones win)."""
    box = container(deployment)
    configs = {n: d.body.get("data", {}) for n, d in by_name("ConfigMap").items()}
    secrets = {n: secret_data(d) for n, d in by_name("Secret").items()}
    item = env_of(box).get(name)
    if item is not None:
        if "value" in item:
            return str(item["value"])
        ref = item["valueFrom"]
        if "configMapKeyRef" in ref:
            return configs[ref["configMapKeyRef"]["name"]][ref["configMapKeyRef"]["key"]]
        if "secretKeyRef" in ref:
            return secrets[ref["secretKeyRef"]["name"]][ref["secretKeyRef"]["key"]]
        raise AssertionError(f"{deployment}: {name} comes from {sorted(ref)}")
    found = None
    for source in box.get("envFrom", []):
        if "configMapRef" in source:
            found = configs[source["configMapRef"]["name"]].get(name, found)
        if "secretRef" in source:
            found = secrets[source["secretRef"]["name"]].get(name, found)
    return found


def test_the_archive_outlives_the_archivers_pod() -> None:
    """An archived match is deleted from Redis: its archive is its only copy. So the archive is
    object storage, or a folder on a PersistentVolumeClaim, never the default
    ($SIEGE_HOME/archive) nor any folder on an emptyDir, which go with the pod."""
    deployment = by_name("Deployment")[ARCHIVER]
    url = env_value(deployment, "SIEGE_ARCHIVE")
    assert url, f"{deployment}: no SIEGE_ARCHIVE, so the archive would be in SIEGE_HOME"
    parts = urlsplit(url)
    if parts.scheme == "s3":
        assert parts.netloc, f"{url}: no bucket"
        keys = {env_value(deployment, k) is not None
                for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
        assert len(keys) == 1, "one of the two AWS keys without the other"
    else:
        assert parts.scheme in ("", "file"), f"{url}: neither s3:// nor a folder"
        path = PurePosixPath(parts.path if parts.scheme else url)
        assert path.is_absolute(), f"{url}: relative to the container's working folder"
        box, volumes = container(deployment), {v["name"]: v for v in pod_spec(deployment).get(
            "volumes", [])}
        mounts = [m for m in box.get("volumeMounts", [])
                  if path == PurePosixPath(m["mountPath"])
                  or PurePosixPath(m["mountPath"]) in path.parents]
        assert mounts, f"{path} is on no volume: the container's read-only root"
        mount = max(mounts, key=lambda m: len(PurePosixPath(m["mountPath"]).parts))
        assert "persistentVolumeClaim" in volumes[mount["name"]], (
            f"{path} is on volume {mount['name']}, not a PersistentVolumeClaim: the archives "
            "would go with the pod")
        assert not mount.get("readOnly"), f"{path} is mounted read-only"
        claim = volumes[mount["name"]]["persistentVolumeClaim"]["claimName"]
        assert claim in by_name("PersistentVolumeClaim"), f"no PersistentVolumeClaim {claim}"
    # What the CLI would refuse at start (siegeworks.cli.service._serve_archiver).
    delay, every = (env_value(deployment, k) for k in ("SIEGE_ARCHIVE_DELAY_S",
                                                        "SIEGE_ARCHIVE_EVERY_S"))
    assert delay is None or float(delay) >= 0, delay
    assert every is None or float(every) > 0, every


# --------------------------------------------------------------------------------------------
# Autoscaling and monitoring


def test_the_autoscalers_scale_existing_deployments_on_the_metric_the_adapter_serves() -> None:
    deployments, autoscalers = by_name("Deployment"), by_name("HorizontalPodAutoscaler")
    # Only a bus service has a consumer group whose lag says it is behind (not the archiver).
    assert set(HOT_SERVICES) <= set(SERVICES)
    budgets = of_kind("PodDisruptionBudget")
    targets = {hpa.body["spec"]["scaleTargetRef"]["name"] for hpa in autoscalers.values()}
    assert targets == set(HOT_SERVICES), f"HPAs scale {sorted(targets)}, not {HOT_SERVICES}"
    rules = helm_values("prometheus-adapter.values.yaml")["rules"]["external"]
    served = {rule["name"]["as"]: rule for rule in rules}
    for hpa in autoscalers.values():
        spec = hpa.body["spec"]
        ref = spec["scaleTargetRef"]
        assert (ref["apiVersion"], ref["kind"]) == ("apps/v1", "Deployment"), hpa
        assert ref["name"] in deployments, f"{hpa} scales a Deployment that does not exist"
        target = deployments[ref["name"]]
        assert hpa.namespace == target.namespace, hpa
        budget = next(b for b in budgets if matches(b.body["spec"]["selector"],
                                                    pod_labels(target)))
        assert spec["minReplicas"] > budget.body["spec"]["minAvailable"], hpa
        assert spec["maxReplicas"] >= spec["minReplicas"], hpa
        external = [m["external"] for m in spec["metrics"] if m["type"] == "External"]
        lag = next((m for m in external if m["metric"]["name"] == LAG_METRIC), None)
        assert lag is not None, f"{hpa} does not scale on {LAG_METRIC}"
        assert lag["metric"]["selector"]["matchLabels"] == {"service": ref["name"]}, hpa
        # The replicas' lags add up to the group's, divided by the replicas, never averaged.
        assert lag["target"]["type"] == "AverageValue", hpa
        rule = served.get(LAG_METRIC)
        assert rule is not None, f"the adapter serves no {LAG_METRIC}"
        assert LAG_METRIC in rule["seriesQuery"] and "service" in rule["metricsQuery"]
        assert rule["metricsQuery"].startswith("sum"), "each replica reports its shards': sum"
        assert rule["resources"]["overrides"]["namespace"]["resource"] == "namespace"
        for metric in spec["metrics"]:
            if metric["type"] == "Resource":  # utilization is a share of the request
                name = metric["resource"]["name"]
                assert name in container(target)["resources"]["requests"], hpa


def test_the_pod_monitor_scrapes_every_service_on_its_metrics_port() -> None:
    (monitor,) = of_kind("PodMonitor")
    spec = monitor.body["spec"]
    for deployment in of_kind("Deployment"):
        assert matches(spec["selector"], pod_labels(deployment)), f"{deployment} not scraped"
        names = {port["name"] for port in container(deployment)["ports"]}
        for endpoint in spec["podMetricsEndpoints"]:
            assert endpoint["port"] in names, f"{deployment} has no port {endpoint['port']}"
        assert deployment.namespace == monitor.namespace


# --------------------------------------------------------------------------------------------
# Redis, images, namespace


def redis_bytes(value: str) -> int:
    """A size as redis.conf writes it (3gb, 512mb, 100000)."""
    units = {"": 1, "k": 1000, "kb": 1024, "m": 10**6, "mb": 2**20, "g": 10**9, "gb": 2**30}
    number, unit = re.fullmatch(r"(\d+)([a-z]*)", value.lower()).groups()  # type: ignore
    return int(number) * units[unit]


def test_redis_never_evicts_and_syncs_every_append() -> None:
    cluster = redis_cluster()
    spec = cluster.body["spec"]
    configs = by_name("ConfigMap")
    for role in ("redisLeader", "redisFollower"):
        name = spec[role]["redisConfig"]["additionalRedisConfig"]
        text = configs[name].body["data"]["redis-additional.conf"]
        lines = [line.split(None, 1) for line in text.splitlines()
                 if line.strip() and not line.lstrip().startswith("#")]
        config = dict((words[0].lower(), words[1] if len(words) > 1 else "") for words in lines)
        assert config.get("maxmemory-policy") == "noeviction", role
        assert (config.get("appendonly"), config.get("appendfsync")) == ("yes", "always"), role
        # Room above maxmemory for an AOF rewrite's copy-on-write and the buffers.
        limit = quantity(spec["kubernetesConfig"]["resources"]["limits"]["memory"])
        assert 0 < redis_bytes(config["maxmemory"]) <= 0.8 * limit, role


def test_the_default_slot_ranges_give_every_primary_as_many_shards() -> None:
    """``redis-cli --cluster create`` (what the operator runs) gives each primary an equal
    range of the 16,384 slots; all match data lives in the SHARDS slots of the hash tags
    {s0}..{s15}, so the primaries get equal shares of it only for some counts of primaries
    (redis-cluster.yaml says which)."""
    primaries = redis_cluster().body["spec"]["clusterSize"]
    per_node = 16384 / primaries
    ranges = [(round(i * per_node), round((i + 1) * per_node) - 1) for i in range(primaries)]
    counts = Counter(next(i for i, (low, high) in enumerate(ranges) if low <= slot <= high)
                     for slot in (key_slot(log_key_of_shard(s).encode()) for s in range(SHARDS)))
    shares = [counts.get(i, 0) for i in range(primaries)]
    assert len(set(shares)) == 1, f"{primaries} primaries hold {shares} of the {SHARDS} shards"


def log_key_of_shard(shard: int) -> str:
    """A log key of ``shard`` (the slot depends on the hash tag only)."""
    match_id = next(f"m{n}" for n in range(10_000) if log_key(f"m{n}").startswith(f"{{s{shard}}}"))
    return log_key(match_id)


def test_every_image_is_pinned_and_the_services_image_is_built_here() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    (root,) = [d for d in documents() if is_kustomization(d) and d.path.parent == K8S]
    (image,) = root.body["images"]
    assert image["newTag"] == version, "the image tag is the project's version"
    for deployment in of_kind("Deployment"):
        repo, tag = image_parts(container(deployment)["image"])
        assert repo == image["name"], f"{deployment}: kustomize's images: would not rewrite it"
        assert tag == version, deployment
    spec = redis_cluster().body["spec"]
    for pinned in (spec["kubernetesConfig"]["image"], spec["redisExporter"]["image"]):
        assert image_parts(pinned)[1] not in (None, "latest"), pinned
    dockerfile = (K8S / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", dockerfile, re.M), "the base image"
    assert "pip install -r requirements.runtime.lock" in dockerfile, "the locked dependencies"
    assert re.search(r"pip install --no-deps .*\.", dockerfile), "the project, --no-deps"
    assert re.search(r'^ENTRYPOINT \["siege"\]$', dockerfile, re.M)


def test_everything_is_in_one_namespace_the_operator_watches() -> None:
    (namespace,) = of_kind("Namespace")
    for doc in documents():
        if doc.kind != "Namespace" and not is_kustomization(doc):
            assert doc.namespace == namespace.name, f"{doc} is in {doc.namespace}"
    operator = helm_values("redis-operator.values.yaml")["redisOperator"]
    assert operator["watchNamespace"] in ("", namespace.name), "the operator watches elsewhere"
    assert operator["imageTag"] == OPERATOR_VERSION
    readme = (K8S / "README.md").read_text()
    assert f"--version {OPERATOR_CHART_VERSION}" in readme and OPERATOR_VERSION in readme, (
        "README.md and the test disagree on the pinned operator chart")

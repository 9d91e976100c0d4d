{{/* Chart name, overridable with nameOverride. */}}
{{- define "gin-referee.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Full resource name: release-chart, or just the release name when it already
contains the chart name. Truncated to 63 characters (DNS label limit).
*/}}
{{- define "gin-referee.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* chart-version, for the helm.sh/chart label. */}}
{{- define "gin-referee.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels on every resource. */}}
{{- define "gin-referee.labels" -}}
helm.sh/chart: {{ include "gin-referee.chart" . }}
{{ include "gin-referee.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Labels that select this release's pods. Never change them: selectors are immutable. */}}
{{- define "gin-referee.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gin-referee.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* ServiceAccount name. */}}
{{- define "gin-referee.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "gin-referee.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Image reference: repository@digest when a digest is set, else repository:tag. */}}
{{- define "gin-referee.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{/*
Seconds from deletion to SIGKILL. Derived, unless set, from the preStop sleep
plus the service's own shutdown timeout plus a margin, so Kubernetes never
kills a pod that is still draining.
*/}}
{{- define "gin-referee.terminationGracePeriodSeconds" -}}
{{- if ne (toString .Values.terminationGracePeriodSeconds) "" }}
{{- .Values.terminationGracePeriodSeconds | int64 }}
{{- else }}
{{- add (.Values.preStopSleepSeconds | int64) (.Values.config.shutdownTimeout | default 30 | int64) 5 }}
{{- end }}
{{- end }}

{{/*
The container's environment: each key of .Values.config maps to one variable.
Empty values are left out so the binary's default applies. Numbers are printed
as integers: values passed as JSON arrive as float64, which would otherwise
print as 1e+06.
*/}}
{{- define "gin-referee.env" -}}
- name: GIN_REFEREE_LISTEN
  value: {{ printf "%s:%d" .Values.config.listenHost (.Values.containerPort | int64) | quote }}
{{- $vars := dict
  "workers" "GIN_REFEREE_WORKERS"
  "bodyLimit" "GIN_REFEREE_BODY_LIMIT"
  "matchAuditBodyLimit" "GIN_REFEREE_MATCH_AUDIT_BODY_LIMIT"
  "batchMaxLineBytes" "GIN_REFEREE_BATCH_MAX_LINE_BYTES"
  "batchMaxLines" "GIN_REFEREE_BATCH_MAX_LINES"
  "batchTimeout" "GIN_REFEREE_BATCH_TIMEOUT"
  "batchSpoolLimit" "GIN_REFEREE_BATCH_SPOOL_LIMIT"
  "batchSpoolTotalLimit" "GIN_REFEREE_BATCH_SPOOL_TOTAL_LIMIT"
  "batchJsonBodyLimit" "GIN_REFEREE_BATCH_JSON_BODY_LIMIT"
  "logFormat" "GIN_REFEREE_LOG_FORMAT"
  "logLevel" "GIN_REFEREE_LOG_LEVEL"
  "rustLog" "RUST_LOG"
  "shutdownTimeout" "GIN_REFEREE_SHUTDOWN_TIMEOUT"
  "clientRequestTimeout" "GIN_REFEREE_CLIENT_REQUEST_TIMEOUT"
  "keepAlive" "GIN_REFEREE_KEEP_ALIVE"
  "maxConnections" "GIN_REFEREE_MAX_CONNECTIONS"
  "memoryWaitMs" "GIN_REFEREE_MEMORY_WAIT_MS"
  "clientDisconnectTimeout" "GIN_REFEREE_CLIENT_DISCONNECT_TIMEOUT"
  "stallTimeout" "GIN_REFEREE_STALL_TIMEOUT"
  "maxNameLength" "GIN_REFEREE_MAX_NAME_LENGTH"
  "maxMatchHands" "GIN_REFEREE_MAX_MATCH_HANDS"
  "maxAuditActions" "GIN_REFEREE_MAX_AUDIT_ACTIONS"
  "maxMelds" "GIN_REFEREE_MAX_MELDS" }}
{{- range $key, $var := $vars }}
{{- $value := index $.Values.config $key }}
{{- if or (kindIs "float64" $value) (kindIs "int64" $value) (kindIs "int" $value) }}
{{- $value = $value | int64 | toString }}
{{- end }}
{{- if and (not (kindIs "invalid" $value)) (ne (toString $value) "") }}
- name: {{ $var }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end }}
- name: GIN_REFEREE_MEMORY_BUDGET
  value: {{ include "gin-referee.memoryBudget" . | quote }}
- name: GIN_REFEREE_BATCH_SPOOL_DIR
  value: {{ .Values.batchSpool.mountPath | quote }}
{{- with .Values.signing.existingSecret }}
- name: GIN_REFEREE_SIGNING_KEY
  value: {{ printf "/etc/gin-referee/signing/%s" $.Values.signing.keyName | quote }}
{{- with $.Values.signing.retiredKeysName }}
- name: GIN_REFEREE_RETIRED_KEYS
  value: {{ printf "/etc/gin-referee/signing/%s" . | quote }}
{{- end }}
{{- end }}
{{- with .Values.apiKeys.existingSecret }}
- name: GIN_REFEREE_API_KEYS
  value: {{ printf "/etc/gin-referee/api-keys/%s" $.Values.apiKeys.keyName | quote }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/*
A Kubernetes memory quantity in bytes: a plain number, or one with a binary
(Ki, Mi, Gi, Ti) or decimal (k, M, G, T) suffix; 0 when it is none of these.
*/}}
{{- define "gin-referee.bytes" -}}
{{- $quantity := toString . -}}
{{- $units := dict "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 "k" 1000 "M" 1000000 "G" 1000000000 "T" 1000000000000 -}}
{{- $bytes := -1 -}}
{{- range $suffix, $factor := $units -}}
{{- if and (hasSuffix $suffix $quantity) (regexMatch "^[0-9]+$" (trimSuffix $suffix $quantity)) -}}
{{- $bytes = mul (trimSuffix $suffix $quantity | int64) $factor -}}
{{- end -}}
{{- end -}}
{{- if and (lt $bytes 0) (regexMatch "^[0-9]+$" $quantity) -}}
{{- $bytes = $quantity | int64 -}}
{{- end -}}
{{- max $bytes 0 -}}
{{- end -}}

{{/*
Worker threads the binary starts: config.workers, else the CPU limit rounded
up (Rust reads the cgroup quota). Without either the count is the node's CPUs,
which the chart cannot know: rendering fails.
*/}}
{{- define "gin-referee.workers" -}}
{{- if ne (toString .Values.config.workers) "" -}}
{{- .Values.config.workers | int64 -}}
{{- else -}}
{{- $cpu := toString (((.Values.resources).limits).cpu | default "") -}}
{{- if eq $cpu "" -}}
{{- fail "set config.workers or resources.limits.cpu: the memory budget depends on the number of workers" -}}
{{- else if hasSuffix "m" $cpu -}}
{{- div (add (trimSuffix "m" $cpu | int64) 999) 1000 | max 1 -}}
{{- else -}}
{{- ceil ($cpu | float64) | int64 | max 1 -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
GIN_REFEREE_MEMORY_BUDGET: config.memoryBudget, else resources.limits.memory
minus the process's base (memoryBase, see values.yaml). Rendering fails when
the limit leaves less than 1 MiB, the binary's smallest budget.
*/}}
{{- define "gin-referee.memoryBudget" -}}
{{- if ne (toString .Values.config.memoryBudget) "" -}}
{{- .Values.config.memoryBudget | int64 -}}
{{- else -}}
{{- $limit := include "gin-referee.bytes" (((.Values.resources).limits).memory | default "") | int64 -}}
{{- if eq $limit 0 -}}
{{- fail "set resources.limits.memory (the memory budget is computed from it) or config.memoryBudget" -}}
{{- end -}}
{{- $workers := include "gin-referee.workers" . | int64 -}}
{{- $connections := 25000 -}}
{{- if ne (toString .Values.config.maxConnections) "" -}}
{{- $connections = .Values.config.maxConnections | int64 -}}
{{- end -}}
{{- $base := .Values.memoryBase -}}
{{- $perWorker := add ($base.perWorkerBytes | int64) (mul $connections ($base.perConnectionBytes | int64)) -}}
{{- $budget := sub (sub $limit ($base.fixedBytes | int64)) (mul $workers $perWorker) -}}
{{- if lt $budget 1048576 -}}
{{- fail (printf "resources.limits.memory (%d bytes) does not hold the process's base for %d workers with config.maxConnections %d (%d bytes) plus a memory budget of at least 1 MiB: raise the limit or lower maxConnections" $limit $workers $connections (sub $limit $budget)) -}}
{{- end -}}
{{- $budget -}}
{{- end -}}
{{- end -}}

#!/usr/bin/env bash
# Regenerates every checked-in sample scenario with the simulator, and its expected events.
# Deterministic: the same simulator and parsers give byte-identical files, so a diff after running
# this is a real change to review like code. Run from anywhere: ./samples/regenerate.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tt=./tokentrace

# name | engine | accuracy class | simulate arguments
# The accuracy class (scenario.properties `accuracy`) says what AttributionAccuracyIT proves:
#   exact           per-request durations at ms precision and the client's IDs reach the server:
#                   every component within max(1 ms, 1%) of truth.csv, dominant component for >= 99%
#                   of requests, the report's bottleneck conclusion names the true bottleneck
#   heuristic       per-request durations, but the engine ignores client IDs (TensorRT-LLM's
#                   /perf_metrics request_id is a counter, its times a steady clock): attributed with
#                   --match heuristic (the clocks aligned by time series, requests paired by time and
#                   durations); as exact, plus every request paired with the server record truth.csv
#                   names (server_request_id)
#   low-confidence  second-precision text logs or totals only: the report says low confidence and
#                   computes no component
#   gateway         production: no client file, the simulated gateway's NGINX log is the client
#                   side; GatewayAccuracyIT checks it from the gateway's view (gateway_truth.csv).
#                   Scenarios with a gateway (gateway_truth.csv) are also checked there, legs split
# New scenarios go at the end: each takes the next seed, so inserting one would rewrite the rest.
scenarios=(
  "vllm/v0.16-concurrency-sweep|vllm|exact|--scenario concurrency-sweep --format-version 0.16 --requests 32"
  "vllm/v0.16-network-bound|vllm|exact|--scenario network-bound --format-version 0.16 --requests 60"
  "vllm/v0.16-warmup|vllm|exact|--scenario warmup --format-version 0.16 --requests 40"
  "vllm/v0.16-retries|vllm|exact|--scenario retries --format-version 0.16 --requests 48"
  "vllm/v0.16-textlog-only|vllm|low-confidence|--scenario baseline --format-version 0.16 --requests 30 --otlp false"
  "vllm/v0.11-prefill-bound|vllm|exact|--scenario prefill-bound --format-version 0.11 --requests 40"
  "vllm/v0.7-baseline|vllm|exact|--scenario baseline --format-version 0.7 --requests 40"
  "sglang/v0.5.6-decode-bound|sglang|exact|--scenario decode-bound --format-version 0.5.6 --requests 48 --output-tokens fixed:512"
  "sglang/v0.5.6-preemption|sglang|exact|--scenario preemption --format-version 0.5.6 --requests 48 --output-tokens fixed:512"
  "sglang/v0.5.6-heartbeats|sglang|exact|--scenario heartbeats --format-version 0.5.6 --requests 48"
  "sglang/v0.4.5-baseline|sglang|low-confidence|--scenario baseline --format-version 0.4.5 --requests 40"
  "trtllm/v1.1-client-queue-bound|trtllm|heuristic|--scenario client-queue-bound --format-version 1.1 --requests 40 --output-tokens lognormal:48,0.3"
  "trtllm/v1.1-concurrency-sweep|trtllm|heuristic|--scenario concurrency-sweep --format-version 1.1 --requests 12 --output-tokens lognormal:24,0.3 --iteration-log false"
  "sglang/v0.5.6-client-queue-bound|sglang|exact|--scenario client-queue-bound --format-version 0.5.6 --requests 40"
  "trtllm/v1.1-prefill-bound|trtllm|heuristic|--scenario prefill-bound --format-version 1.1 --requests 24"
  "sglang/v0.5.6-retries|sglang|exact|--scenario retries --format-version 0.5.6 --requests 48"
  "vllm/v0.16-gateway-bottleneck|vllm|exact|--scenario gateway-bottleneck --format-version 0.16 --requests 40"
  "vllm/v0.16-production|vllm|gateway|--scenario production --format-version 0.16 --requests 48"
  "vllm/v0.16-gpu-contention|vllm|exact|--scenario contention --format-version 0.16 --requests 200"
)

seed=100
for entry in "${scenarios[@]}"; do
  IFS='|' read -r name engine accuracy args <<<"$entry"
  dir="samples/$name"
  rm -rf "$dir"
  seed=$((seed + 1))  # one seed per scenario: request IDs must not collide across scenarios
  # shellcheck disable=SC2086
  "$tt" simulate --engine "$engine" --seed "$seed" $args --out "$dir" >/dev/null
  # parse settings for logs that print no year or zone, from the simulated start (SOURCE.md)
  year=$(sed -n 's/^- start: \([0-9]\{4\}\)-.*/\1/p' "$dir/SOURCE.md")
  zone=$(sed -n 's/^- start: .*, log time zone: \(.*\)$/\1/p' "$dir/SOURCE.md")
  printf 'year=%s\nzone=%s\naccuracy=%s\n' "$year" "$zone" "$accuracy" >"$dir/scenario.properties"
  mkdir -p "$dir/expected"
  mapfile -t files < <(cd "$dir" && find . -type f ! -name 'client_*' ! -name truth.csv ! -name gateway_truth.csv ! -name '*.md' \
      ! -name scenario.properties ! -path './expected/*' ! -path './gpu/*' ! -name gpu_truth.csv | sed 's|^\./||' | sort)
  (cd "$dir" && "$root/$tt" parse --engine "$engine" --instance "${engine}-$(basename "$name")" \
      --year "$year" --zone "$zone" "${files[@]}" >expected/events.jsonl 2>expected/parse-summary.txt) || {
    echo "parse failed for $dir:"; cat "$dir/expected/parse-summary.txt"; exit 1; }
  echo "$dir: $(tail -1 "$dir/expected/parse-summary.txt")"
  if [[ -d "$dir/gpu" ]]; then  # GPU telemetry (--gpu-telemetry): engine gpu, the engine's instance
    mapfile -t gpufiles < <(cd "$dir" && find gpu -type f | sort)
    (cd "$dir" && "$root/$tt" parse --engine gpu --instance "${engine}-$(basename "$name")" \
        --year "$year" --zone "$zone" "${gpufiles[@]}" >expected/gpu-events.jsonl \
        2>expected/gpu-parse-summary.txt) || {
      echo "parse failed for $dir/gpu:"; cat "$dir/expected/gpu-parse-summary.txt"; exit 1; }
    echo "$dir/gpu: $(tail -1 "$dir/expected/gpu-parse-summary.txt")"
  fi
done

# prefill/decode disaggregation (docs/formats/pd.md#samples): one folder per server
rm -rf samples/pd/vllm/decode-saturated
"$tt" simulate --pd decode-saturated --requests 60 --out samples/pd/vllm/decode-saturated

# expected/report-excerpt.md: each scenario alone through the real pipeline (embedded broker,
# DuckDB, attribution, report), rewritten by the accuracy test in update mode
echo "report excerpts: AttributionAccuracyIT -Dgolden.update=true"
mvn -B -q -pl cli -am verify -Dgolden.update=true -Dit.test=AttributionAccuracyIT \
    -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dit.failIfNoSpecifiedTests=false \
    -Dspotless.check.skip=true

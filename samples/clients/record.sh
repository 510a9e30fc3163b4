#!/usr/bin/env bash
# Records the client samples of samples/clients/ (README.md there says what each folder holds).
#   wrk, jmeter: the real tool against `tokentrace simulate --serve` (the simulated vLLM 0.16 server,
#                logging server.log and otlp.jsonl while it serves); needs wrk (Debian package wrk)
#                and JMeter 5.6.3 in $JMETER_HOME (scripts/jmeter/pom.xml assembles it from Maven
#                Central: mvn -B -q -f scripts/jmeter/pom.xml package -Djmeter.dir=/tmp/jmeter).
#   aiperf, guidellm: written by the simulator's client-format writers (`simulate --client-format`),
#                not by the tools (they are Python tools; see README.md).
# Usage: samples/clients/record.sh [aiperf|guidellm|wrk|jmeter]...   (default: all four)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
home="$(cd "$here/../.." && pwd)"
tt="$home/tokentrace"
port="${TOKENTRACE_SAMPLE_PORT:-8731}"
JMETER_HOME="${JMETER_HOME:-/tmp/jmeter}"

simulated() { # tool format seed start folder
  local tool="$1" format="$2" seed="$3" start="$4" folder="$5" tmp
  tmp="$(mktemp -d)"
  "$tt" simulate --engine vllm --client-format "$format" --concurrency 8 --requests 60 \
    --seed "$seed" --start "$start" --out "$tmp" >/dev/null
  rm -rf "${here:?}/$tool" && mkdir -p "$here/$tool/$folder"
  cp "$tmp/server.log" "$tmp/otlp.jsonl" "$here/$tool/"
  case "$format" in
    aiperf) cp "$tmp/profile_export.jsonl" "$here/$tool/$folder/" ;;
    guidellm) cp "$tmp/benchmarks.json" "$here/$tool/$folder/" ;;
  esac
  rm -rf "$tmp"
}

serve() { # folder: starts the simulated server writing into folder, waits for /health
  "$tt" simulate --serve "$port" --engine vllm --api completions --out "$1" >/dev/null 2>&1 &
  server=$!
  for _ in $(seq 1 120); do
    if curl -sf -o /dev/null "http://127.0.0.1:$port/health"; then return 0; fi
    sleep 0.5
  done
  echo "record.sh: the simulated server did not answer /health" >&2
  exit 1
}

stop() { # SIGTERM: the server flushes its files and exits
  kill -TERM "$server"
  wait "$server" || true
  rm -f "$here/$1/server_truth.csv" # the simulator's own truth, not something a server writes
}

record_wrk() {
  rm -rf "${here:?}/wrk" && mkdir -p "$here/wrk"
  serve "$here/wrk"
  (cd "$here/wrk" && TOKENTRACE_WRK_OUT=wrk.csv TOKENTRACE_WRK_MAX_TOKENS=32 \
    TOKENTRACE_WRK_PREFIX=wrk-sample- \
    wrk -t1 -c4 -d10s --timeout 60s -s "$home/scripts/wrk/tokentrace.lua" \
      "http://127.0.0.1:$port" >wrk.txt)
  stop wrk
}

record_jmeter() {
  rm -rf "${here:?}/jmeter" && mkdir -p "$here/jmeter"
  serve "$here/jmeter"
  (cd "$here/jmeter" && java -Xmx256m -jar "$JMETER_HOME/bin/ApacheJMeter.jar" -n \
    -t "$home/scripts/jmeter/tokentrace.jmx" -l results.jtl -j /dev/null \
    -Jhost=127.0.0.1 -Jport="$port" -Jthreads=4 -Jloops=20 -Jmax_tokens=32 \
    -Jid_prefix=jmeter-sample- -Jsample_variables=request_id \
    -Jsampleresult.timestamp.start=true -Jjmeter.save.saveservice.connect_time=true \
    -Jjmeterengine.nongui.port=0 >/dev/null)
  stop jmeter
}

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(aiperf guidellm wrk jmeter)
for tool in "${tools[@]}"; do
  case "$tool" in
    aiperf) simulated aiperf aiperf 7 2026-12-01T10:00:00Z artifacts ;;
    guidellm) simulated guidellm guidellm 8 2026-12-01T11:00:00Z output ;;
    wrk) record_wrk ;;
    jmeter) record_jmeter ;;
    *) echo "record.sh: unknown tool '$tool' (aiperf, guidellm, wrk, jmeter)" >&2; exit 2 ;;
  esac
  echo "record.sh: $tool -> $here/$tool" >&2
done

#!/usr/bin/env bash
# A simulated fleet through Kafka into the lake (docs/scale.md#a-fleet-through-kafka-into-the-lake,
# BENCHMARKS.md "A fleet through Kafka into the lake"): HOSTS simulated hosts, each one engine's log
# set (`tokentrace simulate --scenario baseline`, its request IDs made the host's own) with its own
# instance name and client run, shipped by SHIPS `ship` processes (each several hosts, as
# `ship host-001=server.log ...`) into the embedded broker (`tokentrace broker`), written into one
# lake by SINKS `sink --follow --lake` processes of one consumer group, then attributed by `correlate
# --lake` (DuckDB) and `spark-correlate --lake --master local[2]` (Spark). Checks: every event
# shipped is a row in the lake (the ships' counts against the lake's rows), and the two engines'
# request_attribution are the same rows (EXCEPT ALL both ways, in DuckDB). Each process's wall and
# CPU (user + sys) from /usr/bin/time.
#   bench/fleet.sh [--hosts 100] [--ships 4] [--sinks 2] [--dir bench/target/fleet] [--port 19092]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
hosts=100
ships=4
sinks=2
dir=bench/target/fleet
port=19092
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts) hosts="$2"; shift 2 ;;
    --ships) ships="$2"; shift 2 ;;
    --sinks) sinks="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --port) port="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
./tokentrace --version >/dev/null
./tokentrace spark-correlate --help >/dev/null
rm -rf "$dir"
mkdir -p "$dir/hosts" "$dir/time"
dir="$(cd "$dir" && pwd)"
tt="$PWD/tokentrace"
pids=()
# a background `timed` is a subshell running /usr/bin/time running java: stop the java first (time
# then writes its figures), by parent pid, never by name
stop() { local child; for child in $(pgrep -P "$1"); do stop "$child"; done; kill "$1" 2>/dev/null || true; }
cleanup() { for pid in ${pids[@]+"${pids[@]}"}; do stop "$pid"; done; }
trap cleanup EXIT
timed() { # label, command...: runs it under /usr/bin/time into $dir/time/label
  local label="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time/$label" "$@" >"$dir/$label.out" 2>"$dir/$label.err"
}
report() { # label
  local wall user sys rss
  # a stopped process's /usr/bin/time may be stopped before it writes: say so and go on
  if ! read -r wall user sys rss < <(tail -n1 "$dir/time/$1" 2>/dev/null) \
      || ! [[ "$rss" =~ ^[0-9]+$ ]]; then
    printf '%-28s no figures (stopped before /usr/bin/time wrote them)\n' "$1"
    return 0
  fi
  printf '%-28s wall %7.1f s  cpu %7.1f s  peak RSS %5.0f MiB\n' "$1" "$wall" \
    "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc)"
}
echo "machine: nproc=$(nproc), $(free -g | awk '/Mem:/{print $2" GiB"}'); $(uptime)"

# one simulated engine; each host gets its files with request IDs of its own
timed simulate "$tt" simulate --scenario baseline --out "$dir/sim"
id="$(sed -n 2p "$dir/sim/client_timings.csv" | cut -d, -f1 | sed 's/-[0-9]*$//')"
for h in $(seq -f '%03g' 1 "$hosts"); do
  mkdir -p "$dir/hosts/host-$h"
  for f in server.log otlp.jsonl client_timings.csv; do
    sed "s/$id-/fleet-h$h-/g" "$dir/sim/$f" >"$dir/hosts/host-$h/$f"
  done
done
requests=$(( hosts * ($(wc -l <"$dir/sim/client_timings.csv") - 1) ))
echo "$hosts hosts, $requests requests, $(du -sh "$dir/hosts" | cut -f1) of logs"

"$tt" broker --port "$port" --data-dir "$dir/kafka" >"$dir/broker.out" 2>"$dir/broker.err" &
pids+=($!)
for _ in $(seq 1 120); do
  grep -q . "$dir/broker.out" "$dir/broker.err" 2>/dev/null && (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 1
done
kafka=(--bootstrap-servers "127.0.0.1:$port" --topic-prefix fleet)

# the sinks first (one consumer group), then the ships, all at once
for s in $(seq 1 "$sinks"); do
  timed "sink-$s" "$tt" sink --follow "${kafka[@]}" --lake "$dir/lake" --group fleet-lake \
    --flush-interval 2s &
  pids+=($!)
done
started=$(date +%s.%N)
ship_pids=()
for k in $(seq 1 "$ships"); do
  files=()
  for h in $(seq -f '%03g' "$k" "$ships" "$hosts"); do
    files+=("host-$h=$dir/hosts/host-$h/server.log" "host-$h=$dir/hosts/host-$h/otlp.jsonl")
  done
  clients=()
  for h in $(seq -f '%03g' "$k" "$ships" "$hosts"); do
    clients+=("$dir/hosts/host-$h/client_timings.csv")
  done
  # client rows are streamed (docs/live.md#streamed-client-rows): ship --follow, stopped once the
  # lake holds them
  timed "ship-clients-$k" "$tt" ship --follow "${kafka[@]}" --shipper-id "fleet-clients-$k" \
    --run "fleet-$k" "${clients[@]}" &
  pids+=($!)
  # exit 3 (rejects over --max-reject-ratio) is reported below, not fatal: the counts are checked
  (timed "ship-$k" "$tt" ship "${kafka[@]}" "${files[@]}" \
    || true) &
  ship_pids+=($!)
done
for pid in "${ship_pids[@]}"; do wait "$pid"; done
shipped=$(date +%s.%N)
echo "shipped in $(echo "$shipped - $started" | bc) s"
# records a server-file ship sent: its line `files=F -> N records acknowledged` (no rejects here)
events=0
for k in $(seq 1 "$ships"); do
  n=$(grep -o '[0-9]* records acknowledged' "$dir/ship-$k.err" | cut -d' ' -f1)
  events=$(( events + n ))
done
client_rows=$(( requests ))
events=$(( events + client_rows ))
echo "shipped: $events records ($client_rows client rows), server files, in $(echo "$shipped - $started" | bc) s"
grep -h 'lines=' "$dir"/ship-*.err
# wait until the lake holds every one of them (the sinks flush every 2 s)
count_sql() {
  local tables=() t
  for t in "$dir"/lake/*/; do
    t="$(basename "$t")"
    [[ "$t" == _* || "$t" == rejects ]] || tables+=("(SELECT count(*) FROM $t)")
  done
  local IFS=+
  echo "SELECT ${tables[*]:-0} AS n"
}
rows=0
for _ in $(seq 1 120); do
  rows=$("$tt" sql --lake "$dir/lake" --format csv -e "$(count_sql)" 2>/dev/null | tail -n1 || echo 0)
  [ "$rows" = "$events" ] && break
  sleep 5
done
landed=$(date +%s.%N)
echo "lake: $rows rows, $(echo "$landed - $started" | bc) s after the ships started"
cleanup
for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
pids=()
for label in simulate $(cd "$dir/time" && ls ship-* sink-*); do report "$label"; done
if [ "$rows" != "$events" ]; then
  echo "LOST: $events records shipped, $rows rows in the lake" >&2
  exit 1
fi

# the attribution of the lake by both engines
timed correlate "$tt" correlate --lake "$dir/lake" --db "$dir/duck.duckdb"
report correlate
# `correlate --lake` wrote DuckDB's attribution as the lake's current version: keep a copy of it
# before Spark's version replaces it (`sql` is read-only, so no COPY)
version_file=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["file"])' \
  "$dir/lake/_versions/request_attribution.json")
cp "$dir/lake/_versions/request_attribution/$version_file" "$dir/duckdb-attribution.parquet"
timed spark-correlate "$tt" spark-correlate --lake "$dir/lake" --master 'local[2]'
report spark-correlate
grep -h 'written to the lake' "$dir/spark-correlate.err"
# the lake's current request_attribution is Spark's: compare it with DuckDB's, both ways
diff_sql="SELECT (SELECT count(*) FROM request_attribution) AS spark_rows,
  (SELECT count(*) FROM read_parquet('$dir/duckdb-attribution.parquet')) AS duckdb_rows,
  (SELECT count(*) FROM (FROM request_attribution EXCEPT ALL
     FROM read_parquet('$dir/duckdb-attribution.parquet'))) AS only_spark,
  (SELECT count(*) FROM (FROM read_parquet('$dir/duckdb-attribution.parquet') EXCEPT ALL
     FROM request_attribution)) AS only_duckdb"
"$tt" sql --lake "$dir/lake" --allow-path "$dir/duckdb-attribution.parquet" --format csv -e "$diff_sql" | tee "$dir/compare.csv"
read -r spark_rows duck_rows only_spark only_duck < <(tail -n1 "$dir/compare.csv" | tr , ' ')
if [ "$spark_rows" != "$duck_rows" ] || [ "$only_spark" != 0 ] || [ "$only_duck" != 0 ]; then
  echo "DIFFER: Spark and DuckDB attributions are not the same rows" >&2
  exit 1
fi
echo "ok: $events records shipped = $rows lake rows; $spark_rows attribution rows, same in both engines"
echo "after: $(uptime)"

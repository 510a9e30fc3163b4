#!/usr/bin/env bash
# Scale benchmark (BENCHMARKS.md, "Spark against DuckDB"; docs/scale.md): the attribution of one lake
# by `tokentrace correlate --lake` (DuckDB, one JVM) and by `tokentrace spark-correlate --master
# local[2]` (Spark, one JVM), each in its own process under /usr/bin/time: wall, CPU (user + sys) and
# peak RSS. The lake holds N generated requests (bench/generate_requests.sql through ScaleLake, in
# files of 1 M requests; its generation is measured too), kept in DIR between runs.
# Both also store the report's results with the attribution (spark-correlate in the lake,
# docs/scale.md#stored-results; correlate in its DuckDB file).
#   bench/spark.sh [--sizes 100000,1000000] [--repeat 1] [--dir bench/target/spark]
#                  [--engines duckdb,spark] [--duckdb-memory-limit 1GB] [--built] [--spark-arg ARG]...
# DuckDB needs --duckdb-memory-limit 3GB at 10 M requests (1GB, the default, runs out of memory).
# --spark-arg ARG: one more argument of spark-correlate (repeat it: --spark-arg --shuffle-partitions
#   --spark-arg 4).
# Both run from copies of the jars in DIR/jars, made at the start. SPARK_BENCH_OPTS: more JVM options
# of spark-correlate (e.g. -Dspark.eventLog.enabled=true -Dspark.eventLog.dir=DIR to profile).
# --built: the class path and both launchers' jars are up to date (skips the Maven step).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sizes=100000
repeat=1
dir=bench/target/spark
engines=duckdb,spark
memory=1GB
built=false
spark_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --engines) engines="$2"; shift 2 ;;
    --duckdb-memory-limit) memory="$2"; shift 2 ;;
    --built) built=true; shift ;;
    --spark-arg) spark_args+=("$2"); shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if [ "$built" != true ] || [ ! -f bench/target/classpath.txt ]; then
  mvn -B -q -o -pl bench -am test-compile dependency:build-classpath -Dspotless.check.skip=true \
    -Dmdep.outputFile="$PWD/bench/target/classpath.txt" -DincludeScope=runtime
fi
mkdir -p "$dir"
# both launchers build their jars on first use: build them now, outside the measurements
./tokentrace --version >/dev/null
./tokentrace spark-correlate --help >/dev/null
# then run from copies: a Maven build in this worktree during a long run rewrites the jars under
# target/ (a run died with ClassFormatError that way)
jars="$dir/jars"
rm -rf "$jars"
mkdir -p "$jars/cli" "$jars/spark"
cp -r cli/target/tokentrace.jar cli/target/lib "$jars/cli/"
cp spark/target/tokentrace-spark.jar spark/target/spark-java-options.txt "$jars/spark/"
freeze() { # a class path file: the same class path, this worktree's entries copied into $jars/$2
  local cp="" entry copy
  IFS=: read -r -a entries <"$1"
  for entry in "${entries[@]}"; do
    if [[ "$entry" == "$PWD"/* ]]; then
      copy="$jars/$2/$(echo "${entry#"$PWD"/}" | tr / _)"
      cp -r "$entry" "$copy"
      entry="$copy"
    fi
    cp="$cp:$entry"
  done
  echo "$cp"
}
spark_cp="$(freeze spark/target/spark-classpath.txt spark)"
mkdir -p "$jars/bench"
cp -r bench/target/classes "$jars/bench/classes"
bench_cp="$jars/bench/classes$(freeze bench/target/classpath.txt bench)"
cat >"$jars/duckdb" <<EOF
#!/usr/bin/env bash
exec java -Xmx1g -Dtokentrace.home="$PWD" -jar "$jars/cli/tokentrace.jar" "\$@"
EOF
cat >"$jars/spark-correlate" <<EOF
#!/usr/bin/env bash
exec java -Xmx2g \${SPARK_BENCH_OPTS:-} $(cat "$jars/spark/spark-java-options.txt") \\
  -Dlog4j2.configurationFile="$PWD/spark/src/main/resources/tokentrace-spark-log4j2.properties" \\
  -cp "$jars/spark/tokentrace-spark.jar$spark_cp" dev.tokentrace.spark.SparkCorrelate "\$@"
EOF
chmod +x "$jars/duckdb" "$jars/spark-correlate"
echo "machine: nproc=$(nproc), $(free -g | awk '/Mem:/{print $2" GiB"}'); $(uptime)"
measure() { # label, command...
  local label="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$dir/time.txt" "$@" >"$dir/$label.out" 2>"$dir/$label.err" \
    || { echo "$label failed:"; tail -n 20 "$dir/$label.err"; exit 1; }
  read -r wall user sys rss <"$dir/time.txt"
  printf '%-34s wall %7.1f s  cpu %7.1f s  peak RSS %6.0f MiB\n' "$label" "$wall" \
    "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc)"
}
IFS=, read -r -a list <<<"$sizes"
for n in "${list[@]}"; do
  if [ ! -d "$dir/lake-$n" ]; then
    measure "$n generate" java -Xmx1g -cp "$bench_cp" dev.tokentrace.bench.spark.ScaleLake "$n" "$dir"
  fi
  lake="$dir/lake-$n"
  for r in $(seq 1 "$repeat"); do
    if [[ ",$engines," == *,duckdb,* ]]; then
      rm -f "$dir/duck-$n.duckdb" "$dir/duck-$n.duckdb.wal"
      measure "$n duckdb correlate --lake #$r" "$jars/duckdb" correlate --lake "$lake" \
        --db "$dir/duck-$n.duckdb" --duckdb-memory-limit "$memory"
    fi
    if [[ ",$engines," == *,spark,* ]]; then
      measure "$n spark local[2] #$r" "$jars/spark-correlate" --lake "$lake" \
        --master 'local[2]' ${spark_args[@]+"${spark_args[@]}"}
      grep -h "written to the lake\|report result" "$dir/$n spark local[2] #$r.err" || true
    fi
  done
done
echo "after: $(uptime)"

#!/usr/bin/env bash
# Proves that what tokentrace writes opens in the Python data tools people use
# (docs/storage.md#python-and-other-engines): the Parquet lake in Python `duckdb`, `pyarrow` and
# `pandas`, and the DuckDB file in Python `duckdb`.
#
#   scripts/check-python-clients.sh [--lake DIR [--views FILE]] [--db FILE] [--expect TABLE=ROWS]...
#
# --lake: the lake is read through the safe path, the views `tokentrace sql --lake DIR --views`
#   prints (or FILE, when given): Python duckdb runs them; pyarrow and pandas read the same files.
#   Every table's row count must agree between the three clients (and with --expect).
#   pyarrow.dataset also opens each table's folder as a Hive-partitioned dataset (what an engine
#   that globs the folder sees; its count may include compaction inputs, so it is shown, not
#   compared).
# --db: the DuckDB file is opened READ_ONLY by Python duckdb; its tables and row counts are printed.
#
# Needs python3 with duckdb, pyarrow and pandas (pip install duckdb==1.5.6 pyarrow pandas).
# Exit 0 when every client read everything and the counts agree, 1 when not, 2 on bad usage,
# 3 when python3 or a module is missing (a caller may skip).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lake="" views="" db="" expect=()
while [ $# -gt 0 ]; do
  case "$1" in
    --lake) lake="$2"; shift 2 ;;
    --views) views="$2"; shift 2 ;;
    --db) db="$2"; shift 2 ;;
    --expect) expect+=("$2"); shift 2 ;;
    *) echo "usage: scripts/check-python-clients.sh [--lake DIR [--views FILE]] [--db FILE] [--expect TABLE=ROWS]..." >&2; exit 2 ;;
  esac
done
if [ -z "$lake" ] && [ -z "$db" ]; then
  echo "check-python-clients: give --lake DIR and/or --db FILE" >&2
  exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "check-python-clients: SKIP: no python3 (Debian: python3)" >&2
  exit 3
fi
if ! python3 -c 'import duckdb, pyarrow, pandas' 2>/dev/null; then
  echo "check-python-clients: SKIP: python3 lacks duckdb, pyarrow or pandas (pip install duckdb==1.5.6 pyarrow pandas)" >&2
  exit 3
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -n "$lake" ] && [ -z "$views" ]; then
  views="$work/views.sql"
  "$here/../tokentrace" sql --lake "$lake" --views > "$views"
fi

python3 - "$lake" "$views" "$db" "${expect[@]+"${expect[@]}"}" <<'PY'
import re
import sys

import duckdb
import pandas
import pyarrow
import pyarrow.dataset
import pyarrow.parquet

lake, views, db = sys.argv[1], sys.argv[2], sys.argv[3]
expect = dict(item.split("=", 1) for item in sys.argv[4:])
ok = True

if lake:
    sql = open(views, encoding="utf-8").read()
    # CREATE OR REPLACE VIEW <table> AS SELECT ... FROM read_parquet(['f1', 'f2'], ...);
    tables = {}
    for statement in re.finditer(r"CREATE OR REPLACE VIEW (\w+) AS (.*?);\n", sql):
        table, body = statement.group(1), statement.group(2)
        listed = re.search(r"read_parquet\(\[(.*?)\]", body)
        files = []
        if listed:
            files = [f.replace("''", "'") for f in re.findall(r"'((?:[^']|'')*)'", listed.group(1))]
        tables[table] = files
    connection = duckdb.connect()
    connection.execute(sql)
    print(f"lake {lake}: python duckdb {duckdb.__version__}, pyarrow {pyarrow.__version__},"
          f" pandas {pandas.__version__}")
    for table, files in tables.items():
        in_duckdb = connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        in_arrow = sum(pyarrow.parquet.read_metadata(f).num_rows for f in files)
        frame = (pandas.concat([pandas.read_parquet(f) for f in files], ignore_index=True)
                 if files else pandas.DataFrame())
        in_pandas = len(frame)
        folder = f"{lake}/{table}"
        try:
            globbed = pyarrow.dataset.dataset(folder, format="parquet", partitioning="hive").count_rows()
        except (FileNotFoundError, pyarrow.ArrowInvalid):
            globbed = 0
        wanted = expect.get(table)
        agree = in_duckdb == in_arrow == in_pandas and (wanted is None or int(wanted) == in_duckdb)
        if files and "ts" in frame.columns and not str(frame["ts"].dtype).startswith("datetime64"):
            agree = False
            print(f"  {table}: ts read by pandas as {frame['ts'].dtype}, not datetime64")
        ok = ok and agree
        print(f"  {table}: duckdb {in_duckdb}, pyarrow {in_arrow}, pandas {in_pandas}"
              f" ({len(files)} files; the folder globbed: {globbed})"
              + ("" if wanted is None else f", expected {wanted}")
              + ("" if agree else "  MISMATCH"))

if db:
    try:
        connection = duckdb.connect(db, read_only=True)
        version = connection.execute(
            "SELECT tags FROM duckdb_databases() WHERE database_name = current_database()").fetchone()[0]
        print(f"db {db}: python duckdb {duckdb.__version__} opened it ({version})")
        for (table,) in connection.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
                " ORDER BY 1").fetchall():
            rows = connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            print(f"  {table}: {rows}")
    except duckdb.Error as error:
        ok = False
        print(f"db {db}: python duckdb {duckdb.__version__} cannot open it: {error}")

sys.exit(0 if ok else 1)
PY

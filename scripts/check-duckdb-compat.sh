#!/usr/bin/env bash
# Proves that a tokentrace DuckDB file opens in older DuckDB clients: by default DuckDB 1.4 and 1.5,
# the versions the DuckDB Python/CLI clients in use still ship. tokentrace writes with DuckDB 2.0
# (JDBC), whose default storage format those clients refuse; the store creates files with storage
# version v1.4.0 instead (docs/storage.md#duckdb-file-compatibility).
#
#   scripts/check-duckdb-compat.sh FILE.duckdb [JDBC_VERSION ...]
#
# For each JDBC_VERSION (default: 1.4.4.0 1.5.6.0) it fetches org.duckdb:duckdb_jdbc with Maven
# (the same DuckDB core as the Python wheel and the CLI of that release) and opens the file
# READ_ONLY in a separate JVM: it prints the DuckDB version, the file's storage version and every
# table with its row count. It also uses the `duckdb` CLI and Python's `duckdb` module when they are
# installed. The file is never written. Exit 0 when every client opened it, 1 when one failed, 2 on
# bad usage or when no client could be fetched.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: scripts/check-duckdb-compat.sh FILE.duckdb [JDBC_VERSION ...]" >&2
  exit 2
fi
file="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
if [ ! -f "$file" ]; then
  echo "check-duckdb-compat: $file: no such file" >&2
  exit 2
fi
versions=("$@")
if [ ${#versions[@]} -eq 0 ]; then
  versions=(1.4.4.0 1.5.6.0)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A copy, so that no client can touch the original (and a .wal next to it is not replayed twice).
cp "$file" "$work/check.duckdb"
if [ -f "$file.wal" ]; then
  echo "check-duckdb-compat: $file.wal exists: the file was not closed cleanly; checking the file alone" >&2
fi

cat > "$work/OpenReadOnly.java" <<'JAVA'
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** Opens a DuckDB file READ_ONLY and prints the version, storage version and row counts. */
public class OpenReadOnly {
  public static void main(String[] args) throws Exception {
    Properties properties = new Properties();
    properties.setProperty("duckdb.read_only", "true");
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + args[0], properties);
        Statement statement = connection.createStatement()) {
      try (ResultSet row = statement.executeQuery(
          "SELECT version(), (SELECT tags FROM duckdb_databases() WHERE NOT internal"
              + " AND database_name = current_database())")) {
        row.next();
        System.out.println("  duckdb " + row.getString(1) + ", file " + row.getString(2));
      }
      List<String> tables = new ArrayList<>();
      try (ResultSet row = statement.executeQuery(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
              + " ORDER BY table_name")) {
        while (row.next()) {
          tables.add(row.getString(1));
        }
      }
      for (String table : tables) {
        try (ResultSet row = statement.executeQuery("SELECT count(*) FROM \"" + table + "\"")) {
          row.next();
          System.out.println("  " + table + ": " + row.getLong(1) + " rows");
        }
      }
    }
  }
}
JAVA

failed=0
checked=0
for version in "${versions[@]}"; do
  echo "DuckDB JDBC $version:"
  if ! mvn -B -q dependency:copy -Dartifact="org.duckdb:duckdb_jdbc:$version" \
      -DoutputDirectory="$work/jars" >"$work/mvn.log" 2>&1; then
    echo "  cannot fetch org.duckdb:duckdb_jdbc:$version (see Maven's output below); skipped" >&2
    tail -5 "$work/mvn.log" >&2
    continue
  fi
  checked=$((checked + 1))
  if ! java -cp "$work/jars/duckdb_jdbc-$version.jar" "$work/OpenReadOnly.java" "$work/check.duckdb"; then
    echo "  FAILED: DuckDB $version cannot open $file" >&2
    failed=1
  fi
done

if command -v duckdb >/dev/null 2>&1; then
  echo "duckdb CLI ($(duckdb --version)):"
  checked=$((checked + 1))
  if ! duckdb -readonly "$work/check.duckdb" -c "SELECT count(*) AS tables FROM information_schema.tables"; then
    echo "  FAILED: the duckdb CLI cannot open $file" >&2
    failed=1
  fi
fi
if python3 -c "import duckdb" >/dev/null 2>&1; then
  echo "Python duckdb $(python3 -c 'import duckdb; print(duckdb.__version__)'):"
  checked=$((checked + 1))
  if ! python3 -c "import duckdb, sys; c = duckdb.connect(sys.argv[1], read_only=True); print('  tables:', c.sql('SELECT count(*) FROM information_schema.tables').fetchone()[0])" "$work/check.duckdb"; then
    echo "  FAILED: Python duckdb cannot open $file" >&2
    failed=1
  fi
fi

if [ "$checked" -eq 0 ]; then
  echo "check-duckdb-compat: no client could be fetched or found; nothing was checked" >&2
  exit 2
fi
exit "$failed"

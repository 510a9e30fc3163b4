package dev.tokentrace.cli;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.Lake;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The reader of {@link LakeAttributionIT}, in a JVM of its own: for {@code seconds}, refreshes its
 * views of the lake ({@link Lake#attachViews}) and reads {@code request_attribution}, checking that
 * what it reads is exactly one whole version: every row of one {@code run_id} {@code v<k>-<rows>},
 * and {@code <rows>} of them. Prints {@code reads=N versions=V bad=B} and one line per bad read;
 * exits 1 when a read was bad.
 */
public final class LakeVersionReaderMain {
  private LakeVersionReaderMain() {}

  public static void main(String[] args) throws Exception {
    Path lake = Path.of(args[0]);
    long started = System.nanoTime();
    long deadline = started + Long.parseLong(args[1]) * 1_000_000_000L;
    // on a loaded machine the first reads take long: read past the deadline until several
    // versions were seen, within a hard bound
    long hardDeadline = started + 180 * 1_000_000_000L;
    long reads = 0;
    long bad = 0;
    long empty = 0;
    java.util.Set<String> versions = new java.util.HashSet<>();
    try (Database reader = Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement()) {
      System.out.println("reader: started");
      System.out.flush();
      while ((System.nanoTime() < deadline || versions.size() <= 5)
          && System.nanoTime() < hardDeadline) {
        Lake.attachViews(connection, lake);
        try (ResultSet rows =
            statement.executeQuery(
                "SELECT count(*), count(DISTINCT run_id), min(run_id), max(run_id),"
                    + " count(DISTINCT client_source_line) FROM request_attribution")) {
          rows.next();
          long count = rows.getLong(1);
          reads++;
          if (count == 0) {
            empty++;
            continue;
          }
          String run = rows.getString(3);
          long expected = Long.parseLong(run.substring(run.indexOf('-') + 1));
          if (rows.getLong(2) != 1 || count != expected || rows.getLong(5) != count) {
            bad++;
            System.out.println(
                "BAD read: "
                    + count
                    + " rows, runs "
                    + rows.getString(3)
                    + " .. "
                    + rows.getString(4)
                    + ", expected "
                    + expected);
          }
          versions.add(run);
        } catch (SQLException e) {
          // a version deleted after the grace period between the pointer and the read: documented
          bad++;
          System.out.println("BAD read: " + e.getMessage());
        }
      }
    }
    System.out.println(
        "reads=" + reads + " versions=" + versions.size() + " empty=" + empty + " bad=" + bad);
    System.out.flush();
    System.exit(bad == 0 ? 0 : 1);
  }
}

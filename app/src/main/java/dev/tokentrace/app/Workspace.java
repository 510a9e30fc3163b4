package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.live.LakeAttribution;
import dev.tokentrace.correlate.live.LakeEvents;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeSnapshot;
import dev.tokentrace.store.lake.LakeTableVersions;
import dev.tokentrace.store.lake.LakeTables;
import dev.tokentrace.table.TableSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The store a use case works on: the analysis file (DuckDB) and, optionally, a Parquet lake whose
 * committed event files replace the file's event tables before an attribution or a report
 * (docs/design.md#application-layer, docs/live.md#live-attribution).
 */
public final class Workspace {
  private final DatabaseSettings database;
  private final @Nullable Path lake;

  private Workspace(DatabaseSettings database, @Nullable Path lake) {
    this.database = requireNonNull(database, "database is null");
    this.lake = lake;
  }

  /** The analysis file alone. */
  public static Workspace of(DatabaseSettings database) {
    return new Workspace(database, null);
  }

  /** The analysis file with the events of {@code lake} (none when null). */
  public static Workspace of(DatabaseSettings database, @Nullable Path lake) {
    return new Workspace(database, lake);
  }

  public DatabaseSettings database() {
    return database;
  }

  public @Nullable Path lake() {
    return lake;
  }

  /** Opens (or creates) the analysis file read-write. */
  public Database open() {
    return Database.open(database);
  }

  /** Opens the existing file read-only (docs/storage.md#read-only-readers). */
  public Database openReadOnly() {
    return Database.openReadOnly(database);
  }

  /**
   * Opens the existing file read-only behind an in-memory database where an attribution (and, with
   * a lake, the lake's event tables) can be written without touching the file
   * (docs/storage.md#read-only-readers).
   */
  public Database openScratch() {
    List<String> scratch = new ArrayList<>(Attributor.TABLES_WRITTEN);
    if (lake != null) {
      for (TableSchema<?> table : LakeTables.ALL) {
        scratch.add(table.name());
      }
    }
    return Database.openReadOnly(database, scratch);
  }

  /** The lake's files as of now, as a fingerprint that changes when a file is added or removed. */
  public String lakeFingerprint() {
    return LakeEvents.fingerprint(LakeSnapshot.scan(requireLake()));
  }

  /** Replaces the event tables of {@code db} with the lake's committed files as of now. */
  public LakeEvents.Copied copyLake(Database db) {
    return LakeEvents.copy(requireLake(), db);
  }

  /**
   * Brings the event tables of {@code db} to the lake's snapshot, appending the new files' rows
   * when {@code previous} still describes the file.
   */
  public LakeEvents.Copied copyLake(Database db, LakeEvents.@Nullable Copied previous) {
    return LakeEvents.copy(requireLake(), db, previous);
  }

  /**
   * Writes {@code db}'s request_attribution to the lake as its next version and says what it wrote
   * (docs/live.md#the-attribution-in-the-lake).
   */
  public String writeAttributionToLake(Database db) {
    Path dir = requireLake();
    return LakeAttribution.describe(
        dir, LakeAttribution.write(db, dir, LakeTableVersions.DEFAULT_GRACE));
  }

  private Path requireLake() {
    if (lake == null) {
      throw new IllegalStateException("this workspace has no lake");
    }
    return lake;
  }
}

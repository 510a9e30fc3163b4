package dev.tokentrace.report.load;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.query.QueryRows;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The report's costly query results stored with the attribution they were computed from
 * (docs/design.md#stored-report-results): {@code correlate} computes them in its attribution's
 * transaction ({@link #store}) into {@code attribution_results}, keyed by the attribution's run,
 * and a report reads them ({@link #of}) while that attribution is current, so it does not scan
 * every request again for each percentile table. The rows are the report's own row records, written
 * as JSON (doubles round-trip exactly) and read back into the same records, so a report from stored
 * results equals one computed from the attribution (ReportServiceTest). A query not stored is
 * computed as before. Not thread-safe: one per report.
 */
public final class StoredResults {
  /** The table (schema/011_attribution_results). */
  public static final String TABLE = "attribution_results";

  private static final Logger log = LoggerFactory.getLogger(StoredResults.class);
  private static final ObjectMapper JSON = mapper();

  private final @Nullable String runId;
  private final Map<String, String> stored;
  private final @Nullable Handle recordInto;
  private int read;
  private int computed;

  /** The rows obtained so far, by key: a query asked for again is neither read nor run again. */
  private final Map<String, List<?>> obtained = new HashMap<>();

  private @Nullable SharedGroupings shared;

  private StoredResults(
      @Nullable String runId, Map<String, String> stored, @Nullable Handle recordInto) {
    this.runId = runId;
    this.stored = stored;
    this.recordInto = recordInto;
  }

  /** No stored results: every query is computed (a recomputed or an older attribution). */
  public static StoredResults none() {
    return new StoredResults(null, Map.of(), null);
  }

  /** The results stored with the attribution run {@code runId} (none when none were stored). */
  public static StoredResults of(Handle handle, String runId) {
    requireNonNull(runId, "runId is null");
    Map<String, String> rows = new HashMap<>();
    handle
        .createQuery("SELECT query, params, rows_json FROM " + TABLE + " WHERE run_id = :run_id")
        .bind("run_id", runId)
        .map(
            (result, context) ->
                Map.entry(
                    key(result.getString("query"), result.getString("params")),
                    result.getString("rows_json")))
        .forEach(entry -> rows.put(entry.getKey(), entry.getValue()));
    return new StoredResults(runId, rows, null);
  }

  /** How many query results are stored with the attribution run {@code runId}. */
  public static int count(Database database, String runId) {
    requireNonNull(runId, "runId is null");
    return database
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery("SELECT count(*) FROM " + TABLE + " WHERE run_id = :run_id")
                    .bind("run_id", runId)
                    .mapTo(Integer.class)
                    .one());
  }

  /**
   * Computes the report's costly results from the attribution of {@code runId} just written on this
   * handle (in its transaction) and stores them with it, replacing any stored before. Returns how
   * many query results were stored.
   */
  public static int store(Handle handle, String runId) {
    requireNonNull(runId, "runId is null");
    handle.execute("DELETE FROM " + TABLE);
    QueryRows.registerInstants(handle);
    StatementTimes.install(handle);
    StoredResults recording = new StoredResults(runId, Map.of(), handle);
    ReportDataLoader.costly(handle, recording);
    return recording.computed;
  }

  /**
   * The rows of the named query with these parameters: the stored ones when present, else computed
   * (and stored, when this records).
   */
  <T> List<T> list(Handle handle, String query, Class<T> type, Map<String, String> params) {
    return list(query, type, params, () -> QueryRows.list(handle, query, type, params));
  }

  /**
   * As {@link #list(Handle, String, Class, Map)}, with the rows {@code compute} gives when they are
   * not stored: the query's rows by other means (SharedGroupings: another grouping's rows
   * relabelled), stored under the query's name and parameters as if it had run.
   */
  <T> List<T> list(
      String query, Class<T> type, Map<String, String> params, Supplier<List<T>> compute) {
    String key = key(query, params(params));
    @SuppressWarnings("unchecked")
    List<T> again = (List<T>) obtained.get(key);
    if (again != null) {
      return again;
    }
    List<T> rows = obtain(key, query, type, params, compute);
    obtained.put(key, rows);
    return rows;
  }

  /**
   * The shared groupings of the attribution on {@code handle} (report/grouping_cells), read when
   * first asked for: only when a grouping is computed, never when every result is stored.
   */
  SharedGroupings shared(Handle handle) {
    if (shared == null) {
      shared = SharedGroupings.of(handle);
    }
    return shared;
  }

  private <T> List<T> obtain(
      String key,
      String query,
      Class<T> type,
      Map<String, String> params,
      Supplier<List<T>> compute) {
    String json = stored.get(key);
    JavaType listType = JSON.getTypeFactory().constructCollectionType(List.class, type);
    if (json != null) {
      try {
        List<T> rows = JSON.readValue(json, listType);
        read++;
        return rows;
      } catch (JsonProcessingException e) {
        log.warn(
            "report: stored rows of {} ({}) unreadable, computed again: {}",
            query,
            runId,
            e.getOriginalMessage());
      }
    }
    List<T> rows = compute.get();
    computed++;
    if (recordInto != null) {
      try {
        recordInto
            .createUpdate("INSERT INTO " + TABLE + " VALUES (:run_id, :query, :params, :rows_json)")
            .bind("run_id", runId)
            .bind("query", query)
            .bind("params", params(params))
            .bind("rows_json", JSON.writerFor(listType).writeValueAsString(rows))
            .execute();
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot write the rows of " + query + " as JSON", e);
      }
    }
    return rows;
  }

  /** How many query results came from the stored ones so far. */
  public int read() {
    return read;
  }

  /** How many query results were computed so far. */
  public int computed() {
    return computed;
  }

  /** The attribution run whose results these are, or null for {@link #none()}. */
  public @Nullable String runId() {
    return runId;
  }

  private static String params(Map<String, String> params) {
    return new TreeMap<>(params)
        .entrySet().stream()
            .map(entry -> entry.getKey() + "=" + entry.getValue())
            .collect(Collectors.joining("&"));
  }

  private static String key(String query, String params) {
    return query + "?" + params;
  }

  private static ObjectMapper mapper() {
    SimpleModule instants = new SimpleModule("instants");
    instants.addSerializer(
        Instant.class,
        new JsonSerializer<Instant>() {
          @Override
          public void serialize(Instant value, JsonGenerator out, SerializerProvider provider)
              throws IOException {
            out.writeString(value.toString());
          }
        });
    instants.addDeserializer(
        Instant.class,
        new JsonDeserializer<Instant>() {
          @Override
          public Instant deserialize(JsonParser in, DeserializationContext context)
              throws IOException {
            return Instant.parse(in.getValueAsString());
          }
        });
    return new ObjectMapper()
        .registerModule(instants)
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  }
}

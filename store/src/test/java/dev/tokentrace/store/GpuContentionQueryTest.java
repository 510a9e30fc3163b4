package dev.tokentrace.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.statement.Query;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * queries/gpu_contention on hand-made rows: an engine (pid 100, in every sample) and a trainer (pid
 * 200) on GPU-A of instance vllm-0 from 10:00:10 to 10:00:20; requests of 2 s every 5 s. The ones
 * overlapping the trainer's spell are listed with their TPOT against the others' median.
 */
final class GpuContentionQueryTest {
  private Database database;

  @BeforeEach
  void load() {
    database = Database.open(DatabaseSettings.inMemory());
    database
        .jdbi()
        .useHandle(
            h -> {
              h.execute(
                  "INSERT INTO gpu_process (engine, instance, ts, source_path, source_line,"
                      + " source_offset, tool, gpu_uuid, pid, process_name, used_mem_mib)"
                      + " SELECT 'gpu', 'vllm-0', TIMESTAMP '2026-12-01 10:00:00' + to_seconds(i),"
                      + " 'apps.csv', i + 1, 0, 'compute-apps', 'GPU-A', 100, 'python3', 70000"
                      + " FROM range(0, 40) t(i)");
              h.execute(
                  "INSERT INTO gpu_process (engine, instance, ts, source_path, source_line,"
                      + " source_offset, tool, gpu_uuid, pid, process_name, used_mem_mib)"
                      + " SELECT 'gpu', 'vllm-0', TIMESTAMP '2026-12-01 10:00:00' + to_seconds(i),"
                      + " 'apps.csv', 100 + i, 0, 'compute-apps', 'GPU-A', 200, 'train', 9000"
                      + " FROM range(10, 21) t(i)");
              h.execute(
                  "INSERT INTO request_attribution (run_id, client_format, client_source_path,"
                      + " client_source_line, request_id, request_key, status, warmup, join_status,"
                      + " client_rows, server_rows, arrival_rows, token_mismatch,"
                      + " client_queue_recorded, server_derived, suspect, included, instance,"
                      + " aligned_start_ts, client_e2e_ms, tpot_ms, decode_ms)"
                      + " SELECT 'r', 'csv', 'c.csv', i, 'q' || i, 'q' || i, 'ok', false, 'matched',"
                      + " 1, 1, 1, false, true, false, false, true, 'vllm-0',"
                      + " TIMESTAMP '2026-12-01 10:00:00' + to_seconds(5 * i), 2000,"
                      + " CASE WHEN i BETWEEN 2 AND 4 THEN 20.0 ELSE 10.0 END, 1500"
                      + " FROM range(0, 8) t(i)");
            });
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void listsTheRequestsThatOverlappedAnotherProcessWithTheirSlowdown() {
    List<Map<String, Object>> rows =
        database
            .jdbi()
            .withHandle(
                h -> {
                  Query query = h.createQuery(SqlCatalog.get("queries/gpu_contention"));
                  SqlParams.bind(query, "run_id", "VARCHAR", null);
                  SqlParams.bind(query, "gap_s", "DOUBLE", null);
                  return query.mapToMap().list();
                });
    // requests start every 5 s and last 2 s: q2 (10-12 s), q3 (15-17 s), q4 (20-22 s) overlap
    assertThat(rows).extracting(row -> row.get("request_key")).containsExactly("q2", "q3", "q4");
    assertThat(rows)
        .allSatisfy(
            row -> {
              assertThat(row.get("co_tenant_pid")).isEqualTo(200L);
              assertThat(row.get("co_tenant_name")).isEqualTo("train");
              assertThat(row.get("gpu")).isEqualTo("GPU-A");
              assertThat(row.get("clear_tpot_p50_ms")).isEqualTo(10.0);
              assertThat(row.get("slowdown")).isEqualTo(2.0);
            });
  }
}

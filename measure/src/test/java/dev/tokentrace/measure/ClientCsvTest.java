package dev.tokentrace.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

final class ClientCsvTest {
  @Test
  void aRowQuotesOnlyWhatMustBeQuotedAndLeavesNullsEmpty() {
    String row =
        ClientCsv.appendRow(
                new StringBuilder(),
                "r-1",
                ClientCsv.startTs(Instant.parse("2026-03-02T09:00:00.1234567Z")),
                null,
                ClientCsv.millis(13),
                null,
                ClientCsv.millis(0),
                128,
                null,
                "error: a, \"b\"",
                false)
            .toString();
    assertThat(row)
        .isEqualTo(
            "r-1,2026-03-02T09:00:00.123456Z,,13.000,,0.000,128,,\"error: a, \"\"b\"\"\",false");
  }

  @Test
  void theHeaderIsTheRequiredThenTheOptionalColumns() {
    assertThat(ClientCsv.HEADER)
        .isEqualTo(
            "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,client_queue_ms,prompt_tokens,"
                + "concurrency,status,warmup");
  }
}

package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rows in the layout our wrk script writes (scripts/wrk/tokentrace.lua). */
final class WrkClientTimingReaderTest {
  @TempDir Path dir;

  @Test
  void readsRowsEndToEndOnlyAndRejectsBadOnes() throws Exception {
    Path file =
        ClientFiles.write(
            dir,
            "wrk.csv",
            WrkClientTimingReader.HEADER
                + "\nwrk-1-1,1767225600000000,1767225600812500,200,4096\n"
                + "wrk-1-2,1767225601000000,1767225601010000,503,20\n"
                + "wrk-1-3,1767225601000000,1767225600000000,200,20\n"
                + ",1767225601000000,1767225601000000,200,20\n"
                + WrkClientTimingReader.HEADER
                + "\nwrk-2-1,1767225602000000,1767225602100000,200,20,9\n");
    WrkClientTimingReader reader = new WrkClientTimingReader();
    assertThat(reader.recognize(FileHead.of(file)).matches()).isTrue();
    CollectingSink sink = ClientFiles.read(reader, file);

    assertThat(sink.rows).extracting(ClientTiming::requestId).containsExactly("wrk-1-1", "wrk-1-2");
    ClientTiming first = sink.rows.get(0);
    assertThat(first.startTs()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(first.e2eMs()).isEqualTo(812.5);
    assertThat(first.ttftMs()).isNull();
    assertThat(first.timingView()).isEqualTo("e2e");
    assertThat(sink.rows.get(1).status()).isEqualTo("http 503");
    assertThat(sink.reasons())
        .containsExactly(
            "'end_us' < 'start_us' (1767225600000000 < 1767225601000000)",
            "missing value for 'request_id'",
            "wrong column count: 6, expected 5");
  }
}

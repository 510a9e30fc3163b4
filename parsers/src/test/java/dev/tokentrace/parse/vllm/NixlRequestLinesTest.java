package dev.tokentrace.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.Parsers;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * vLLM's NIXL read lines of a decode server at DEBUG (docs/formats/pd.md#vllm-nixl-debug-lines):
 * lines composed to the format, behind a collector's millisecond time or vLLM's header alone.
 */
final class NixlRequestLinesTest {
  private static final String ENGINE = "(EngineCore_DP0 pid=77) DEBUG 03-02 10:00:02 ";
  private static final String ID = "chatcmpl-req-7-0a1b2c3d";

  private static String start(String rank) {
    return ENGINE
        + "[distributed/kv_transfer/kv_connector/v1/nixl_connector.py:2110] Remote agent"
        + " 6e69786c-0000-0000-8000-000000000000 available, calling _read_blocks on remote rank "
        + rank
        + " with remote block size 16 for req "
        + ID;
  }

  private static final String END =
      ENGINE + "[v1/core/sched/scheduler.py:1523] Finished recving KV transfer for request " + ID;

  private static RecordingSink unwrapped(String... lines) {
    LineParser parser = Parsers.create(Engine.VLLM, RecordingSink.SETTINGS);
    RecordingSink sink = new RecordingSink();
    for (int i = 0; i < lines.length; i++) {
      parser.parse(lines[i], new SourcePosition(RecordingSink.PATH, i + 1, 0), sink);
    }
    parser.finish(sink);
    return sink;
  }

  @Test
  void aReadTimedByTheCollectorBecomesTheRequestsOwnTransfer() {
    RecordingSink sink =
        unwrapped(
            "2026-03-02T10:00:02.120Z " + start("0"),
            "2026-03-02T10:00:02.125Z " + start("1"), // a second TP rank's read of the same request
            "2026-03-02T10:00:02.468Z " + END);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.events).hasSize(1);
    KvTransfer row = (KvTransfer) sink.events.get(0);
    assertThat(row.requestId()).isEqualTo(ID);
    assertThat(row.requestKey()).isEqualTo("req-7"); // the engine suffix removed
    assertThat(row.side()).isEqualTo("decode");
    assertThat(row.transfers()).isEqualTo(1);
    assertThat(row.durationMs()).isEqualTo(348.0);
    assertThat(row.ts()).isEqualTo(Instant.parse("2026-03-02T10:00:02.468Z"));
    assertThat(row.sourceKind()).isEqualTo(KvTransfer.NIXL_DEBUG);
    assertThat(row.source().line()).isEqualTo(3);
    assertThat(sink.ignored)
        .extracting(RecordingSink.Ignored::rule)
        .containsExactly(NixlRequestLines.HELD, NixlRequestLines.HELD);
  }

  @Test
  void withOnlyVllmsSecondsOrWithoutItsStartOrAfterAFailureNoRowIsMade() {
    RecordingSink coarse = RecordingSink.parse(start("0"), END);
    assertThat(coarse.events).isEmpty();
    assertThat(coarse.ignored)
        .extracting(RecordingSink.Ignored::rule)
        .containsExactly(NixlRequestLines.HELD, NixlRequestLines.COARSE);

    RecordingSink failed =
        unwrapped(
            "2026-03-02T10:00:02.120Z " + start("0"),
            "2026-03-02T10:00:02.300Z (EngineCore_DP0 pid=77) ERROR 03-02 10:00:02"
                + " [distributed/kv_transfer/kv_connector/v1/nixl_connector.py:1890] NIXL transfer"
                + " failed for request "
                + ID
                + " with state ERR. Marking blocks as invalid.",
            "2026-03-02T10:00:02.468Z " + END,
            "2026-03-02T10:00:03.001Z " + END);
    assertThat(failed.events).hasSize(1); // the error's notice, no transfer
    assertThat(failed.events.get(0)).isNotInstanceOf(KvTransfer.class);
    assertThat(failed.ignored)
        .extracting(RecordingSink.Ignored::rule)
        .containsExactly(
            NixlRequestLines.HELD, NixlRequestLines.UNPAIRED, NixlRequestLines.UNPAIRED);
  }
}

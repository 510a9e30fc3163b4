package dev.tokentrace.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.KvTransfer;
import org.junit.jupiter.api.Test;

/** vLLM's {@code KV Transfer metrics} line (docs/formats/pd.md#vllm-kv-transfer-metrics). */
final class KvTransferLineTest {
  private static final String HEAD = "(APIServer pid=3646) INFO 05-19 10:13:";
  private static final String NIXL =
      "KV Transfer metrics: Num successful transfers=12, Avg xfer time (ms)=8.125,"
          + " P90 xfer time (ms)=11.5, Avg post time (ms)=0.041, P90 post time (ms)=0.07,"
          + " Avg MB per transfer=96.0, Throughput (MB/s)=11815.385, Avg number of"
          + " descriptors=64.0, Num failed transfers=1, Num KV expired reqs=2";

  @Test
  void readsNixlsIntervalAggregateWithTheIntervalSinceTheLastLine() {
    RecordingSink sink =
        RecordingSink.parse(
            HEAD + "01 [metrics.py:149] " + NIXL,
            HEAD + "11 [metrics.py:149] KVConnectorType: NixlConnector, " + NIXL);

    assertThat(sink.rejections).isEmpty();
    assertThat(sink.events).hasSize(2);
    KvTransfer first = (KvTransfer) sink.events.get(0);
    assertThat(first.requestKey()).isNull();
    assertThat(first.side()).isEqualTo("decode");
    assertThat(first.intervalS()).isNull();
    assertThat(first.transfers()).isEqualTo(12);
    assertThat(first.durationMs()).isEqualTo(8.125);
    assertThat(first.p90Ms()).isEqualTo(11.5);
    assertThat(first.mbPerTransfer()).isEqualTo(96.0);
    assertThat(first.throughputMbS()).isEqualTo(11815.385);
    assertThat(first.failed()).isEqualTo(1);
    assertThat(first.expired()).isEqualTo(2);
    assertThat(first.sourceKind()).isEqualTo(KvTransfer.NIXL_INTERVAL);
    assertThat(((KvTransfer) sink.events.get(1)).intervalS()).isEqualTo(10.0);
  }

  @Test
  void anIntervalWithoutTransfersKeepsItsFailuresAndNoTimes() {
    RecordingSink sink =
        RecordingSink.parse(
            HEAD
                + "01 [metrics.py:149] KV Transfer metrics: Num successful transfers=0, Avg xfer"
                + " time (ms)=0, P90 xfer time (ms)=0, Avg MB per transfer=0, Throughput"
                + " (MB/s)=0, Avg number of descriptors=0, Num failed transfers=3, Num failed"
                + " recvs=1, Num KV expired reqs=0");

    KvTransfer row = (KvTransfer) sink.events.get(0);
    assertThat(row.transfers()).isZero();
    assertThat(row.durationMs()).isNull();
    assertThat(row.failed()).isEqualTo(3);
  }

  @Test
  void otherConnectorsKeysAreIgnoredByNameAndBadValuesRejected() {
    RecordingSink sink =
        RecordingSink.parse(
            HEAD + "01 [metrics.py:149] KV Transfer metrics: num_successful_transfers=4",
            HEAD
                + "02 [metrics.py:149] KV Transfer metrics: Num successful transfers=2, Avg xfer"
                + " time (ms)=fast");

    assertThat(sink.events).isEmpty();
    assertThat(sink.ignored)
        .extracting(RecordingSink.Ignored::rule)
        .containsExactly(KvTransferLine.OTHER_CONNECTOR);
    assertThat(sink.rejections).hasSize(1);
    assertThat(sink.rejections.get(0).reason())
        .isEqualTo("kv transfer line: bad 'Avg xfer time (ms)' value");
  }
}

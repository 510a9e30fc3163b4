package dev.tokentrace.ingest.follow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

final class CheckpointTest {
  private static final Checkpoint CHECKPOINT =
      new Checkpoint(
          1,
          "host-1",
          List.of(
              new Checkpoint.FileCheckpoint(
                  "/logs/server.log",
                  "vllm-0",
                  "(dev=801,ino=42)",
                  256,
                  123456789L,
                  4096,
                  37,
                  "vllm"),
              new Checkpoint.FileCheckpoint(
                  "/logs/new.log", "vllm-1", "(dev=801,ino=43)", 10, 5L, 0, 1, null)));

  @Test
  void isReadableJsonThatReadsBackTheSame() {
    String json = new String(CHECKPOINT.toJson(), UTF_8);

    assertThat(json)
        .isEqualTo(
            "{\"version\":1,\"shipper\":\"host-1\",\"files\":[{\"path\":\"/logs/server.log\","
                + "\"instance\":\"vllm-0\",\"identity\":\"(dev=801,ino=42)\",\"head_length\":256,"
                + "\"head_crc\":123456789,\"offset\":4096,\"line\":37,\"engine\":\"vllm\"},"
                + "{\"path\":\"/logs/new.log\",\"instance\":\"vllm-1\",\"identity\":"
                + "\"(dev=801,ino=43)\",\"head_length\":10,\"head_crc\":5,\"offset\":0,"
                + "\"line\":1}]}");
    assertThat(Checkpoint.fromJson("host-1", CHECKPOINT.toJson())).isEqualTo(CHECKPOINT);
  }

  @Test
  void refusesANewerVersionAndUnreadableRecords() {
    byte[] newer = "{\"version\":2,\"shipper\":\"host-1\",\"files\":[]}".getBytes(UTF_8);

    assertThatThrownBy(() -> Checkpoint.fromJson("host-1", newer))
        .hasMessage(
            "the checkpoint of shipper 'host-1' has version 2, this tokentrace reads version 1");
    assertThatThrownBy(() -> Checkpoint.fromJson("host-1", "{oops".getBytes(UTF_8)))
        .hasMessageStartingWith("the checkpoint of shipper 'host-1' in kafka is unreadable: ")
        .hasMessageEndingWith("; start over with another --shipper-id");
  }
}

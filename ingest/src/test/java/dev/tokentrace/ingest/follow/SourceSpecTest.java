package dev.tokentrace.ingest.follow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SourceSpecTest {
  @TempDir Path dir;

  @Test
  void readsAnInstanceNameBeforeThePath() {
    assertThat(SourceSpec.parse("vllm-0=/var/log/vllm/server.log"))
        .isEqualTo(new SourceSpec("/var/log/vllm/server.log", "vllm-0"));
    assertThat(SourceSpec.parse("/var/log/server.log"))
        .isEqualTo(new SourceSpec("/var/log/server.log", null));
  }

  @Test
  void aPathWithAnEqualsSignStaysAPath() {
    assertThat(SourceSpec.parse("./run=3/server.log"))
        .isEqualTo(new SourceSpec("./run=3/server.log", null));
    assertThat(SourceSpec.parse("logs/a=b.log")).isEqualTo(new SourceSpec("logs/a=b.log", null));
  }

  @Test
  void tellsGlobsFromPaths() {
    assertThat(new SourceSpec("/logs/*.log", null).isGlob()).isTrue();
    assertThat(new SourceSpec("/logs/**/server.log", null).isGlob()).isTrue();
    assertThat(new SourceSpec("/logs/server.log.{1,2}", null).isGlob()).isTrue();
    assertThat(new SourceSpec("/logs/server.log", null).isGlob()).isFalse();
  }

  @Test
  void namesInstancesFixedByDirectoryOrByFileName() {
    SourceSpec spec = new SourceSpec("/logs/*/*.log", null);

    assertThat(spec.instanceOf("/logs/gpu0/vllm-a.log.1", InstanceNaming.FIXED, "default"))
        .isEqualTo("default");
    assertThat(spec.instanceOf("/logs/gpu0/vllm-a.log.1", InstanceNaming.DIR, "default"))
        .isEqualTo("gpu0");
    assertThat(spec.instanceOf("/logs/gpu0/vllm-a.log.1", InstanceNaming.FILE, "default"))
        .isEqualTo("vllm-a");
    assertThat(
            new SourceSpec("/logs/a.log", "named")
                .instanceOf("/logs/a.log", InstanceNaming.DIR, "default"))
        .isEqualTo("named");
  }

  @Test
  void matchesGlobsAgainstRegularFilesOnly() throws IOException {
    Files.createDirectories(dir.resolve("gpu0"));
    Files.createDirectories(dir.resolve("gpu1/deep"));
    Files.createDirectories(dir.resolve("dir.log"));
    Files.writeString(dir.resolve("gpu0/server.log"), "");
    Files.writeString(dir.resolve("gpu1/server.log"), "");
    Files.writeString(dir.resolve("gpu1/deep/server.log"), "");
    Files.writeString(dir.resolve("gpu1/other.txt"), "");

    assertThat(new SourceSpec(dir + "/*/server.log", null).files())
        .containsExactly(dir + "/gpu0/server.log", dir + "/gpu1/server.log");
    assertThat(new SourceSpec(dir + "/**/server.log", null).files())
        .containsExactly(
            dir + "/gpu0/server.log", dir + "/gpu1/deep/server.log", dir + "/gpu1/server.log");
    assertThat(new SourceSpec(dir + "/*.log", null).files()).isEmpty();
    assertThat(new SourceSpec(dir + "/gpu0/server.log", null).files())
        .containsExactly(dir + "/gpu0/server.log");
    assertThat(new SourceSpec(dir + "/*/server.log", null).matches(dir + "/gpu7/server.log"))
        .isTrue();
  }

  @Test
  void refusesAnInstanceNameThatCannotBeOne() {
    assertThatThrownBy(() -> new SourceSpec("/a.log", "has space"))
        .hasMessageContaining("instance name must be");
    assertThatThrownBy(() -> new SourceSpec(" ", null)).hasMessage("pattern is blank");
  }
}

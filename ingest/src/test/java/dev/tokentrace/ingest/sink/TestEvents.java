package dev.tokentrace.ingest.sink;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.GpuProcess;
import dev.tokentrace.event.GpuSample;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.Phase;
import dev.tokentrace.event.ProxyRequest;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.ServerConfig;
import dev.tokentrace.event.ServerHistogram;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Events of all thirteen types with every nullable field null in some of them, built from an index.
 * Timestamps have millisecond precision because that is what the JSON on the topic carries.
 */
final class TestEvents {
  static final Instant BASE = Instant.parse("2026-02-13T11:33:33.000Z");
  static final int TYPES = 13;

  private TestEvents() {}

  static List<EngineEvent> mixed(String path, int count) {
    List<EngineEvent> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      events.add(event(path, i));
    }
    return events;
  }

  /** Event {@code i}: type {@code i % 13}, line {@code i + 1}, offset {@code 100 i}. */
  static EngineEvent event(String path, int i) {
    Engine engine = Engine.values()[i % 3];
    String instance = "inst-" + (i % 2);
    Instant ts = i % 5 == 0 ? null : BASE.plusMillis(1_234L * i);
    SourcePosition source = new SourcePosition(path, i + 1, 100L * i);
    String key = "req-" + i;
    switch (i % TYPES) {
      case 0:
        return new RequestArrived(
            engine,
            instance,
            ts,
            source,
            "chatcmpl-" + key,
            key,
            nullEvery(3, i, i),
            nullEvery(4, i, 2 * i));
      case 1:
        return new RequestTiming(
            engine,
            instance,
            ts,
            source,
            "cmpl-" + key + "-0",
            key,
            (i / TYPES) % 2 == 1 ? null : BASE.minusMillis(i),
            decimal(2, i, 0.25),
            decimal(3, i, 10.5),
            decimal(4, i, 100.125),
            decimal(5, i, -0.5),
            decimal(6, i, 1234.75),
            nullEvery(3, i, i),
            nullEvery(4, i, i + 1),
            nullEvery(5, i, 0),
            i % 2 == 0 ? null : "stop",
            "otlp");
      case 2:
        return new RequestFinished(
            engine,
            instance,
            ts,
            source,
            key,
            key,
            nullEvery(3, i, i),
            i % 2 == 0 ? "length" : null);
      case 3:
        return new RequestAborted(
            engine, instance, ts, source, key, key, i % 2 == 0 ? null : "client disconnected");
      case 4:
        return new EngineStats(
            engine,
            instance,
            ts,
            source,
            i % 2 == 0 ? null : "Engine 00" + (i % 4),
            decimal(3, i, 10),
            decimal(4, i, 612.4),
            decimal(5, i, 95),
            nullEvery(3, i, i % 17),
            nullEvery(4, i, i % 5),
            nullEvery(2, i, 0),
            decimal(6, i, 42.5),
            decimal(7, i, -1.5),
            nullEvery(3, i, 1));
      case 5:
        return new BatchStep(
            engine,
            instance,
            ts,
            source,
            i % 2 == 0 ? null : "DP0 TP1",
            i % 3 == 0 ? null : (1L << 40) + i,
            Phase.values()[i % 3],
            nullEvery(2, i, 8),
            nullEvery(3, i, 2),
            nullEvery(4, i, 512),
            nullEvery(5, i, 128),
            nullEvery(6, i, 3),
            decimal(2, i, 0.75),
            decimal(3, i, 1800.5),
            decimal(4, i, 23.25),
            i % 2 == 0,
            nullEvery(5, i, 4),
            nullEvery(6, i, 12));
      case 6:
        return new ServerConfig(
            engine,
            instance,
            ts,
            source,
            i % 2 == 0 ? "args" : "engine_config",
            i % 2 == 0 ? "max_num_seqs" : "model",
            "v-" + i);
      case 7:
        return new GpuSample(
            Engine.GPU,
            instance,
            ts,
            source,
            i % 2 == 0 ? "dcgm" : "query-gpu",
            i % 3 == 0 ? null : "host-" + i,
            nullEvery(2, i, i % 8),
            i % 4 == 0 ? null : "GPU-" + i,
            decimal(2, i, 50.5),
            decimal(3, i, 20),
            decimal(4, i, 1024),
            decimal(5, i, 81920),
            decimal(6, i, 300.25),
            decimal(2, i, 1410),
            decimal(3, i, -5),
            decimal(4, i, 0.5),
            i % 2 == 0 ? "power.draw=[N/A]" : null);
      case 8:
        return new GpuProcess(
            Engine.GPU,
            instance,
            ts,
            source,
            i % 2 == 0 ? "pmon" : "compute-apps",
            nullEvery(2, i, i % 8),
            i % 3 == 0 ? null : "GPU-" + i,
            1000L + i,
            i % 4 == 0 ? null : "python3",
            i % 2 == 0 ? "C" : null,
            decimal(3, i, 2048),
            decimal(4, i, 30),
            decimal(5, i, 10));
      case 9:
        return new ServerHistogram(
            engine,
            instance,
            ts,
            source,
            i % 2 == 0 ? "ttft" : "e2e",
            i % 2 == 0 ? "vllm:time_to_first_token_seconds" : "sglang:e2e_request_latency_seconds",
            decimal(2, i, 1),
            (long) i,
            decimal(3, i, 1500.5),
            decimal(4, i, 100),
            decimal(5, i, 200),
            decimal(6, i, 300),
            "0.1:" + i + ",+Inf:" + (2 * i));
      case 10:
        return new KvTransfer(
            engine,
            instance,
            ts,
            source,
            i % 2 == 0 ? "chatcmpl-" + key : null,
            i % 2 == 0 ? key : null,
            i % 3 == 0 ? "prefill" : "decode",
            i % 4 == 0 ? null : "peer-" + i,
            decimal(2, i, 10),
            i % 2 == 0 ? 1L : (long) i,
            decimal(3, i, 12.5),
            decimal(4, i, 20),
            decimal(5, i, 64),
            decimal(6, i, 5000),
            i % 4 == 0 ? null : (long) (i % 3),
            i % 5 == 0 ? null : (long) (i % 2),
            KvTransfer.NIXL_INTERVAL);
      case 11:
        return new ProxyRequest(
            engine,
            instance,
            ts,
            source,
            "client-" + key,
            "client-" + key,
            "proxy-" + key,
            key,
            i % 2 == 0 ? null : "prefill-" + (i % 3),
            i % 3 == 0 ? null : "decode-" + (i % 2),
            i % 4 == 0 ? null : 200);
      default:
        return new ServerNotice(
            engine,
            instance,
            ts,
            source,
            i % 2 == 0 ? "WARNING" : "ERROR",
            ServerNotice.Kind.values()[i % ServerNotice.Kind.values().length],
            "preempted 'req-" + i + "' \"quoted\" é ✓");
    }
  }

  private static @Nullable Integer nullEvery(int every, int i, int value) {
    return i % every == 0 ? null : value;
  }

  private static @Nullable Double decimal(int every, int i, double base) {
    return i % every == 0 ? null : base + i;
  }
}

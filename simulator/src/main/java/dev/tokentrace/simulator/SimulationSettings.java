package dev.tokentrace.simulator;

import static java.util.Objects.requireNonNull;

/** Everything the model needs; the output side (engine, format, clock) is not part of it. */
public record SimulationSettings(
    long seed,
    WorkloadSettings workload,
    ServerSettings server,
    NetworkSettings network,
    ClientSettings client,
    GpuSettings gpu) {
  public SimulationSettings {
    requireNonNull(gpu, "gpu is null");
    requireNonNull(workload, "workload is null");
    requireNonNull(server, "server is null");
    requireNonNull(network, "network is null");
    requireNonNull(client, "client is null");
    long largestRequest = workload.maxModelLen() + (long) server.blockSize();
    Checks.check(
        server.kvCapacityTokens() >= largestRequest,
        "kvCapacityTokens ("
            + server.kvCapacityTokens()
            + ") must hold one request of maxModelLen ("
            + workload.maxModelLen()
            + ") plus a block");
  }

  /** Without GPU telemetry or a co-tenant. */
  public SimulationSettings(
      long seed,
      WorkloadSettings workload,
      ServerSettings server,
      NetworkSettings network,
      ClientSettings client) {
    this(seed, workload, server, network, client, GpuSettings.NONE);
  }
}

package dev.tokentrace.simulator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The server: an FCFS waiting queue, the running set, the KV cache in blocks, and how one step's
 * batch is formed and applied. Follows vLLM V1's scheduler (running requests first, then waiting
 * ones in order; when a running request needs a KV block and none is free, the newest running
 * request is preempted and recomputed later; no admissions in a step that preempted), with the
 * SGLang / vLLM V0 variant where prefill steps run alone. Not thread-safe.
 *
 * <p>Longer than the house target because batch formation, KV accounting and the per-token update
 * share the hot loop of every run; splitting them would put an indirection in it.
 */
final class Scheduler implements ServerView {
  /** What the scheduler tells the simulation while it works. */
  interface Listener {
    void preempted(Attempt attempt);

    void finished(Attempt attempt);
  }

  private final ServerSettings settings;
  private final Listener listener;
  private final SplittableRandom jitter;
  private final long warmupExtraUs;
  private final int prefillBudget;
  private final long capacityBlocks;
  private final boolean recordTokens;
  private final int blockSize;
  private final GpuSettings gpu;
  private final List<Attempt> finishing = new ArrayList<>();
  private final Network network;
  private final ArrayDeque<Attempt> waiting = new ArrayDeque<>();
  private final List<Attempt> running = new ArrayList<>();
  private final Step step = new Step();
  private long nowUs;
  private long usedBlocks;
  private long usedTokens;
  private long allocatedBlocks;
  private int decoding;
  private boolean prefixCached;
  private long promptComputed;
  private long promptAdmitted;
  private long promptCached;
  private long generation;
  private long preemptions;
  private long arrivals;
  private long finishedRequests;

  Scheduler(
      SimulationSettings settings, Listener listener, SplittableRandom jitter, Network network) {
    this.network = network;
    this.settings = settings.server();
    this.listener = listener;
    this.jitter = jitter;
    this.warmupExtraUs = Math.round(settings.workload().warmupExtraMs() * 1000);
    // without chunked prefill a whole prompt must fit one step (vLLM V0 requires
    // max_num_batched_tokens >= max_model_len; SGLang then never splits a prompt)
    this.prefillBudget =
        this.settings.chunkedPrefill()
            ? this.settings.maxBatchedTokens()
            : Math.max(this.settings.maxBatchedTokens(), settings.workload().maxModelLen());
    this.capacityBlocks = this.settings.kvCapacityTokens() / this.settings.blockSize();
    this.recordTokens = settings.client().recordTokenTimes();
    this.blockSize = this.settings.blockSize();
    this.gpu = settings.gpu();
  }

  void now(long nowUs) {
    this.nowUs = nowUs;
  }

  void arrive(Attempt attempt) {
    attempt.serverSeq = arrivals++;
    attempt.inServer = true;
    waiting.addLast(attempt);
  }

  boolean hasWork() {
    return !waiting.isEmpty() || !running.isEmpty();
  }

  /** Forms the next batch at {@code nowUs}; its end time is set. Null when nothing can run. */
  Step schedule() {
    step.reset(nowUs);
    if (settings.mixedBatches()) {
      int budget = scheduleRunning(prefillBudget, true);
      if (step.preempted == 0) {
        admitWaiting(budget);
      }
    } else {
      int budget = scheduleRunning(prefillBudget, false);
      admitWaiting(budget);
      if (step.size == 0) {
        scheduleRunning(Integer.MAX_VALUE, true);
      }
    }
    if (step.size == 0) {
      return null;
    }
    step.endUs = nowUs + durationUs();
    return step;
  }

  /** Running requests in order: prefill chunks always, decodes only when {@code decodes}. */
  private int scheduleRunning(int budget, boolean decodes) {
    for (int i = 0; i < running.size() && budget > 0; i++) {
      Attempt attempt = running.get(i);
      boolean prefill = attempt.inPrefill();
      if (!prefill && !decodes) {
        continue;
      }
      int tokens = prefill ? Math.min(attempt.prefillTarget - attempt.computed, budget) : 1;
      // a decode needs a new block only when its last block is full (blocks == ceil(computed/bs))
      boolean needsBlocks = prefill || attempt.computed == attempt.blocks * blockSize;
      if (needsBlocks && !reserve(attempt, tokens)) {
        break; // the attempt preempted itself: everything after it is gone too
      }
      add(attempt, tokens, prefill);
      budget -= tokens;
    }
    return budget;
  }

  private void admitWaiting(int budget) {
    while (!waiting.isEmpty() && budget > 0 && running.size() < settings.maxBatch()) {
      Attempt attempt = waiting.peekFirst();
      int start = attempt.computed == 0 ? cachedPrefix(attempt) : attempt.computed;
      int remaining = attempt.prefillTarget - start;
      int tokens = Math.min(remaining, budget);
      if (tokens < remaining && !settings.chunkedPrefill()) {
        break;
      }
      if (blocksFor(start + tokens) - attempt.blocks > freeBlocks() - watermarkBlocks()) {
        break;
      }
      waiting.pollFirst();
      running.add(attempt);
      admit(attempt, start);
      reserve(attempt, tokens);
      add(attempt, tokens, true);
      budget -= tokens;
    }
  }

  /** Prompt tokens the prefix cache serves for this attempt. */
  private int cachedPrefix(Attempt attempt) {
    if (settings.prefixCaching() && prefixCached && settings.sharedPrefixTokens() > 0) {
      return Math.min(settings.sharedPrefixTokens(), attempt.promptTokens - 1);
    }
    return 0;
  }

  private void admit(Attempt attempt, int cached) {
    if (attempt.computed == 0 && cached > 0) {
      attempt.computed = cached;
      usedTokens += cached;
    }
    if (attempt.cachedTokens < 0) {
      attempt.cachedTokens = cached;
      promptCached += cached;
      promptAdmitted += attempt.promptTokens;
    }
    if (attempt.firstScheduledUs < 0) {
      attempt.firstScheduledUs = nowUs;
      attempt.firstStep = step.index;
      step.newRequests++;
      step.newRequestsQueueUs += nowUs - attempt.serverArrivalUs;
      step.warmup |= attempt.warmup;
    }
  }

  private void add(Attempt attempt, int tokens, boolean prefill) {
    attempt.stepTokens = tokens;
    attempt.stepPrefill = prefill;
    step.add(attempt);
    step.contextRead += attempt.computed + tokens;
    if (prefill) {
      step.contextRequests++;
      step.contextTokens += tokens;
      step.cachedTokens += attempt.computed;
    } else {
      step.generationRequests++;
    }
  }

  /**
   * Allocates blocks so the attempt holds {@code tokens} more; preempts from the tail if needed.
   */
  private boolean reserve(Attempt attempt, int tokens) {
    long needed = blocksFor(attempt.computed + tokens) - attempt.blocks;
    while (needed > freeBlocks()) {
      Attempt victim = running.get(running.size() - 1);
      preempt(victim);
      if (victim == attempt) {
        return false;
      }
    }
    attempt.blocks += needed;
    usedBlocks += needed;
    allocatedBlocks += needed;
    return true;
  }

  private void preempt(Attempt victim) {
    running.remove(running.size() - 1);
    if (!victim.inPrefill()) {
      decoding--;
    }
    release(victim);
    // recompute: prompt and every generated token are prefilled again (vLLM V1 resets
    // num_computed_tokens; docs/formats/vllm.md#request-timing-internals: prefill_time includes
    // preemptions)
    victim.prefillTarget = victim.promptTokens + victim.generated;
    victim.computed = 0;
    victim.preemptions++;
    preemptions++;
    step.preempted++;
    waiting.addFirst(victim);
    listener.preempted(victim);
  }

  private void release(Attempt attempt) {
    usedBlocks -= attempt.blocks;
    usedTokens -= attempt.computed;
    attempt.blocks = 0;
  }

  private long durationUs() {
    double ms =
        settings.stepBaseMs()
            + settings.stepPerSeqMs() * step.size
            + settings.stepPerKvKtokenMs() * step.contextRead / 1000.0
            + settings.prefillPerTokenMs() * step.contextTokens;
    ms *= 1 + settings.stepJitter() * (2 * jitter.nextDouble() - 1);
    if (gpu.contended(nowUs)) {
      ms *= gpu.slowdown(); // a co-tenant shares the GPU: the step runs that much slower
    }
    long us = Math.max(1, Math.round(ms * 1000));
    return step.warmup ? us + warmupExtraUs : us;
  }

  /** Applies the step's results at its end time; calls the listener for finished requests. */
  void complete(Step done) {
    int finished = 0;
    for (int i = 0; i < done.size; i++) {
      Attempt attempt = done.batch[i];
      attempt.computed += attempt.stepTokens;
      usedTokens += attempt.stepTokens;
      if (attempt.stepPrefill) {
        promptComputed += attempt.stepTokens;
        if (attempt.inPrefill()) {
          continue; // a chunk: no token yet
        }
        decoding++;
        if (attempt.computed >= settings.sharedPrefixTokens()) {
          prefixCached = true;
        }
      }
      token(attempt, done);
      if (attempt.generated >= attempt.outputTokens) {
        finished++;
      }
    }
    if (finished > 0) {
      removeFinished(done);
    }
  }

  private void token(Attempt attempt, Step done) {
    attempt.generated++;
    generation++;
    attempt.lastTokenUs = done.endUs;
    attempt.lastStep = done.index;
    if (attempt.firstTokenUs < 0) {
      attempt.firstTokenUs = done.endUs;
    }
    // when the token reaches the client: one TCP stream, so never before the previous one
    long arrivalUs =
        Math.max(attempt.clientLastTokenUs, done.endUs + network.downlinkUs(attempt, done.endUs));
    attempt.clientLastTokenUs = arrivalUs;
    if (attempt.clientFirstTokenUs < 0) {
      attempt.clientFirstTokenUs = arrivalUs;
    }
    if (recordTokens) {
      attempt.recordToken(arrivalUs);
    }
  }

  /** Removes finished requests from the running set (keeping its order), then reports them. */
  private void removeFinished(Step done) {
    int kept = 0;
    int size = running.size();
    for (int i = 0; i < size; i++) {
      Attempt attempt = running.get(i);
      if (attempt.generated < attempt.outputTokens) {
        running.set(kept++, attempt);
      } else {
        finishing.add(attempt);
      }
    }
    running.subList(kept, size).clear();
    for (Attempt attempt : finishing) {
      release(attempt);
      decoding--;
      attempt.inServer = false;
      attempt.serverEndUs = done.endUs;
      finishedRequests++;
      done.finished++;
    }
    for (Attempt attempt : finishing) {
      listener.finished(attempt);
    }
    finishing.clear();
  }

  /** Drops an attempt whose client went away; false when it is no longer on the server. */
  boolean abort(Attempt attempt) {
    if (!attempt.inServer) {
      return false;
    }
    if (!waiting.remove(attempt)) {
      running.remove(attempt);
      if (!attempt.inPrefill()) {
        decoding--;
      }
    }
    release(attempt);
    attempt.inServer = false;
    attempt.serverAborted = true;
    attempt.serverEndUs = nowUs;
    return true;
  }

  /**
   * Blocks kept free when admitting: one decode step's worth for the running requests, at least 1%
   * of the cache (vLLM V0's watermark), so a new request does not force a preemption at once.
   */
  private long watermarkBlocks() {
    return running.isEmpty() ? 0 : Math.max(running.size(), capacityBlocks / 100);
  }

  private long blocksFor(long tokens) {
    return (tokens + settings.blockSize() - 1) / settings.blockSize();
  }

  private long freeBlocks() {
    return capacityBlocks - usedBlocks;
  }

  @Override
  public long nowUs() {
    return nowUs;
  }

  @Override
  public int running() {
    return running.size();
  }

  @Override
  public int decoding() {
    return decoding;
  }

  @Override
  public int waiting() {
    return waiting.size();
  }

  @Override
  public long kvUsedTokens() {
    return usedTokens;
  }

  @Override
  public long kvUsedBlocks() {
    return usedBlocks;
  }

  @Override
  public long kvCapacityBlocks() {
    return capacityBlocks;
  }

  @Override
  public long kvBlocksAllocated() {
    return allocatedBlocks;
  }

  @Override
  public int blockSize() {
    return settings.blockSize();
  }

  @Override
  public long promptTokensComputed() {
    return promptComputed;
  }

  @Override
  public long promptTokensAdmitted() {
    return promptAdmitted;
  }

  @Override
  public long promptTokensCached() {
    return promptCached;
  }

  @Override
  public long generationTokens() {
    return generation;
  }

  @Override
  public long preemptions() {
    return preemptions;
  }

  @Override
  public long arrivals() {
    return arrivals;
  }

  @Override
  public long finishedRequests() {
    return finishedRequests;
  }

  @Override
  public long steps() {
    return step.index + 1;
  }
}

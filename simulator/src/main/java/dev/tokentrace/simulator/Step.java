package dev.tokentrace.simulator;

import java.util.Arrays;

/** The one reusable step record; {@link Scheduler} fills it, observers read it. Not thread-safe. */
final class Step implements StepView {
  /** The batch in scheduling order: {@code batch[0 .. size)}. */
  Attempt[] batch = new Attempt[64];

  int size;
  long index = -1;
  long startUs;
  long endUs;
  int contextRequests;
  int contextTokens;
  int generationRequests;
  int newRequests;
  long newRequestsQueueUs;
  int cachedTokens;
  int preempted;
  int finished;
  boolean warmup;

  /** Context tokens read by attention this step: each scheduled request's length after it. */
  long contextRead;

  void reset(long startUs) {
    Arrays.fill(batch, 0, size, null);
    size = 0;
    index++;
    this.startUs = startUs;
    endUs = startUs;
    contextRequests = 0;
    contextTokens = 0;
    generationRequests = 0;
    newRequests = 0;
    newRequestsQueueUs = 0;
    cachedTokens = 0;
    preempted = 0;
    finished = 0;
    warmup = false;
    contextRead = 0;
  }

  void add(Attempt attempt) {
    if (size == batch.length) {
      batch = Arrays.copyOf(batch, size * 2);
    }
    batch[size++] = attempt;
  }

  @Override
  public long index() {
    return index;
  }

  @Override
  public long startUs() {
    return startUs;
  }

  @Override
  public long endUs() {
    return endUs;
  }

  @Override
  public int contextRequests() {
    return contextRequests;
  }

  @Override
  public int contextTokens() {
    return contextTokens;
  }

  @Override
  public int generationRequests() {
    return generationRequests;
  }

  @Override
  public int newRequests() {
    return newRequests;
  }

  @Override
  public long newRequestsQueueUs() {
    return newRequestsQueueUs;
  }

  @Override
  public int cachedTokens() {
    return cachedTokens;
  }

  @Override
  public int preempted() {
    return preempted;
  }

  @Override
  public int finished() {
    return finished;
  }

  @Override
  public boolean warmup() {
    return warmup;
  }
}

package dev.tokentrace.exporter;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.registry.PrometheusScrapeRequest;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A registry whose scrape never sees half of a poll: the exporter applies a poll's observations
 * under {@link #writeLock()}, and a scrape reads under the read lock, so a scrape holds either all
 * of a poll's requests or none of them (docs/live.md#one-observation-per-request).
 */
final class ConsistentRegistry extends PrometheusRegistry {
  private final ReadWriteLock lock = new ReentrantReadWriteLock();

  java.util.concurrent.locks.Lock writeLock() {
    return lock.writeLock();
  }

  @Override
  public MetricSnapshots scrape() {
    lock.readLock().lock();
    try {
      return super.scrape();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public MetricSnapshots scrape(@Nullable PrometheusScrapeRequest request) {
    lock.readLock().lock();
    try {
      return super.scrape(request);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public MetricSnapshots scrape(@Nullable Predicate<String> includedNames) {
    lock.readLock().lock();
    try {
      return super.scrape(includedNames);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public MetricSnapshots scrape(
      @Nullable Predicate<String> includedNames, @Nullable PrometheusScrapeRequest request) {
    lock.readLock().lock();
    try {
      return super.scrape(includedNames, request);
    } finally {
      lock.readLock().unlock();
    }
  }
}

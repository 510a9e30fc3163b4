package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.StepView;
import java.util.List;

/** Passes every fact to each observer (writer, live endpoint) in order. */
public final class FanOut implements SimObserver {
  private final SimObserver[] observers;

  public FanOut(List<SimObserver> observers) {
    this.observers = observers.toArray(new SimObserver[0]);
  }

  @Override
  public void advance(long nowUs, ServerView server) {
    for (SimObserver observer : observers) {
      observer.advance(nowUs, server);
    }
  }

  @Override
  public void phaseStarted(int phase, int concurrency, long nowUs) {
    for (SimObserver observer : observers) {
      observer.phaseStarted(phase, concurrency, nowUs);
    }
  }

  @Override
  public void serverArrival(RequestView request, ServerView server) {
    for (SimObserver observer : observers) {
      observer.serverArrival(request, server);
    }
  }

  @Override
  public void stepStarted(StepView step, ServerView server) {
    for (SimObserver observer : observers) {
      observer.stepStarted(step, server);
    }
  }

  @Override
  public void preempted(RequestView request, ServerView server) {
    for (SimObserver observer : observers) {
      observer.preempted(request, server);
    }
  }

  @Override
  public void serverFinished(RequestView request, ServerView server) {
    for (SimObserver observer : observers) {
      observer.serverFinished(request, server);
    }
  }

  @Override
  public void stepFinished(StepView step, ServerView server) {
    for (SimObserver observer : observers) {
      observer.stepFinished(step, server);
    }
  }

  @Override
  public void serverAborted(RequestView request, ServerView server) {
    for (SimObserver observer : observers) {
      observer.serverAborted(request, server);
    }
  }

  @Override
  public void clientDone(RequestView request) {
    for (SimObserver observer : observers) {
      observer.clientDone(request);
    }
  }

  @Override
  public void finished(ServerView server) {
    for (SimObserver observer : observers) {
      observer.finished(server);
    }
  }
}

package dev.loadprof.perfdata.reader;

import dev.loadprof.model.Failures;
import dev.loadprof.model.TraceEventSink;
import dev.loadprof.perfdata.symbols.Symbolizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The samples of one read decoded on a pool of threads. One thread (the producer) takes the
 * records in perf's order, keeps the state they change (thread names, memory maps) and hands
 * each sample on with the state in effect at its place ({@link #samples}); every other event it
 * sends to {@link #events}. Both go into batches of consecutive events, decoded on the pool; the
 * thread that calls {@link #deliver} sends the batches' events to the real sink in the order the
 * producer made them, so the sink sees exactly what a read on one thread sends it. A few batches
 * are in flight at a time: a slow sink holds the producer back.
 */
final class ParallelSamples implements AutoCloseable {
  /** What the producer runs: the whole read of the records. */
  interface Producer {
    void run() throws IOException;
  }

  static final int BATCH_EVENTS = 2048;
  private static final Future<List<EventLog.Event>> END = CompletableFuture.completedFuture(null);

  private record PendingSample(byte[] record, long offset, String comm, Symbolizer.View maps) {}

  /** Thrown through the producer's callbacks when the read is stopped. */
  private static final class Stopped extends RuntimeException {
    Stopped() {
      super(null, null, false, false);
    }
  }

  private final ExecutorService pool;
  private final ThreadLocal<SampleDecoder> decoders;
  private final BlockingQueue<Future<List<EventLog.Event>>> queue;
  private final EventLog events = new EventLog(this::add);
  private final RecordDispatcher.Samples samples =
      (record, offset, comm, maps) -> add(new PendingSample(record, offset, comm, maps));
  private final int batchEvents;
  private List<Object> batch;

  /**
   * {@code threads} decoders, each made by {@code decoder} on its own thread, given batches of
   * {@code batchEvents} events.
   */
  ParallelSamples(int threads, int batchEvents, Supplier<SampleDecoder> decoder) {
    this.batchEvents = batchEvents;
    this.batch = new ArrayList<>(batchEvents);
    AtomicInteger n = new AtomicInteger();
    this.pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "loadprof-perfdata-decode-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.decoders = ThreadLocal.withInitial(decoder);
    this.queue = new ArrayBlockingQueue<>(2 * threads + 2);
  }

  /** Where the producer sends the events of all records but samples. */
  TraceEventSink events() {
    return events;
  }

  /** Where the producer sends samples, with their thread's name and process's maps. */
  RecordDispatcher.Samples samples() {
    return samples;
  }

  private void add(Object item) {
    batch.add(item);
    if (batch.size() >= batchEvents) {
      submit();
    }
  }

  private void submit() {
    if (batch.isEmpty()) {
      return;
    }
    List<Object> items = batch;
    batch = new ArrayList<>(batchEvents);
    put(pool.submit(() -> decode(items)));
  }

  private void put(Future<List<EventLog.Event>> decoded) {
    try {
      queue.put(decoded);
    } catch (InterruptedException e) {
      throw new Stopped();
    }
  }

  private List<EventLog.Event> decode(List<Object> items) {
    List<EventLog.Event> out = new ArrayList<>(items.size());
    EventLog log = new EventLog(e -> out.add((EventLog.Event) e));
    SampleDecoder decoder = decoders.get();
    for (Object item : items) {
      if (item instanceof PendingSample p) {
        decoder.decode(p.record(), p.offset(), p.comm(), p.maps(), log);
      } else {
        out.add((EventLog.Event) item);
      }
    }
    return out;
  }

  /** Runs the producer on this thread; what it sends ends with the end of {@link #deliver}. */
  void produce(Producer producer) {
    try {
      producer.run();
      submit();
      put(END);
    } catch (Stopped e) {
      // the deliverer gave up: nobody reads any more
    } catch (Throwable e) {
      try {
        put(CompletableFuture.failedFuture(e));
      } catch (Stopped stopped) {
        // nobody reads any more
      }
    }
  }

  /**
   * Sends every event to {@code sink} in the producer's order, until the producer has ended;
   * throws what the producer or a decoder threw.
   */
  void deliver(TraceEventSink sink) throws IOException {
    try {
      for (Future<List<EventLog.Event>> next; (next = queue.take()) != END; ) {
        if (next instanceof FutureTask<?> task) {
          task.run(); // a batch no decoder has begun yet: decoded here rather than waited for
        }
        for (EventLog.Event event : next.get()) {
          event.accept(sink);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading a perf.data file", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      throw Failures.asIOException(cause);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}

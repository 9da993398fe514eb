package dev.loadprof.stores;

import java.io.PrintStream;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import dev.loadprof.progress.StoreOutages;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * How long a job waits for an S3 store, and what it says meanwhile. A request is sent at most
 * {@link #TRIES} times; each try is given up after {@link #silence()} without an answer (20 s,
 * or $LOADPROF_STORE_SILENCE_S; a connection within 5 s), so a store that stops answering fails
 * the request after about a minute, and the job with it, in one line that names the store and
 * the object. From then on every request to that store fails at once, so that a job's other
 * requests (checks, listings, cleanup) do not each wait their minute too: one hung job waited 12
 * minutes in silence before "Read timed out". A request still without an answer after 3/4 of a
 * try's limit says so once ("waiting for s3://..."), on stderr: the CLI's console when the job
 * runs in its JVM, the TaskManagers' logs on a cluster.
 */
final class StoreWait implements ExecutionInterceptor {
  static final String SILENCE_VARIABLE = "LOADPROF_STORE_SILENCE_S";
  static final int TRIES = 3;
  private static final Duration CONNECT = Duration.ofSeconds(5);

  private static final ExecutionAttribute<Long> REQUEST =
      new ExecutionAttribute<>("loadprof.request");
  private static final AtomicLong REQUESTS = new AtomicLong();
  /** Requests whose try has no answer yet, by request. */
  private static final Map<Long, Waiting> WAITING = new ConcurrentHashMap<>();
  private static final AtomicBoolean WATCHING = new AtomicBoolean();

  /** A request's try under way: its object, its store, since when, and whether it was said. */
  private record Waiting(String object, String store, long sinceNs, AtomicBoolean said) {}

  private final String store;
  private final LongSupplier clock;
  private final PrintStream err;

  /** @param endpoint the store's address, or null for AWS's own */
  StoreWait(URI endpoint) {
    this(endpoint, System::nanoTime, System.err);
  }

  StoreWait(URI endpoint, LongSupplier clock, PrintStream err) {
    this.store = endpoint == null ? "S3" : "the S3 store at " + endpoint;
    this.clock = clock;
    this.err = err;
  }

  /** How long a try waits without an answer: $LOADPROF_STORE_SILENCE_S, else 20 s. */
  static Duration silence() {
    return silence(System.getenv(SILENCE_VARIABLE));
  }

  static Duration silence(String seconds) {
    try {
      int s = seconds == null || seconds.isBlank() ? 20 : Integer.parseInt(seconds.trim());
      return Duration.ofSeconds(Math.max(1, s));
    } catch (NumberFormatException e) {
      return Duration.ofSeconds(20);
    }
  }

  static Duration connect() {
    return silence().compareTo(CONNECT) < 0 ? silence() : CONNECT;
  }

  /** A request still without an answer this long is said to wait. */
  static Duration notice() {
    return silence().multipliedBy(3).dividedBy(4);
  }

  /** The object a request is for: s3://BUCKET/KEY, s3://BUCKET/PREFIX, or the request's kind. */
  static String object(SdkRequest request) {
    String bucket = request.getValueForField("Bucket", String.class).orElse(null);
    String key = request.getValueForField("Key", String.class)
        .or(() -> request.getValueForField("Prefix", String.class)).orElse("");
    return bucket == null ? request.getClass().getSimpleName()
        : "s3://" + bucket + (key.isEmpty() ? "" : "/" + key);
  }

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    String why = StoreOutages.whyGivenUp(store);
    if (why != null) {
      throw new StoreSilent(object(context.request()) + ": " + why);
    }
    attributes.putAttribute(REQUEST, REQUESTS.incrementAndGet());
  }

  @Override
  public void beforeTransmission(Context.BeforeTransmission context,
      ExecutionAttributes attributes) {
    Long request = attributes.getAttribute(REQUEST);
    if (request == null) {
      return;
    }
    Waiting before = WAITING.get(request); // a retry: said once per request, not per try
    WAITING.put(request, new Waiting(object(context.request()), store, clock.getAsLong(),
        before == null ? new AtomicBoolean() : before.said()));
    if (WATCHING.compareAndSet(false, true)) {
      Thread watch = new Thread(() -> watch(clock, err), "loadprof-store-wait");
      watch.setDaemon(true);
      watch.start();
    }
  }

  @Override
  public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
    ended(attributes);
  }

  @Override
  public void onExecutionFailure(Context.FailedExecution context,
      ExecutionAttributes attributes) {
    ended(attributes);
  }

  private static void ended(ExecutionAttributes attributes) {
    Long request = attributes.getAttribute(REQUEST);
    if (request != null) {
      WAITING.remove(request);
    }
  }

  /**
   * A request that failed because the store did not answer: one line naming the store and the
   * object, not "Read timed out", and without its cause (which would be the line otherwise;
   * --debug prints it); and the store is given up for the rest of the job (StoreOutages).
   */
  @Override
  public Throwable modifyException(Context.FailedExecution context,
      ExecutionAttributes attributes) {
    Throwable failure = context.exception();
    if (!silent(failure)) {
      return failure;
    }
    String why = store + " did not answer (" + TRIES + " tries, each given up after "
        + silence().toSeconds() + " s without an answer or on a broken connection): check that"
        + " it is up and reachable from here (AWS_ENDPOINT_URL, the network), then run the job"
        + " again";
    StoreOutages.giveUp(store, object(context.request()) + ": " + why);
    StoreSilent said = new StoreSilent(object(context.request()) + ": " + why);
    said.addSuppressed(failure);
    return said;
  }

  /**
   * A timeout, a refused or broken connection, or a server that closed it without a response,
   * anywhere in the causes: the store did not answer.
   */
  static boolean silent(Throwable t) {
    for (int depth = 0; t != null && depth < 20; t = t.getCause(), depth++) {
      String name = t.getClass().getSimpleName();
      if (t instanceof SocketException || t instanceof SocketTimeoutException
          || name.equals("ConnectTimeoutException") || name.equals("NoHttpResponseException")) {
        return true;
      }
    }
    return false;
  }

  /** Says once of each request that has waited {@link #notice()} for its try's answer. */
  static void lookOnce(LongSupplier clock, PrintStream err) {
    long now = clock.getAsLong();
    for (Waiting w : WAITING.values()) {
      if (now - w.sinceNs() >= notice().toNanos() && w.said().compareAndSet(false, true)) {
        err.println("loadprof: waiting for " + w.object() + ": " + w.store() + " has not"
            + " answered for " + notice().toSeconds() + " s (a try is given up after "
            + silence().toSeconds() + " s without an answer, " + TRIES + " tries in all)");
      }
    }
  }

  private static void watch(LongSupplier clock, PrintStream err) {
    while (true) {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      }
      lookOnce(clock, err);
    }
  }

  /** For tests: forgets the requests under way and the stores given up. */
  static void forgetAll() {
    WAITING.clear();
    StoreOutages.reset();
  }

  /**
   * A request the store did not answer. Not one of the SDK's exceptions: the SDK and Beam pass
   * it on as it is (or as the cause of an IOException), and its message is the job's line.
   */
  static final class StoreSilent extends RuntimeException {
    StoreSilent(String message) {
      super(message, null, true, false);
    }
  }
}

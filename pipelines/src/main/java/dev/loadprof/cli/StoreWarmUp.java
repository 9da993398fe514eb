package dev.loadprof.cli;

import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A command that reads or writes S3 (or HDFS: the registry only) starts, on other threads, the
 * start-up work its first request waits for, while the command line is parsed and the inputs
 * checked: Beam's options registry (every PipelineOptions interface on the classpath checked,
 * ~0.85 s; of the store modules' alone for a job that may run in this JVM: {@link
 * BeamOptionsRegistry}), the JDK's trust store and TLS provider (the HTTP client makes its TLS
 * context even for an http:// endpoint), the HTTP client's public suffix list and the AWS SDK's
 * region metadata. Each is a class
 * initialization or a cache the JVM keeps, so the command gets exactly what it would have made
 * itself, only sooner (on S3 an analyze of a small archive started ~1.6 s later than on local
 * disk: bench/RESULTS.md section 38). Nothing here can fail a command: what fails is done again,
 * and said, by the code that needs it.
 */
final class StoreWarmUp {
  private StoreWarmUp() {}

  /**
   * Starts the warm-up when an argument names an S3 location (Beam's registry, TLS and the
   * AWS SDK) or an HDFS one (Beam's registry); else does nothing.
   */
  static void startFor(List<String> args) {
    boolean s3 = args.stream().anyMatch(a -> a.contains("s3://"));
    if (!s3 && args.stream().noneMatch(a -> a.contains("hdfs://"))) {
      return;
    }
    if (mayReadStoreHere(args)) {
      start("loadprof-warm-options", BeamOptionsRegistry::startSmall);
    } else {
      start("loadprof-warm-options", () -> initialize(
          "org.apache.beam.sdk.options.PipelineOptionsFactory"));
    }
    if (!s3) {
      return;
    }
    start("loadprof-warm-tls", () -> {
      TrustManagerFactory trust = TrustManagerFactory.getInstance(
          TrustManagerFactory.getDefaultAlgorithm());
      trust.init((KeyStore) null); // the default trust store, which the JDK then keeps
      SSLContext.getDefault(); // the TLS provider, its ciphers and the seeded random source
      initialize("software.amazon.awssdk.regions.GeneratedServiceMetadataProvider");
      initialize("software.amazon.awssdk.services.s3.DefaultS3ClientBuilder");
      initialize("software.amazon.awssdk.http.apache.ApacheHttpClient");
      // The public suffix list the HTTP client's TLS host check parses once and keeps.
      Class.forName("org.apache.http.conn.util.PublicSuffixMatcherLoader", true,
          StoreWarmUp.class.getClassLoader()).getMethod("getDefault").invoke(null);
    });
  }

  /**
   * Whether the command may be a job in this JVM that reads a store (analyze, compare or
   * nightly without --runner and with a local --out: {@link JobPlacement}), whose Beam options
   * need only the store modules' registry. A guess from the raw arguments: when the command
   * turns out to run on Beam, the registry is made whole before its options (a few tenths of a
   * second more, once).
   */
  static boolean mayReadStoreHere(List<String> args) {
    if (args.isEmpty() || !List.of("analyze", "compare", "nightly").contains(args.get(0))) {
      return false;
    }
    for (int i = 1; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--")) {
        break;
      }
      if (a.equals("--runner") || a.startsWith("--runner=")) {
        return false;
      }
      String out = a.equals("-o") || a.equals("--out")
          ? (i + 1 < args.size() ? args.get(i + 1) : "")
          : a.startsWith("--out=") ? a.substring("--out=".length())
          : a.startsWith("-o") && a.length() > 2 && !a.startsWith("--") ? a.substring(2) : "";
      if (out.contains("://")) {
        return false;
      }
    }
    return true;
  }

  private interface Step {
    void run() throws Exception;
  }

  private static void start(String name, Step step) {
    Thread t = new Thread(() -> {
      try {
        step.run();
      } catch (Exception | LinkageError e) {
        // only speed is at stake: the command meets the same problem and says it
      }
    }, name);
    t.setDaemon(true);
    t.start();
  }

  private static void initialize(String className) throws ClassNotFoundException {
    Class.forName(className, true, StoreWarmUp.class.getClassLoader());
  }
}

package dev.loadprof.cli;

import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A command that reads or writes S3 starts, on other threads, the start-up work its first
 * request waits for, while the command line is parsed and the inputs checked: Beam's options
 * registry (every PipelineOptions interface on the classpath checked, ~0.85 s), the JDK's trust
 * store and TLS provider (the HTTP client makes its TLS context even for an http:// endpoint),
 * the HTTP client's public suffix list and the AWS SDK's region metadata. Each is a class
 * initialization or a cache the JVM keeps, so the command gets exactly what it would have made
 * itself, only sooner (on S3 an analyze of a small archive started ~1.6 s later than on local
 * disk: bench/RESULTS.md section 38). Nothing here can fail a command: what fails is done again,
 * and said, by the code that needs it.
 */
final class StoreWarmUp {
  private StoreWarmUp() {}

  /** Starts the warm-up when an argument names an S3 location; else does nothing. */
  static void startFor(List<String> args) {
    if (args.stream().noneMatch(a -> a.contains("s3://"))) {
      return;
    }
    start("loadprof-warm-options", () -> initialize(
        "org.apache.beam.sdk.options.PipelineOptionsFactory"));
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

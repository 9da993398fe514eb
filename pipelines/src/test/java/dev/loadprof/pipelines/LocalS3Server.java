package dev.loadprof.pipelines;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Adobe S3Mock (stores/target/s3mock/s3mock.jar, resolved by Maven) as its own JVM: an
 * S3-compatible server for the store ITs, with one bucket. Chosen over s3rver because it answers
 * PutObject with If-None-Match: * by 412 when the key exists (S3's conditional write, which the
 * archive commits with), and comes from Maven, so CI needs no npm step.
 */
final class LocalS3Server implements AutoCloseable {
  static final String BUCKET = "loadprof";
  static final String ACCESS_KEY = "loadprof-it";
  static final String SECRET_KEY = "loadprof-it-secret";
  static final String REGION = "us-east-1";

  private final Process process;
  private final int port;

  private LocalS3Server(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static LocalS3Server start(Path dir) throws IOException, InterruptedException {
    Path jar = LocalFlinkCluster.HOME.resolve("stores/target/s3mock/s3mock.jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing; build with mvn -B install -pl stores -am");
    }
    int port = freePort();
    Files.createDirectories(dir);
    Path log = dir.resolve("s3mock.log");
    Process p = new ProcessBuilder("java", "-Xmx384m", "-jar", jar.toString(),
        "--server.port=0", "--server.address=127.0.0.1",
        "--com.adobe.testing.s3mock.httpPort=" + port,
        "--com.adobe.testing.s3mock.store.root=" + dir.resolve("data"),
        "--spring.main.banner-mode=off")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    LocalS3Server server = new LocalS3Server(p, port);
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (true) {
      if (!p.isAlive()) {
        throw new IllegalStateException("S3Mock exited; see " + log + ":\n" + Files.readString(log));
      }
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                URI.create(server.endpoint() + "/" + BUCKET))
            .PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200 || r.statusCode() == 409) {
          return server;
        }
      } catch (IOException e) {
        // not listening yet
      }
      if (System.nanoTime() > deadline) {
        p.destroyForcibly();
        throw new IllegalStateException("S3Mock did not answer within 3 min; see " + log);
      }
      Thread.sleep(500);
    }
  }

  String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** The standard AWS environment variables that reach this server, and nothing else. */
  Map<String, String> environment() {
    return Map.of("AWS_ENDPOINT_URL", endpoint(), "AWS_ACCESS_KEY_ID", ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY", SECRET_KEY, "AWS_REGION", REGION);
  }

  /** Beam arguments for a JVM that has no such environment (the test's own). */
  List<String> beamArgs() {
    return List.of("--endpoint=" + endpoint(), "--awsRegion=" + REGION,
        "--s3ClientFactoryClass=dev.loadprof.stores.PathStyleS3ClientBuilderFactory",
        "--awsCredentialsProvider={\"@type\": \"StaticCredentialsProvider\", \"accessKeyId\": \""
            + ACCESS_KEY + "\", \"secretAccessKey\": \"" + SECRET_KEY + "\"}");
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}

package dev.loadprof.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bench's S3 proxy: what it counts, the latency it adds, and bytes passed unchanged. */
class LatencyProxyTest {
  private HttpServer upstream;
  private LatencyProxy proxy;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .build();

  @BeforeEach
  void start() throws IOException {
    // The JDK's server sends headers and body apart: without this, Nagle's algorithm and the
    // client's delayed ACK add ~40 ms to some of its answers, which would blur the latency.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    upstream.createContext("/", exchange -> {
      byte[] in = exchange.getRequestBody().readAllBytes();
      String range = exchange.getRequestHeaders().getFirst("Range");
      String body = exchange.getRequestMethod() + " " + exchange.getRequestURI()
          + (range == null ? "" : " " + range) + " body=" + in.length;
      byte[] out = body.getBytes(StandardCharsets.UTF_8);
      if ("HEAD".equals(exchange.getRequestMethod())) {
        exchange.getResponseHeaders().set("Content-Length", "1234");
        exchange.sendResponseHeaders(200, -1);
      } else if (exchange.getRequestURI().getPath().endsWith("/chunked")) {
        exchange.sendResponseHeaders(200, 0); // chunked
        try (OutputStream o = exchange.getResponseBody()) {
          o.write(out);
          o.write(new byte[100_000]);
        }
        return;
      } else {
        exchange.sendResponseHeaders(200, out.length);
        exchange.getResponseBody().write(out);
      }
      exchange.close();
    });
    upstream.start();
    proxy = LatencyProxy.start(0, upstream.getAddress().getPort(), Duration.ofMillis(20));
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    upstream.stop(0);
  }

  private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder at(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path));
  }

  @Test
  void countsEachKindOfS3RequestAndPassesBytesUnchanged() throws Exception {
    assertEquals("GET /bucket/key body=0", send(at("/bucket/key")).body());
    assertEquals("GET /bucket/key bytes=5-9 body=0",
        send(at("/bucket/key").header("Range", "bytes=5-9")).body());
    send(at("/bucket?list-type=2&prefix=runs/"));
    send(at("/bucket/a/b?list-type=2")); // still a listing
    HttpResponse<String> head = send(at("/bucket/key")
        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    assertEquals("1234", head.headers().firstValue("content-length").orElse(""));
    assertEquals("PUT /bucket/key body=3",
        send(at("/bucket/key").PUT(HttpRequest.BodyPublishers.ofString("abc"))).body());
    send(at("/bucket/copy").header("x-amz-copy-source", "bucket/key")
        .PUT(HttpRequest.BodyPublishers.noBody()));
    send(at("/bucket/big?partNumber=1&uploadId=u").PUT(HttpRequest.BodyPublishers.ofString("x")));
    send(at("/bucket/big?uploads").POST(HttpRequest.BodyPublishers.noBody()));
    send(at("/bucket?delete").POST(HttpRequest.BodyPublishers.ofString("<Delete/>")));
    send(at("/bucket/key").DELETE());
    HttpResponse<String> chunked = send(at("/bucket/chunked"));
    assertTrue(chunked.body().startsWith("GET /bucket/chunked body=0"), chunked.body());
    assertEquals("GET /bucket/chunked body=0".length() + 100_000, chunked.body().length());

    assertEquals(Map.of("GET", 2L, "GET-range", 1L, "LIST", 2L, "HEAD", 1L, "PUT", 1L,
        "COPY", 1L, "PUT-part", 1L, "POST-multipart", 1L, "POST-delete", 1L, "DELETE", 1L),
        proxy.counts());
    assertEquals(12, proxy.total());

    HttpResponse<String> report = send(at("/__proxy/counts"));
    assertTrue(report.body().contains("GET-range 1\n"), report.body());
    assertTrue(report.body().contains("total 12\n"), report.body());
    send(at("/__proxy/reset").POST(HttpRequest.BodyPublishers.noBody()));
    assertEquals(0, proxy.total(), "control requests are neither forwarded nor counted");
  }

  /**
   * Each request, timed alone, takes at least the latency: a loaded machine only makes requests
   * slower, so this holds however busy it is (a difference of two timed rounds did not: on a
   * machine busy with other tests the round without latency took 370 ms and the latency seemed
   * absorbed).
   */
  @Test
  void delaysEveryRequestByTheLatency() throws Exception {
    int n = 10;
    send(at("/__proxy/latency?ms=50").POST(HttpRequest.BodyPublishers.noBody()));
    double total = 0;
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      send(at("/bucket/key" + i));
      double ms = (System.nanoTime() - t0) / 1e6;
      assertTrue(ms >= 50, "request " + i + " took " + ms + " ms at 50 ms of latency");
      total += ms;
    }
    assertTrue(total < 10_000, total + " ms for " + n + " requests at 50 ms each");
    send(at("/__proxy/latency?ms=0").POST(HttpRequest.BodyPublishers.noBody()));
    double without = Double.MAX_VALUE; // the fastest of 3: one may wait for a busy core
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      send(at("/bucket/key"));
      without = Math.min(without, (System.nanoTime() - t0) / 1e6);
    }
    assertTrue(without < total / n, "without latency " + without + " ms, with " + total / n);
    assertEquals(n + 3, proxy.total());
  }
}

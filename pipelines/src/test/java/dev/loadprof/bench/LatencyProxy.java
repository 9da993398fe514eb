package dev.loadprof.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 proxy in front of a local S3 server (S3Mock) that behaves like a store across a
 * network: every request waits a fixed latency before it is forwarded, and every request is
 * counted by kind (GET, ranged GET, HEAD, LIST, PUT, COPY, DELETE, multipart steps). Bytes pass
 * through unchanged (headers and bodies as the client sent them, so signatures still match), one
 * upstream connection per client connection, keep-alive kept.
 *
 * <p>Control requests, answered by the proxy itself (neither delayed nor counted):
 * {@code GET /__proxy/counts} (lines "KIND COUNT", then "total", "bytes_up", "bytes_down"),
 * {@code POST /__proxy/reset}, {@code POST /__proxy/latency?ms=N}.
 *
 * <p>{@code LatencyProxy PORT UPSTREAM_PORT [LATENCY_MS]}: runs until killed (bench/run.sh).
 */
public final class LatencyProxy implements AutoCloseable {
  private static final String CONTROL = "/__proxy/";

  private final ServerSocket server;
  private final int upstreamPort;
  private volatile long latencyNanos;
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final AtomicLong bytesUp = new AtomicLong();
  private final AtomicLong bytesDown = new AtomicLong();
  private final AtomicLong serverNanos = new AtomicLong();
  private final ExecutorService connections = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "latency-proxy");
    t.setDaemon(true);
    return t;
  });

  private LatencyProxy(ServerSocket server, int upstreamPort, Duration latency) {
    this.server = server;
    this.upstreamPort = upstreamPort;
    this.latencyNanos = latency.toNanos();
  }

  /** Listens on 127.0.0.1:{@code port} (0: any free port) for a server on 127.0.0.1. */
  public static LatencyProxy start(int port, int upstreamPort, Duration latency)
      throws IOException {
    ServerSocket s = new ServerSocket(port, 200, InetAddress.getLoopbackAddress());
    LatencyProxy proxy = new LatencyProxy(s, upstreamPort, latency);
    Thread acceptor = new Thread(proxy::acceptLoop, "latency-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    return proxy;
  }

  public int port() {
    return server.getLocalPort();
  }

  public void setLatency(Duration latency) {
    latencyNanos = latency.toNanos();
  }

  /** Requests forwarded since the start or the last reset, by kind. */
  public Map<String, Long> counts() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  public long total() {
    return counts.values().stream().mapToLong(AtomicLong::get).sum();
  }

  public void reset() {
    counts.clear();
    bytesUp.set(0);
    bytesDown.set(0);
    serverNanos.set(0);
  }

  /** The counts as the control request prints them. */
  public String report() {
    StringBuilder b = new StringBuilder();
    counts().forEach((k, v) -> b.append(k).append(' ').append(v).append('\n'));
    b.append("total ").append(total()).append('\n');
    b.append("bytes_up ").append(bytesUp.get()).append('\n');
    b.append("bytes_down ").append(bytesDown.get()).append('\n');
    // The server's own time, added over all requests (several may overlap): from the request
    // forwarded, after the injected latency, to the end of its answer passed on.
    b.append(String.format("server_s %.2f%n", serverNanos.get() / 1e9));
    return b.toString();
  }

  @Override
  public void close() throws IOException {
    server.close();
    connections.shutdownNow();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        connections.execute(() -> serve(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** One client connection: its requests in order, over one upstream connection. */
  private void serve(Socket client) {
    Socket upstream = null;
    InputStream fromUpstream = null;
    OutputStream toUpstream = null;
    try (client) {
      client.setTcpNoDelay(true);
      InputStream fromClient = new BufferedInputStream(client.getInputStream(), 65536);
      OutputStream toClient = new BufferedOutputStream(client.getOutputStream(), 65536);
      while (true) {
        byte[] head = readHead(fromClient);
        if (head == null) {
          return;
        }
        Message request = Message.parse(head);
        if (request.target().startsWith(CONTROL)) {
          control(request, toClient);
          continue;
        }
        counts.computeIfAbsent(kind(request), k -> new AtomicLong()).incrementAndGet();
        sleep(latencyNanos);
        long forwarded = System.nanoTime();
        if (upstream == null || upstream.isClosed()) {
          upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
          upstream.setTcpNoDelay(true);
          fromUpstream = new BufferedInputStream(upstream.getInputStream(), 65536);
          toUpstream = new BufferedOutputStream(upstream.getOutputStream(), 65536);
        }
        toUpstream.write(head);
        Message response;
        if ("100-continue".equalsIgnoreCase(request.header("expect"))) {
          toUpstream.flush();
          byte[] interim = readHead(fromUpstream);
          if (interim == null) {
            return;
          }
          response = Message.parse(interim);
          toClient.write(interim);
          toClient.flush();
          if (response.status() != 100) {
            // A final answer before the body (e.g. 412 of a conditional PUT): the client may or
            // may not send its body now, so neither connection can be reused.
            copyBody(response, request.method(), fromUpstream, toClient, bytesDown);
            toClient.flush();
            upstream.close();
            return;
          }
        }
        copyBody(request, null, fromClient, toUpstream, bytesUp);
        toUpstream.flush();
        do {
          byte[] responseHead = readHead(fromUpstream);
          if (responseHead == null) {
            return;
          }
          response = Message.parse(responseHead);
          toClient.write(responseHead);
        } while (response.status() >= 100 && response.status() < 200);
        boolean untilClose = copyBody(response, request.method(), fromUpstream, toClient,
            bytesDown);
        toClient.flush();
        serverNanos.addAndGet(System.nanoTime() - forwarded);
        if (untilClose || "close".equalsIgnoreCase(response.header("connection"))
            || "close".equalsIgnoreCase(request.header("connection"))) {
          return;
        }
      }
    } catch (IOException e) {
      // a connection closed by either side: nothing to forward
    } finally {
      if (upstream != null) {
        try {
          upstream.close();
        } catch (IOException e) {
          // closing anyway
        }
      }
    }
  }

  private void control(Message request, OutputStream toClient) throws IOException {
    String target = request.target();
    String body;
    int status = 200;
    if (target.startsWith(CONTROL + "counts")) {
      body = report();
    } else if (target.startsWith(CONTROL + "reset")) {
      reset();
      body = "reset\n";
    } else if (target.startsWith(CONTROL + "latency?ms=")) {
      long ms = Long.parseLong(target.substring((CONTROL + "latency?ms=").length()));
      setLatency(Duration.ofMillis(ms));
      body = "latency " + ms + " ms\n";
    } else {
      status = 404;
      body = "unknown control request " + target + "\n";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    toClient.write(("HTTP/1.1 " + status + " OK\r\nContent-Type: text/plain\r\nContent-Length: "
        + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    toClient.write(bytes);
    toClient.flush();
  }

  /**
   * The kind of an S3 request: LIST (GET of the bucket), GET, GET-range, HEAD, PUT, PUT-part,
   * COPY, DELETE, POST-delete (multi-object delete), POST-multipart (start or complete).
   */
  static String kind(Message request) {
    String method = request.method();
    String target = request.target();
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String query = q < 0 ? "" : target.substring(q + 1);
    boolean bucketOnly = path.indexOf('/', 1) < 0 || path.indexOf('/', 1) == path.length() - 1;
    switch (method) {
      case "GET":
        if (bucketOnly || query.contains("list-type=")) {
          return "LIST";
        }
        return request.header("range") != null ? "GET-range" : "GET";
      case "PUT":
        if (request.header("x-amz-copy-source") != null) {
          return query.contains("partNumber=") ? "COPY-part" : "COPY";
        }
        return query.contains("partNumber=") ? "PUT-part" : "PUT";
      case "POST":
        if (query.startsWith("delete") || query.contains("&delete")) {
          return "POST-delete";
        }
        return query.contains("uploads") || query.contains("uploadId=") ? "POST-multipart"
            : "POST";
      default:
        return method;
    }
  }

  /**
   * Copies a message's body; returns true when its end is the connection's end (a response
   * with neither length nor chunks).
   */
  private static boolean copyBody(Message m, String requestMethod, InputStream in,
      OutputStream out, AtomicLong bytes) throws IOException {
    if (requestMethod != null && ("HEAD".equals(requestMethod) || m.status() == 204
        || m.status() == 304)) {
      return false;
    }
    String chunked = m.header("transfer-encoding");
    if (chunked != null && chunked.toLowerCase(Locale.ROOT).contains("chunked")) {
      copyChunked(in, out, bytes);
      return false;
    }
    String length = m.header("content-length");
    if (length != null) {
      copyExactly(in, out, Long.parseLong(length.trim()), bytes);
      return false;
    }
    if (requestMethod == null) {
      return false; // a request without length or chunks has no body
    }
    bytes.addAndGet(in.transferTo(out));
    return true;
  }

  private static void copyChunked(InputStream in, OutputStream out, AtomicLong bytes)
      throws IOException {
    while (true) {
      String sizeLine = readLine(in);
      out.write((sizeLine + "\r\n").getBytes(StandardCharsets.US_ASCII));
      int semicolon = sizeLine.indexOf(';');
      long size = Long.parseLong((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon))
          .trim(), 16);
      if (size == 0) {
        String trailer;
        do {
          trailer = readLine(in);
          out.write((trailer + "\r\n").getBytes(StandardCharsets.US_ASCII));
        } while (!trailer.isEmpty());
        return;
      }
      copyExactly(in, out, size, bytes);
      out.write((readLine(in) + "\r\n").getBytes(StandardCharsets.US_ASCII)); // CRLF after data
    }
  }

  private static void copyExactly(InputStream in, OutputStream out, long n, AtomicLong bytes)
      throws IOException {
    byte[] buffer = new byte[65536];
    long left = n;
    while (left > 0) {
      int r = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (r < 0) {
        throw new EOFException("body cut short");
      }
      out.write(buffer, 0, r);
      left -= r;
    }
    bytes.addAndGet(n);
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0 && c != '\n') {
      if (c != '\r') {
        line.write(c);
      }
    }
    if (c < 0) {
      throw new EOFException("line cut short");
    }
    return line.toString(StandardCharsets.US_ASCII);
  }

  /** The bytes up to and including the blank line after the headers; null at a clean end. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream(1024);
    int matched = 0;
    int c;
    try {
      while ((c = in.read()) >= 0) {
        head.write(c);
        matched = (c == '\n' && (matched == 1 || matched == 3)) || (c == '\r'
            && (matched == 0 || matched == 2)) ? matched + 1 : (c == '\r' ? 1 : 0);
        if (matched == 4) {
          return head.toByteArray();
        }
      }
    } catch (SocketException e) {
      return null; // reset by the peer between requests
    }
    if (head.size() == 0) {
      return null;
    }
    throw new EOFException("headers cut short");
  }

  private static void sleep(long nanos) {
    if (nanos <= 0) {
      return;
    }
    try {
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A request's or response's first line and headers. */
  record Message(String method, String target, int status, Map<String, String> headers) {
    String header(String lowerCaseName) {
      return headers.get(lowerCaseName);
    }

    static Message parse(byte[] head) {
      String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
      String[] first = lines[0].split(" ", 3);
      Map<String, String> headers = new TreeMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon > 0) {
          headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
              lines[i].substring(colon + 1).trim());
        }
      }
      if (first[0].startsWith("HTTP/")) {
        return new Message(null, null, Integer.parseInt(first[1]), headers);
      }
      return new Message(first[0], first.length > 1 ? first[1] : "/", 0, headers);
    }
  }

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int upstream = Integer.parseInt(args[1]);
    long ms = args.length > 2 ? Long.parseLong(args[2]) : 10;
    LatencyProxy proxy = start(port, upstream, Duration.ofMillis(ms));
    System.out.printf("latency proxy on 127.0.0.1:%d -> 127.0.0.1:%d, %d ms per request%n",
        proxy.port(), upstream, ms);
    Thread.currentThread().join();
  }
}

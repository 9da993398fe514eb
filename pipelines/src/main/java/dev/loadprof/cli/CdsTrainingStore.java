package dev.loadprof.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A read-only S3 endpoint over a local directory, for the launcher's class-data training only
 * (LOADPROF_CDS=train): a job on S3 loads ~3,000 classes a local job does not (the AWS SDK, its
 * HTTP client, the answers' parsing, Beam's S3 file system), and an archive of them lets every
 * later command on S3 start without loading them from jars. The training asks this server, on
 * 127.0.0.1 and a free port, for an archive it made in the directory, so that it lists the
 * classes of a whole job and needs no store of the user's.
 *
 * <p>It answers what an analyze of an archive asks: ListObjectsV2 (prefix, delimiter), HEAD and
 * GET of an object (whole or a byte range), NoSuchKey for a missing one. Anything else is 501.
 * Usage: {@code CdsTrainingStore DIR PORT_FILE}: DIR holds one folder per bucket; the port is
 * written to PORT_FILE once the server listens. It stops after 5 minutes whatever happens, so
 * that a training that dies leaves nothing running.
 */
public final class CdsTrainingStore {
  private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME
      .withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_INSTANT;
  static final long LIFETIME_MS = 5 * 60_000;

  private final Path root;

  CdsTrainingStore(Path root) {
    this.root = root;
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length != 2) {
      System.err.println("usage: CdsTrainingStore DIR PORT_FILE");
      System.exit(2);
    }
    HttpServer server = new CdsTrainingStore(Path.of(args[0])).start();
    Path portFile = Path.of(args[1]);
    Path written = portFile.resolveSibling(portFile.getFileName() + ".tmp");
    Files.writeString(written, Integer.toString(server.getAddress().getPort()));
    Files.move(written, portFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    Thread.sleep(LIFETIME_MS);
    server.stop(0);
  }

  /** Listening on 127.0.0.1 and a free port. */
  HttpServer start() throws IOException {
    HttpServer server = HttpServer.create(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.createContext("/", this::answer);
    server.start();
    return server;
  }

  private void answer(HttpExchange x) throws IOException {
    try (x) {
      String path = URLDecoder.decode(x.getRequestURI().getRawPath(), StandardCharsets.UTF_8);
      String[] parts = path.substring(1).split("/", 2);
      Path bucket = parts[0].isEmpty() ? null : root.resolve(parts[0]).normalize();
      if (bucket == null || !bucket.startsWith(root) || !Files.isDirectory(bucket)) {
        error(x, 404, "NoSuchBucket");
        return;
      }
      String key = parts.length > 1 ? parts[1] : "";
      String method = x.getRequestMethod();
      if (key.isEmpty() && method.equals("GET")) {
        list(x, bucket, query(x.getRequestURI().getRawQuery()));
        return;
      }
      Path file = bucket.resolve(key).normalize();
      if (!file.startsWith(bucket) || !method.equals("GET") && !method.equals("HEAD")) {
        error(x, 501, "NotImplemented");
        return;
      }
      if (!Files.isRegularFile(file)) {
        error(x, 404, "NoSuchKey");
        return;
      }
      object(x, file, method.equals("HEAD"));
    }
  }

  private static void object(HttpExchange x, Path file, boolean head) throws IOException {
    long size = Files.size(file);
    long from = 0;
    long to = size - 1;
    String range = x.getRequestHeaders().getFirst("Range");
    boolean ranged = range != null && range.startsWith("bytes=") && !head;
    if (ranged) {
      String[] ends = range.substring("bytes=".length()).split("-", 2);
      from = Long.parseLong(ends[0]);
      if (ends.length > 1 && !ends[1].isEmpty()) {
        to = Math.min(to, Long.parseLong(ends[1]));
      }
      if (from > to) {
        error(x, 416, "InvalidRange");
        return;
      }
      x.getResponseHeaders().add("Content-Range", "bytes " + from + "-" + to + "/" + size);
    }
    x.getResponseHeaders().add("Last-Modified",
        HTTP_DATE.format(Files.getLastModifiedTime(file).toInstant()));
    x.getResponseHeaders().add("ETag", "\"" + size + "-" + file.getFileName() + "\"");
    x.getResponseHeaders().add("Content-Type", "application/octet-stream");
    long length = to - from + 1;
    if (head) {
      x.getResponseHeaders().add("Content-Length", Long.toString(size));
      x.sendResponseHeaders(200, -1);
      return;
    }
    x.sendResponseHeaders(ranged ? 206 : 200, length == 0 ? -1 : length);
    byte[] bytes = Files.readAllBytes(file);
    try (OutputStream out = x.getResponseBody()) {
      out.write(bytes, (int) from, (int) length);
    }
  }

  private static void list(HttpExchange x, Path bucket, Map<String, String> query)
      throws IOException {
    String prefix = query.getOrDefault("prefix", "");
    String delimiter = query.getOrDefault("delimiter", "");
    List<String> keys = new ArrayList<>();
    TreeSet<String> common = new TreeSet<>();
    try (Stream<Path> files = Files.walk(bucket)) {
      files.filter(Files::isRegularFile).map(f -> bucket.relativize(f).toString()
          .replace('\\', '/')).filter(k -> k.startsWith(prefix)).sorted().forEach(k -> {
            int cut = delimiter.isEmpty() ? -1 : k.indexOf(delimiter, prefix.length());
            if (cut >= 0) {
              common.add(k.substring(0, cut + delimiter.length()));
            } else {
              keys.add(k);
            }
          });
    }
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
    xml.append("<Name>").append(escape(bucket.getFileName().toString())).append("</Name>")
        .append("<Prefix>").append(escape(prefix)).append("</Prefix>")
        .append("<KeyCount>").append(keys.size() + common.size()).append("</KeyCount>")
        .append("<MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>");
    for (String k : keys) {
      Path f = bucket.resolve(k);
      xml.append("<Contents><Key>").append(escape(k)).append("</Key><LastModified>")
          .append(ISO.format(Files.getLastModifiedTime(f).toInstant().with(
              java.time.temporal.ChronoField.NANO_OF_SECOND, 0)))
          .append("</LastModified><ETag>\"").append(Files.size(f)).append("\"</ETag><Size>")
          .append(Files.size(f)).append("</Size><StorageClass>STANDARD</StorageClass>")
          .append("</Contents>");
    }
    for (String p : common) {
      xml.append("<CommonPrefixes><Prefix>").append(escape(p)).append("</Prefix>")
          .append("</CommonPrefixes>");
    }
    xml.append("</ListBucketResult>");
    send(x, 200, xml.toString());
  }

  private static void error(HttpExchange x, int status, String code) throws IOException {
    send(x, status, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code
        + "</Code><Message>" + code + "</Message><RequestId>cds</RequestId></Error>");
  }

  private static void send(HttpExchange x, int status, String xml) throws IOException {
    byte[] body = xml.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().add("Content-Type", "application/xml");
    boolean head = x.getRequestMethod().equals("HEAD");
    x.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
    if (!head) {
      try (OutputStream out = x.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq),
            StandardCharsets.UTF_8);
        out.put(name, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1),
            StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}

package dev.loadprof.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-only S3 endpoint the launcher's class-data training reads an archive from: it answers
 * what S3 clients ask (listings, HEAD, GET, ranges, a missing key), and a whole analyze of an
 * archive on it, by the CLI with a real AWS SDK client, writes the outputs an analyze of the same
 * archive on local disk writes. If it did not, the training of the -stores archives would list
 * a failed job's classes and every command on S3 would start slower, with no error anywhere.
 */
class CdsTrainingStoreTest {
  private static final String EXAMPLE =
      Paths.get("..", "examples", "phases.txt.gz").toAbsolutePath().normalize().toString();

  @TempDir Path dir;

  @Test
  void answersListingsHeadsGetsAndRangesOfItsDirectoryAndNothingElse() throws Exception {
    Path bucket = Files.createDirectories(dir.resolve("b/runs"));
    Files.writeString(bucket.resolve("r1.avro"), "0123456789");
    Files.writeString(dir.resolve("b/marker.json"), "{}");
    HttpServer server = new CdsTrainingStore(dir).start();
    try {
      String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/b";
      HttpResponse<String> all = get(base + "?list-type=2&prefix=", null);
      assertEquals(200, all.statusCode());
      assertTrue(all.body().contains("<Key>marker.json</Key>"), all.body());
      assertTrue(all.body().contains("<Key>runs/r1.avro</Key><LastModified>"), all.body());
      assertTrue(all.body().contains("<Size>10</Size>"), all.body());
      HttpResponse<String> top = get(base + "?list-type=2&prefix=&delimiter=%2F", null);
      assertTrue(top.body().contains("<CommonPrefixes><Prefix>runs/</Prefix>"), top.body());
      assertTrue(!top.body().contains("r1.avro"), top.body());

      assertEquals("0123456789", get(base + "/runs/r1.avro", null).body());
      HttpResponse<String> part = get(base + "/runs/r1.avro", "bytes=2-4");
      assertEquals(206, part.statusCode());
      assertEquals("234", part.body());
      assertEquals("bytes 2-4/10", part.headers().firstValue("Content-Range").orElse(""));
      assertEquals("789", get(base + "/runs/r1.avro", "bytes=7-").body());
      HttpResponse<Void> head = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create(base + "/runs/r1.avro")).method("HEAD",
          HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
      assertEquals(200, head.statusCode());
      assertEquals("10", head.headers().firstValue("Content-Length").orElse(""));

      HttpResponse<String> missing = get(base + "/runs/r2.avro", null);
      assertEquals(404, missing.statusCode());
      assertTrue(missing.body().contains("<Code>NoSuchKey</Code>"), missing.body());
      assertEquals(404, get("http://127.0.0.1:" + server.getAddress().getPort()
          + "/other/x", null).statusCode());
      HttpResponse<String> put = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create(base + "/runs/r3.avro")).PUT(HttpRequest.BodyPublishers.ofString("x"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(501, put.statusCode()); // read-only
      assertTrue(!Files.exists(bucket.resolve("r3.avro")));
    } finally {
      server.stop(0);
    }
  }

  @Test
  void anAnalyzeOfAnArchiveOnItWritesWhatTheSameAnalyzeOnLocalDiskWrites() throws Exception {
    Path archive = dir.resolve("s3/bucket/archive");
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8);
    assertEquals(0, LoadprofCli.run(new String[] {"archive", "--quiet", "--out",
        archive.toString(), EXAMPLE}, quiet, quiet));
    Path local = dir.resolve("local");
    assertEquals(0, LoadprofCli.run(new String[] {"analyze", "--quiet", "-o", local.toString(),
        archive.toString()}, quiet, quiet));

    HttpServer server = new CdsTrainingStore(dir.resolve("s3")).start();
    try {
      Path onS3 = dir.resolve("on-s3");
      ChildJvm.Result run = ChildJvm.start(dir.resolve("logs"), "analyze", List.of(),
          LoadprofCli.class, "analyze", "--quiet", "-o", onS3.toString(),
          "s3://bucket/archive",
          "--endpoint=http://127.0.0.1:" + server.getAddress().getPort(),
          "--awsRegion=us-east-1",
          "--s3ClientFactoryClass=dev.loadprof.stores.PathStyleS3ClientBuilderFactory",
          "--awsCredentialsProvider={\"@type\": \"StaticCredentialsProvider\","
              + " \"accessKeyId\": \"cds\", \"secretAccessKey\": \"cds\"}").finish();
      assertEquals(0, run.exit(), run.stderr());
      for (String output : List.of("profile.pb.gz", "histogram.txt", "functions.txt",
          "flame.folded")) {
        assertArrayEquals(Files.readAllBytes(local.resolve(output)),
            Files.readAllBytes(onS3.resolve(output)), output);
      }
    } finally {
      server.stop(0);
    }
  }

  private static HttpResponse<String> get(String url, String range) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
    if (range != null) {
      b.header("Range", range);
    }
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}

package dev.loadprof.bench;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Copies a local directory into an S3 bucket with many PutObjects at once, straight to the
 * store's endpoint (not through the bench's latency proxy): the scale bench's archive is made
 * on local disk ({@link FleetTree}) and put into the store this way, since writing it through
 * loadprof archive and Beam's S3 filesystem (3 requests per object, one object at a time per
 * thread) took hours.
 *
 * <p>{@code UploadTree put ENDPOINT DIR s3://BUCKET/PREFIX THREADS [SUBDIR...]}: every file
 * under DIR (or only under DIR/SUBDIR...) to PREFIX/its path under DIR.
 * {@code UploadTree delete ENDPOINT s3://BUCKET/PREFIX...}: every object under each prefix.
 */
public final class UploadTree {
  public static void main(String[] args) throws Exception {
    URI endpoint = URI.create(args[1]);
    try (S3Client s3 = S3Client.builder().endpointOverride(endpoint).forcePathStyle(true)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("bench", "bench")))
        .httpClientBuilder(ApacheHttpClient.builder().maxConnections(64)).build()) {
      if (args[0].equals("delete")) {
        for (int i = 2; i < args.length; i++) {
          System.out.printf("deleted %d objects under %s%n", delete(s3, URI.create(args[i])),
              args[i]);
        }
      } else {
        put(s3, Path.of(args[2]), URI.create(args[3]), Integer.parseInt(args[4]),
            List.of(args).subList(5, args.length));
      }
    }
  }

  private static void put(S3Client s3, Path dir, URI to, int threads, List<String> subdirs)
      throws Exception {
    String bucket = to.getHost();
    String prefix = to.getPath().replaceAll("^/+|/+$", "");
    List<Path> files = new ArrayList<>();
    for (String sub : subdirs.isEmpty() ? List.of("") : subdirs) {
      Path root = sub.isEmpty() ? dir : dir.resolve(sub);
      if (Files.exists(root)) {
        try (Stream<Path> walk = Files.walk(root)) {
          walk.filter(Files::isRegularFile).forEach(files::add);
        }
      }
    }
    long t0 = System.nanoTime();
    AtomicLong bytes = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (Path f : files) {
      String key = (prefix.isEmpty() ? "" : prefix + "/") + dir.relativize(f).toString();
      done.add(pool.submit(() -> {
        byte[] body = Files.readAllBytes(f);
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(body));
        bytes.addAndGet(body.length);
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf("put %d objects (%d bytes) from %s into %s in %.1f s (%.0f PUT/s, %d"
        + " threads)%n", files.size(), bytes.get(), dir, to, s, files.size() / s, threads);
  }

  private static long delete(S3Client s3, URI prefix) {
    String bucket = prefix.getHost();
    String key = prefix.getPath().replaceAll("^/+", "");
    long n = 0;
    for (var page : s3.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(bucket)
        .prefix(key).build())) {
      List<ObjectIdentifier> ids = page.contents().stream().map(S3Object::key)
          .map(k -> ObjectIdentifier.builder().key(k).build()).toList();
      if (!ids.isEmpty()) {
        s3.deleteObjects(DeleteObjectsRequest.builder().bucket(bucket)
            .delete(Delete.builder().objects(ids).build()).build());
        n += ids.size();
      }
    }
    return n;
  }
}

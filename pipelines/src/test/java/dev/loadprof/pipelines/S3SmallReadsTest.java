package dev.loadprof.pipelines;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loadprof.archive.ArchiveCorruptException;
import dev.loadprof.archive.BlockFileRef;
import dev.loadprof.archive.NightIndex;
import dev.loadprof.archive.beam.ArchiveLayout;
import dev.loadprof.archive.beam.NightIndexes;
import dev.loadprof.archive.beam.BlockFilesAhead;
import dev.loadprof.archive.beam.ReadArchive;
import dev.loadprof.archive.beam.RunFigures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.aws2.options.S3ClientBuilderFactory;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The client's small reads on S3 (the archive's marker, each night index) are one GetObject
 * each: Beam's S3 open asks for an object's length with a HEAD before its GET, which doubled
 * the requests of a night's selection (bench/RESULTS.md section 34). Beam's own S3 filesystem
 * and the stores module's S3Listing run here on a fake S3 client that records each call.
 */
class S3SmallReadsTest {
  private static final Map<String, byte[]> OBJECTS = new ConcurrentHashMap<>();
  private static final List<String> CALLS = new CopyOnWriteArrayList<>();
  private static final java.util.concurrent.atomic.AtomicInteger CLIENTS =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Beam's S3 client factory, giving a client that serves {@link #OBJECTS} and counts. */
  public static final class FakeS3 implements S3ClientBuilderFactory {
    @Override
    public S3ClientBuilder createBuilder(S3Options options) {
      CLIENTS.incrementAndGet();
      S3Client client = (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(),
          new Class<?>[] {S3Client.class}, (p, method, args) -> switch (method.getName()) {
            case "headObject" -> {
              CALLS.add("HEAD");
              yield HeadObjectResponse.builder().contentLength((long) object(
                  ((HeadObjectRequest) args[0]).key()).length).build();
            }
            case "getObject" -> {
              CALLS.add("GET");
              byte[] bytes = object(((GetObjectRequest) args[0]).key());
              yield new ResponseInputStream<>(GetObjectResponse.builder()
                  .contentLength((long) bytes.length).build(),
                  AbortableInputStream.create(new ByteArrayInputStream(bytes)));
            }
            case "getObjectAsBytes" -> {
              CALLS.add("GET");
              byte[] bytes = object(((GetObjectRequest) args[0]).key());
              yield ResponseBytes.fromByteArray(GetObjectResponse.builder()
                  .contentLength((long) bytes.length).build(), bytes);
            }
            case "putObject" -> {
              CALLS.add("PUT");
              software.amazon.awssdk.services.s3.model.PutObjectRequest put =
                  (software.amazon.awssdk.services.s3.model.PutObjectRequest) args[0];
              try (java.io.InputStream in = ((software.amazon.awssdk.core.sync.RequestBody)
                  args[1]).contentStreamProvider().newStream()) {
                OBJECTS.put(put.key(), in.readAllBytes());
              }
              yield software.amazon.awssdk.services.s3.model.PutObjectResponse.builder().build();
            }
            case "serviceName" -> "s3";
            case "close" -> null;
            default -> throw new UnsupportedOperationException(method.getName());
          });
      return (S3ClientBuilder) Proxy.newProxyInstance(S3ClientBuilder.class.getClassLoader(),
          new Class<?>[] {S3ClientBuilder.class}, (p, method, args) -> {
            if (method.getName().equals("build")) {
              return client;
            }
            return method.getReturnType().isInstance(p) ? p : null;
          });
    }

    private static byte[] object(String key) {
      byte[] bytes = OBJECTS.get(key);
      if (bytes == null) {
        throw NoSuchKeyException.builder().message("no such key: " + key).build();
      }
      return bytes;
    }
  }

  @BeforeEach
  void s3OnTheFakeClient() {
    S3Options options = PipelineOptionsFactory.as(S3Options.class);
    options.setS3ClientFactoryClass(FakeS3.class);
    options.setAwsRegion(Region.US_EAST_1);
    FileSystems.setDefaultPipelineOptions(options);
    dev.loadprof.archive.beam.ExclusiveCreates.setDefaultOptions(options);
    OBJECTS.clear();
    CALLS.clear();
    CLIENTS.set(0);
  }

  @AfterEach
  void localStoresAgain() {
    FileSystems.setDefaultPipelineOptions(PipelineOptionsFactory.create());
    dev.loadprof.archive.beam.ExclusiveCreates.setDefaultOptions(null);
  }

  /**
   * A job in the CLI's JVM reads and stores through one S3 client: a client made for each
   * create (a run's stored figures: a nightly stores one a run of its new night) cost a client's
   * build, its connection pool and a new connection a PUT. Options of another job (given to the
   * create) still get a client of their own.
   */
  @Test
  void readsAndCreatesOfAJobInThisJvmShareOneClient() throws IOException {
    for (int run = 1; run <= 3; run++) {
      String path = "s3://bucket/fleet/figures/run" + run + "/job1-b3-kind-1.bin";
      byte[] stored = RunFigures.store(FileSystems.matchNewResource(path, false),
          "figures of run " + run, null);
      assertTrue(stored != null, path);
      assertEquals("figures of run " + run,
          RunFigures.read(FileSystems.matchNewResource(path, false)).figures());
    }
    assertEquals(List.of("PUT", "GET", "PUT", "GET", "PUT", "GET"), CALLS);
    assertEquals(1, CLIENTS.get(), "clients made");
    S3Options other = PipelineOptionsFactory.as(S3Options.class);
    other.setS3ClientFactoryClass(FakeS3.class);
    other.setAwsRegion(Region.US_EAST_1);
    assertTrue(RunFigures.store(FileSystems.matchNewResource(
        "s3://bucket/fleet/figures/run4/job1-b3-kind-1.bin", false), "four", other) != null);
    assertEquals(2, CLIENTS.get(), "clients made");
  }

  @Test
  void theMarkerAndANightIndexAreOneGetEachWithoutAHead() throws IOException {
    OBJECTS.put("fleet/" + ArchiveLayout.MARKER_FILE,
        "{\"format\": \"loadprof-archive\", \"version\": 3}\n".getBytes(StandardCharsets.UTF_8));
    NightIndex index = new NightIndex("2026-11-20", "web1", "job1", List.of(new NightIndex.Run(
        "run1", "job1", "abc", "cpu-clock", 1_000_000_000L, "sha256:x", "/traces/run1.data",
        List.of(new NightIndex.BlockFile("blocks/run1/job1-00000.avro", 42)))));
    OBJECTS.put("fleet/index/night=2026-11-20/host=web1/@job1", index.encode());

    assertEquals(3, ArchiveLayout.formatVersion("s3://bucket/fleet"));
    assertEquals(List.of("GET"), CALLS);
    CALLS.clear();
    assertEquals(index, NightIndexes.read("s3://bucket/fleet/index/night=2026-11-20/host=web1/@job1",
        "2026-11-20", "web1", "job1"));
    assertEquals(List.of("GET"), CALLS);
  }

  /**
   * A nightly reads most runs' stored figures: one GET each, where asking whether the file is
   * there and Beam's open made it a HEAD, a HEAD and a GET; a run without them costs one GET.
   */
  @Test
  void storedFiguresAreOneGetAndNoneAreOneGetToo() {
    String path = "s3://bucket/fleet/figures/run1/job1-b3-kind-1.bin";
    OBJECTS.put("fleet/figures/run1/job1-b3-kind-1.bin", "not figures".getBytes(
        StandardCharsets.UTF_8));
    RunFigures.Stored damaged = RunFigures.read(FileSystems.matchNewResource(path, false));
    assertTrue(damaged.problem().contains("not a figures file"), damaged.problem());
    assertEquals(List.of("GET"), CALLS);
    CALLS.clear();
    assertEquals(null, RunFigures.read(FileSystems.matchNewResource(
        "s3://bucket/fleet/figures/run2/job1-b3-kind-1.bin", false)));
    assertEquals(List.of("GET"), CALLS);
  }

  /**
   * A small run's block files on a store, read ahead of its turn by a job in this JVM: one GET
   * each, no HEAD; one that cannot be read so is left to be opened at its turn (which names it),
   * and local files are not read ahead.
   */
  @Test
  void aSmallRunsBlockFilesAreReadAheadWithOneGetEach() {
    OBJECTS.put("fleet/blocks/run1/a.avro", new byte[] {1, 2, 3});
    OBJECTS.put("fleet/blocks/run1/b.avro", new byte[] {4, 5});
    List<BlockFileRef> files = List.of(file("s3://bucket/fleet/blocks/run1/a.avro", 3),
        file("s3://bucket/fleet/blocks/run1/b.avro", 2),
        file("s3://bucket/fleet/blocks/run1/gone.avro", 9));
    Map<String, byte[]> read = BlockFilesAhead.of(new ReadArchive.LocalRun(null, files, null));
    assertEquals(List.of("GET", "GET", "GET"), CALLS);
    assertEquals(2, read.size());
    assertArrayEquals(new byte[] {4, 5}, read.get("s3://bucket/fleet/blocks/run1/b.avro"));
    assertEquals(Map.of(), BlockFilesAhead.of(new ReadArchive.LocalRun(null,
        List.of(file("/tmp/fleet/blocks/run1/a.avro", 3)), null)));
    assertEquals(Map.of(), BlockFilesAhead.of(new ReadArchive.LocalRun(null, List.of(file(
        "s3://bucket/fleet/blocks/run1/a.avro", BlockFilesAhead.MAX_BYTES + 1)), null)));
  }

  private static BlockFileRef file(String path, long size) {
    return new BlockFileRef(path, size, "run1", 1_000_000_000L, 0, 1, "m.avro", 1, false);
  }

  @Test
  void aMissingNightIndexIsNamed() {
    String path = "s3://bucket/fleet/index/night=2026-11-20/host=web1/@gone";
    ArchiveCorruptException e = assertThrows(ArchiveCorruptException.class,
        () -> NightIndexes.read(path, "2026-11-20", "web1", "gone"));
    assertTrue(e.getMessage().startsWith(path + ": the night index cannot be read"),
        e.getMessage());
  }
}

package dev.loadprof.stores;

import dev.loadprof.archive.beam.ExclusiveCreate;
import java.io.IOException;
import java.util.Set;
import org.apache.beam.sdk.io.aws2.options.S3ClientBuilderFactory;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Create-if-absent on S3: one PutObject with {@code If-None-Match: *} (S3 conditional writes).
 * The store answers 412 Precondition Failed when the key exists, and a single PUT is visible
 * whole or not at all. The header is set by hand: the SDK version Beam 2.62 brings predates the
 * ifNoneMatch field. A store that ignores the header (older S3-compatible servers) lets both
 * writers through; CommitRun's read-back then catches all but a narrow race.
 */
public final class S3ExclusiveCreate implements ExclusiveCreate {
  private static final int PRECONDITION_FAILED = 412;
  /** S3 answers this when another conditional write of the key is in flight. */
  private static final int CONDITIONAL_REQUEST_CONFLICT = 409;

  @Override
  public Set<String> schemes() {
    return Set.of("s3");
  }

  @Override
  public boolean createIfAbsent(ResourceId file, byte[] bytes, PipelineOptions options)
      throws IOException {
    String path = file.toString(); // s3://BUCKET/KEY
    String rest = path.substring("s3://".length());
    int slash = rest.indexOf('/');
    if (slash <= 0) {
      throw new IOException("not an S3 object path: " + path);
    }
    // The client this JVM's reads use, where the options are theirs (a job in the CLI's JVM
    // stores each run's figures: building a client a create, with its connection pool and a
    // new connection, was most of such a PUT's cost); else one for this create.
    S3Client shared = S3Listing.clientOf(options);
    if (shared != null) {
      return put(shared, path, rest, slash, bytes);
    }
    S3Options s3 = options.as(S3Options.class);
    S3ClientBuilderFactory factory;
    try {
      factory = s3.getS3ClientFactoryClass().getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IOException("cannot create the S3 client factory "
          + s3.getS3ClientFactoryClass(), e);
    }
    try (S3Client client = factory.createBuilder(s3).build()) {
      return put(client, path, rest, slash, bytes);
    }
  }

  private static boolean put(S3Client client, String path, String rest, int slash, byte[] bytes)
      throws IOException {
    try {
      client.putObject(PutObjectRequest.builder()
          .bucket(rest.substring(0, slash))
          .key(rest.substring(slash + 1))
          .overrideConfiguration(c -> c.putHeader("If-None-Match", "*"))
          .build(), RequestBody.fromBytes(bytes));
      return true;
    } catch (S3Exception e) {
      if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONDITIONAL_REQUEST_CONFLICT) {
        return false;
      }
      throw new IOException("cannot create " + path + ": " + e.getMessage(), e);
    }
  }
}

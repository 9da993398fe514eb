package dev.loadprof.stores;

import dev.loadprof.archive.beam.StoreListing;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.beam.sdk.io.FileSystem;
import org.apache.beam.sdk.io.FileSystemRegistrar;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.aws2.options.S3Options;
import org.apache.beam.sdk.io.fs.MatchResult;
import org.apache.beam.sdk.options.PipelineOptions;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An S3 glob listed from ListObjectsV2 pages alone: one request per 1,000 keys under the glob's
 * fixed prefix, where Beam's S3 match adds a HEAD per object found; and a small object read with
 * one GetObject, where Beam's S3 open asks for its length with a HEAD first. The client is made from the
 * pipeline options Beam's FileSystems were set up with (captured by {@link OptionsCapture}), so
 * it has the same endpoint, credentials and timeouts.
 */
public final class S3Listing implements StoreListing {
  private static volatile PipelineOptions options;
  private static volatile S3Client client;

  @Override
  public Set<String> schemes() {
    return Set.of("s3");
  }

  @Override
  public List<MatchResult.Metadata> match(String glob) throws IOException {
    String rest = glob.substring("s3://".length());
    int slash = rest.indexOf('/');
    if (slash <= 0) {
      throw new IOException("not an S3 path: " + glob);
    }
    String bucket = rest.substring(0, slash);
    String keyGlob = rest.substring(slash + 1);
    int wildcard = firstWildcard(keyGlob);
    String prefix = wildcard < 0 ? keyGlob : keyGlob.substring(0, wildcard);
    Pattern pattern = Pattern.compile(globToRegex(keyGlob));
    List<MatchResult.Metadata> found = new ArrayList<>();
    String token = null;
    try {
      do {
        ListObjectsV2Response page = client().listObjectsV2(ListObjectsV2Request.builder()
            .bucket(bucket).prefix(prefix).continuationToken(token).build());
        for (S3Object o : page.contents()) {
          if (pattern.matcher(o.key()).matches()) {
            found.add(MatchResult.Metadata.builder()
                .setResourceId(FileSystems.matchNewResource("s3://" + bucket + "/" + o.key(),
                    false))
                .setSizeBytes(o.size())
                .setLastModifiedMillis(o.lastModified() == null ? 0
                    : o.lastModified().toEpochMilli())
                .setIsReadSeekEfficient(true)
                .build());
          }
        }
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
    } catch (S3Exception e) {
      throw new IOException("cannot list " + glob + ": " + e.getMessage(), e);
    }
    return found;
  }

  /** One GetObject: Beam's S3 open would first ask for the object's length with a HEAD. */
  @Override
  public byte[] readWhole(String path) throws IOException {
    String rest = path.substring("s3://".length());
    int slash = rest.indexOf('/');
    if (slash <= 0) {
      throw new IOException("not an S3 path: " + path);
    }
    try {
      return client().getObjectAsBytes(GetObjectRequest.builder().bucket(rest.substring(0, slash))
          .key(rest.substring(slash + 1)).build()).asByteArray();
    } catch (NoSuchKeyException e) {
      throw new FileNotFoundException(path + " does not exist");
    } catch (S3Exception e) {
      throw new IOException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  static int firstWildcard(String glob) {
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      if (c == '*' || c == '?' || c == '[' || c == '{') {
        return i;
      }
    }
    return -1;
  }

  /** Beam's glob: '**' any characters, '*' and '?' none of them '/'. */
  static String globToRegex(String glob) {
    StringBuilder r = new StringBuilder();
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
        r.append(".*");
        i++;
      } else if (c == '*') {
        r.append("[^/]*");
      } else if (c == '?') {
        r.append("[^/]");
      } else {
        r.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return r.toString();
  }

  /**
   * The client of this JVM's listings and small reads when {@code options} are the ones Beam's
   * file systems were set up with (made once), else null: a caller with other options makes
   * its own.
   */
  static S3Client clientOf(PipelineOptions options) throws IOException {
    return options != null && options == S3Listing.options ? client() : null;
  }

  private static S3Client client() throws IOException {
    S3Client c = client;
    if (c != null) {
      return c;
    }
    synchronized (S3Listing.class) {
      if (client == null) {
        if (options == null) {
          throw new IOException("S3 listing before Beam's filesystems were set up");
        }
        S3Options s3 = options.as(S3Options.class);
        try {
          client = s3.getS3ClientFactoryClass().getDeclaredConstructor().newInstance()
              .createBuilder(s3).build();
        } catch (ReflectiveOperationException e) {
          throw new IOException("cannot create the S3 client factory "
              + s3.getS3ClientFactoryClass(), e);
        }
      }
      return client;
    }
  }

  /**
   * Registers no filesystem: it only keeps the options Beam's FileSystems are set up with
   * (every registrar is given them), for {@link S3Listing}'s client.
   */
  public static final class OptionsCapture implements FileSystemRegistrar {
    @Override
    public Iterable<FileSystem<?>> fromOptions(PipelineOptions pipelineOptions) {
      synchronized (S3Listing.class) {
        if (options != pipelineOptions) {
          options = pipelineOptions;
          client = null; // new options: a new client on the next listing
        }
      }
      return List.of();
    }
  }
}

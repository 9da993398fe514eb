package dev.loadprof.archive.beam;

import java.io.IOException;
import java.util.Set;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Create-if-absent, the archive's commit primitive: writes a small file whole, or not at all when
 * the file already exists. Exactly one of several writers racing for one name succeeds. Found per
 * URI scheme through {@link java.util.ServiceLoader} (the loadprof-stores module adds s3 and hdfs;
 * {@link LocalExclusiveCreate} is built in); see {@link ExclusiveCreates}.
 */
public interface ExclusiveCreate {
  /** The URI schemes handled, e.g. "s3". */
  Set<String> schemes();

  /**
   * Creates {@code file} holding {@code bytes}, visible all at once.
   *
   * @return true when this call created it; false when the file already existed
   */
  boolean createIfAbsent(ResourceId file, byte[] bytes, PipelineOptions options)
      throws IOException;
}

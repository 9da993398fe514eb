package dev.loadprof.archive.beam;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.ResolveOptions.StandardResolveOptions;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ExclusiveCreate} of a file's scheme. A scheme without one (e.g. gs:// today) falls
 * back to check-then-rename, which keeps runs atomic but does not stop two concurrent writers of
 * one run id from both "winning" (the later manifest replaces the earlier); a warning says so.
 */
public final class ExclusiveCreates {
  private static final Logger LOG = LoggerFactory.getLogger(ExclusiveCreates.class);

  /**
   * The options a job in the CLI's JVM reaches its stores with (the same that Beam's file
   * systems were given), for a create that is not handed any; null until set.
   */
  private static volatile PipelineOptions defaultOptions;

  private ExclusiveCreates() {}

  /** Set with Beam's file systems' defaults, for a job that runs without a Beam runner. */
  public static void setDefaultOptions(PipelineOptions options) {
    defaultOptions = options;
  }

  /** The primitive for {@code scheme}, or null when no module provides one. */
  public static ExclusiveCreate forScheme(String scheme) {
    LocalExclusiveCreate local = new LocalExclusiveCreate();
    if (local.schemes().contains(scheme)) {
      return local;
    }
    return StoreModules.create(scheme);
  }

  /** Create-if-absent through the scheme's primitive, or the unguarded fallback. */
  public static boolean createIfAbsent(ResourceId file, byte[] bytes, PipelineOptions options)
      throws IOException {
    ExclusiveCreate primitive = forScheme(file.getScheme());
    if (primitive != null) {
      return primitive.createIfAbsent(file, bytes, options != null ? options : defaultOptions);
    }
    LOG.warn("{}: no create-if-absent for {}:// paths; concurrent archive jobs writing the same"
        + " run id are not guarded (the last one's manifest wins)", file, file.getScheme());
    if (ArchiveLayout.exists(file)) {
      return false;
    }
    ResourceId temp = file.getCurrentDirectory().resolve("." + file.getFilename() + "."
        + java.util.UUID.randomUUID() + ".tmp", StandardResolveOptions.RESOLVE_FILE);
    try (OutputStream out = Channels.newOutputStream(
        FileSystems.create(temp, "application/octet-stream"))) {
      out.write(bytes);
    }
    FileSystems.rename(List.of(temp), List.of(file));
    return true;
  }
}

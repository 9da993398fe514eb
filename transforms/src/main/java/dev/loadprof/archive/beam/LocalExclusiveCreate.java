package dev.loadprof.archive.beam;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;
import java.util.UUID;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Create-if-absent on a local (or NFS/POSIX) disk: the bytes go to a temp file beside the target,
 * which is then hard-linked to the target name. link(2) fails when the name exists and is atomic,
 * unlike rename(2), which would silently replace it.
 */
public final class LocalExclusiveCreate implements ExclusiveCreate {
  @Override
  public Set<String> schemes() {
    return Set.of("file");
  }

  @Override
  public boolean createIfAbsent(ResourceId file, byte[] bytes, PipelineOptions options)
      throws IOException {
    Path target = Paths.get(file.toString());
    Files.createDirectories(target.getParent());
    Path temp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID()
        + ".tmp");
    try {
      Files.write(temp, bytes);
      Files.createLink(target, temp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}

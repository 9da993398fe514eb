package dev.loadprof.stores;

import dev.loadprof.archive.beam.ExclusiveCreate;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.beam.sdk.io.fs.ResourceId;
import org.apache.beam.sdk.io.hdfs.HadoopFileSystemOptions;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Create-if-absent on HDFS: the bytes go to a temp file beside the target, then
 * {@code FileSystem.rename(temp, target)}, which the NameNode performs atomically and refuses
 * (returns false) when the target exists. Beam's own HDFS rename cannot be used: it deletes an
 * existing target first.
 */
public final class HdfsExclusiveCreate implements ExclusiveCreate {
  @Override
  public Set<String> schemes() {
    return Set.of("hdfs");
  }

  @Override
  public boolean createIfAbsent(ResourceId file, byte[] bytes, PipelineOptions options)
      throws IOException {
    Path target = new Path(file.toString());
    FileSystem fs = target.getFileSystem(configuration(options));
    fs.mkdirs(target.getParent());
    Path temp = new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID()
        + ".tmp");
    try {
      try (FSDataOutputStream out = fs.create(temp, false)) {
        out.write(bytes);
      }
      return fs.rename(temp, target);
    } finally {
      fs.delete(temp, false);
    }
  }

  /** The Hadoop configuration Beam's HDFS filesystem uses (HADOOP_CONF_DIR), or the default. */
  static Configuration configuration(PipelineOptions options) {
    List<Configuration> confs = options.as(HadoopFileSystemOptions.class).getHdfsConfiguration();
    return confs == null || confs.isEmpty() ? new Configuration() : confs.get(0);
  }
}

package dev.loadprof.pipelines;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real HDFS (one NameNode, one DataNode) inside the test JVM, from Hadoop's shaded
 * hadoop-client-minicluster, bound to 127.0.0.1.
 */
final class LocalHdfs implements AutoCloseable {
  private final MiniDFSCluster cluster;

  private LocalHdfs(MiniDFSCluster cluster) {
    this.cluster = cluster;
  }

  static LocalHdfs start(Path dir) throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.toString());
    for (String key : new String[] {"dfs.namenode.http-address", "dfs.datanode.address",
        "dfs.datanode.http.address", "dfs.datanode.ipc.address"}) {
      conf.set(key, "127.0.0.1:0");
    }
    conf.set("dfs.datanode.hostname", "127.0.0.1");
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1)
        .nameNodePort(LocalS3Server.freePort()).build();
    cluster.waitActive();
    return new LocalHdfs(cluster);
  }

  /** hdfs://127.0.0.1:PORT */
  String uri() {
    return "hdfs://127.0.0.1:" + cluster.getNameNodePort();
  }

  @Override
  public void close() {
    cluster.shutdown(true);
  }
}

package dev.loadprof.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.apache.beam.sdk.util.ReleaseInfo;
import picocli.CommandLine.IVersionProvider;

/** loadprof --version: the project version, filled into version.properties by the build. */
final class Version implements IVersionProvider {
  static String loadprof() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // reported as unknown below
    }
    return p.getProperty("version", "unknown");
  }

  @Override
  public String[] getVersion() {
    return new String[] {
        "loadprof " + loadprof(),
        "Apache Beam " + ReleaseInfo.getReleaseInfo().getVersion() + ", Java "
            + System.getProperty("java.version")};
  }
}

package dev.loadprof.report;

import dev.loadprof.profile.PprofBuilder;
import java.io.IOException;
import java.io.OutputStream;

/** profile.pb.gz: the real-time profile for go tool pprof (see {@link PprofBuilder}). */
public final class PprofReport implements Report {
  @Override
  public String fileName() {
    return PprofBuilder.FILE_NAME;
  }

  @Override
  public boolean isText() {
    return false;
  }

  @Override
  public void write(Analysis a, OutputStream out) throws IOException {
    Reports.pprof(a).writeGzipped(out);
  }
}

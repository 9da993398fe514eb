package dev.loadprof.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** A report rendered as text and written as UTF-8. */
public interface TextReport extends Report {
  String render(Analysis a);

  @Override
  default void write(Analysis a, OutputStream out) throws IOException {
    out.write(render(a).getBytes(StandardCharsets.UTF_8));
  }
}

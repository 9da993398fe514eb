package dev.loadprof.beam;

import dev.loadprof.model.RunInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.SerializableCoder;

/**
 * Encodes a {@link RunInfo} (one small element per run) with Java serialization. Unlike a plain
 * SerializableCoder it compares elements by their encoding, which RunInfo needs: it has no
 * equals().
 */
public final class RunInfoCoder extends AtomicCoder<RunInfo> {
  private static final RunInfoCoder INSTANCE = new RunInfoCoder();
  private static final SerializableCoder<RunInfo> JAVA = SerializableCoder.of(RunInfo.class);

  public static RunInfoCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(RunInfo value, OutputStream out) throws IOException {
    JAVA.encode(value, out);
  }

  @Override
  public RunInfo decode(InputStream in) throws IOException {
    return JAVA.decode(in);
  }
}

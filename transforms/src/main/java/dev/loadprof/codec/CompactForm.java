package dev.loadprof.codec;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.Serializable;

/**
 * What Java serialization writes in place of an object that a codec of its own writes as bytes
 * (its writeReplace gives one), and reads back as the object: a class descriptor and a byte
 * array, where its own graph was a descriptor per class and an object per value.
 */
public abstract class CompactForm implements Serializable {
  private static final long serialVersionUID = 1L;
  private final byte[] bytes;

  protected CompactForm(byte[] bytes) {
    this.bytes = bytes;
  }

  /** The object the bytes are of; throws when they are damaged. */
  protected abstract Object decode(byte[] bytes) throws IOException;

  /** What the object is, for the error of damaged bytes ("critical path"). */
  protected abstract String what();

  protected final Object readResolve() throws InvalidObjectException {
    try {
      return decode(bytes);
    } catch (IOException | RuntimeException e) {
      InvalidObjectException bad = new InvalidObjectException("unreadable " + what() + " (" + e
          + ")");
      bad.initCause(e);
      throw bad;
    }
  }
}

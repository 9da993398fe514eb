package dev.loadprof.perfdata.symbols;

import dev.loadprof.model.Frame;

/**
 * The frames one thread resolved last, by address and the maps they were resolved in, in front
 * of a {@link Symbolizer}: a callchain's frames repeat from sample to sample, and a hit here costs
 * no boxed key and no shared map. A slot holds the maps object (a process's address space, or the
 * kernel's maps) the frame came from; the maps of a {@link Symbolizer.View} never change, so a
 * frame found for the same maps object and address is the one the symbolizer gives for them.
 * Frames of processes without maps are not kept. One instance per thread.
 */
public final class FrameCache {
  private static final int SLOTS = 1 << 13;

  private final Symbolizer symbolizer;
  private final long[] addresses = new long[SLOTS];
  private final Object[] maps = new Object[SLOTS];
  private final Frame[] frames = new Frame[SLOTS];

  public FrameCache(Symbolizer symbolizer) {
    this.symbolizer = symbolizer;
  }

  /** What {@link Symbolizer#frame(Symbolizer.View, long, boolean)} gives, from here if it can. */
  public Frame frame(Symbolizer.View view, long address, boolean kernel) {
    Object owner = kernel ? view.kernel() : view.space();
    if (owner == null) {
      return symbolizer.frame(view, address, kernel);
    }
    long h = address * 0x9E3779B97F4A7C15L;
    int slot = (int) (h >>> 51) ^ (kernel ? 1 : 0);
    if (maps[slot] == owner && addresses[slot] == address) {
      return frames[slot];
    }
    Frame frame = symbolizer.frame(view, address, kernel);
    maps[slot] = owner;
    addresses[slot] = address;
    frames[slot] = frame;
    return frame;
  }
}

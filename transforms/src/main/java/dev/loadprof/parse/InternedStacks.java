package dev.loadprof.parse;

import dev.loadprof.model.Frame;
import java.util.Arrays;

/**
 * Stacks as shared arrays: a stack of the same frame instances as one read before is handed on as
 * that stack's array, so that a sample costs no array of its own and later stages, which compare
 * stacks, find equal ones by identity first. A stack is found by a hash of its lines' texts, then
 * compared frame by frame by identity; a stack of equal frames that are other instances is simply
 * kept apart (equal stacks are still equal arrays, only the sharing is lost). Bounded like {@link
 * RangeInterner}: cleared when it would hold more than {@code maxStacks} stacks or {@code
 * maxFrames} frames. The arrays handed out must not be changed. One instance per parser.
 */
final class InternedStacks {
  private static final int INITIAL_CAPACITY = 256;

  private final int maxStacks;
  private final long maxFrames;
  private Frame[][] stacks = new Frame[INITIAL_CAPACITY][];
  private int[] hashes = new int[INITIAL_CAPACITY];
  private int size;
  private long frames;

  InternedStacks(int maxStacks, long maxFrames) {
    this.maxStacks = maxStacks;
    this.maxFrames = maxFrames;
  }

  /** A hash of a stack from its lines' hashes, leaf first. */
  static int hash(int[] lineHashes, int n) {
    int h = n;
    for (int i = 0; i < n; i++) {
      h = 31 * h + lineHashes[i];
    }
    return h;
  }

  /**
   * The shared array of the stack {@code frames[0, n)} whose hash is {@code h}: the one kept
   * when a stack of the same instances was seen, else a new copy, which is kept.
   */
  Frame[] of(Frame[] frames, int n, int h) {
    Frame[][] ss = stacks;
    int mask = ss.length - 1;
    int i = spread(h) & mask;
    for (Frame[] s; (s = ss[i]) != null; i = (i + 1) & mask) {
      if (hashes[i] == h && sameFrames(s, frames, n)) {
        return s;
      }
    }
    Frame[] stack = Arrays.copyOf(frames, n);
    if (size >= maxStacks || this.frames + n > maxFrames) {
      clear();
    } else if ((size + 1) * 2 > ss.length) {
      grow();
    }
    insert(stack, h);
    return stack;
  }

  int size() {
    return size;
  }

  private void clear() {
    stacks = new Frame[INITIAL_CAPACITY][];
    hashes = new int[INITIAL_CAPACITY];
    size = 0;
    frames = 0;
  }

  private void grow() {
    Frame[][] oldStacks = stacks;
    int[] oldHashes = hashes;
    stacks = new Frame[oldStacks.length * 2][];
    hashes = new int[stacks.length];
    size = 0;
    frames = 0;
    for (int i = 0; i < oldStacks.length; i++) {
      if (oldStacks[i] != null) {
        insert(oldStacks[i], oldHashes[i]);
      }
    }
  }

  private void insert(Frame[] stack, int h) {
    int mask = stacks.length - 1;
    int i = spread(h) & mask;
    while (stacks[i] != null) {
      i = (i + 1) & mask;
    }
    stacks[i] = stack;
    hashes[i] = h;
    size++;
    frames += stack.length;
  }

  private static boolean sameFrames(Frame[] kept, Frame[] frames, int n) {
    if (kept.length != n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (kept[k] != frames[k]) {
        return false;
      }
    }
    return true;
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }
}

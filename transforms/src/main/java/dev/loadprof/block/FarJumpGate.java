package dev.loadprof.block;

import java.util.ArrayList;
import java.util.List;

/**
 * Holds back records that jump far ahead of the run until later records say whether the jump is
 * real. perf writes records in time order, so one corrupt timestamp is a lone record far from its
 * neighbours: when the records after it are back near the run, it is an outlier and is skipped;
 * when {@link #CONFIRMATIONS} records in a row are near it, the run really went on there (a long
 * sleep, say) and they are all accepted. At most that many records are held, and nothing here
 * depends on the length of the jump, so a timestamp 10^10 s out costs what any other does.
 */
final class FarJumpGate {
  /** Records in a row near a jumped-to time that make the jump real. */
  static final int CONFIRMATIONS = 4;

  /** A record whose fate is not known yet: accepted in order, or skipped as an outlier. */
  interface Held {
    void accept();

    void reject();
  }

  private final long jumpNs;
  private final List<Held> held = new ArrayList<>();
  private long heldNs;

  /** @param jumpNs a record further than this past the run's latest time is held back */
  FarJumpGate(long jumpNs) {
    this.jumpNs = jumpNs;
  }

  /** True when a record at timeNs must go through {@link #offer} rather than straight in. */
  boolean mustOffer(boolean sawRecord, long lastNs, long timeNs) {
    return !held.isEmpty() || (sawRecord && timeNs - lastNs > jumpNs);
  }

  /** True when a record at timeNs goes straight in: neither {@link #farBehind} nor to offer. */
  boolean passes(boolean sawRecord, long lastNs, long timeNs) {
    return !farBehind(sawRecord, lastNs, timeNs) && !mustOffer(sawRecord, lastNs, timeNs);
  }

  /** Whether a record far behind the run's latest time is outside the run altogether. */
  boolean farBehind(boolean sawRecord, long lastNs, long timeNs) {
    return sawRecord && lastNs - timeNs > jumpNs;
  }

  /**
   * Decides on a record for which {@link #mustOffer} said true. Returns false when the record is
   * to be handled now as usual (held records were judged outliers first), true when it is held.
   */
  boolean offer(long lastNs, long timeNs, Held record) {
    if (!held.isEmpty() && Math.abs(timeNs - heldNs) <= jumpNs) {
      held.add(record);
      if (held.size() >= CONFIRMATIONS) {
        release(true);
      }
      return true;
    }
    release(false);
    if (timeNs - lastNs > jumpNs) {
      heldNs = timeNs;
      held.add(record);
      return true;
    }
    return false;
  }

  /** At the end of the input: records still held had nothing near them; they are outliers. */
  void finish() {
    release(false);
  }

  private void release(boolean accept) {
    List<Held> records = new ArrayList<>(held);
    held.clear();
    for (Held r : records) {
      if (accept) {
        r.accept();
      } else {
        r.reject();
      }
    }
  }
}

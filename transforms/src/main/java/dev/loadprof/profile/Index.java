package dev.loadprof.profile;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Interns strings for a pprof string table. Slot 0 is always "" as the format requires, so that
 * an unset string field (0) reads as empty. Ids are handed out in first-use order, which is
 * deterministic as long as the caller visits its data in a deterministic order.
 */
public final class Index {
  private final Map<String, Long> ids = new HashMap<>();
  private final List<String> strings = new ArrayList<>();

  public Index() {
    id("");
  }

  /** The id of s, adding it to the table on first use. Null is treated as "". */
  public long id(String s) {
    String key = s == null ? "" : s;
    Long known = ids.get(key);
    if (known != null) {
      return known;
    }
    long next = strings.size();
    ids.put(key, next);
    strings.add(key);
    return next;
  }

  /** The table in id order; element 0 is "". */
  public List<String> strings() {
    return Collections.unmodifiableList(strings);
  }

  public int size() {
    return strings.size();
  }
}

package dev.loadprof.report.html;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Frame names written once per page and referred to by index, as pprof's string table. */
public final class StringTable {
  private final Map<String, Integer> ids = new HashMap<>();
  private final List<String> names = new ArrayList<>();

  public int index(String s) {
    Integer id = ids.get(s);
    if (id == null) {
      id = names.size();
      ids.put(s, id);
      names.add(s);
    }
    return id;
  }

  public void writeTo(ArrayNode into) {
    names.forEach(into::add);
  }
}

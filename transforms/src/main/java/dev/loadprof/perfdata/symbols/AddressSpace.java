package dev.loadprof.perfdata.symbols;

import dev.loadprof.model.Frame;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One process's memory maps (from MMAP records, inherited at fork, dropped at exec) and the
 * frames already resolved in it. A new map cuts away what it overlaps of older ones, as the
 * kernel's mmap does. Once {@link #share shared} (handed to threads that resolve frames later),
 * its maps never change again: the next map goes into a copy.
 */
final class AddressSpace {
  /** One mapping: [start, end) of the file {@code filename} from file offset {@code pgoff}. */
  record Mapping(long start, long end, long pgoff, String filename, String buildId) {
    Mapping from(long newStart, long newEnd) {
      return new Mapping(newStart, newEnd, pgoff + (newStart - start), filename, buildId);
    }
  }

  private final TreeMap<Long, Mapping> maps = new TreeMap<>();
  private final ConcurrentHashMap<Long, Frame> frames = new ConcurrentHashMap<>();
  /** Set by the one thread that adds maps; read only by that thread. */
  private boolean shared;

  AddressSpace() {}

  /** A copy of {@code parent}'s maps, with its own frame cache. */
  AddressSpace(AddressSpace parent) {
    synchronized (parent) {
      maps.putAll(parent.maps);
    }
  }

  /** From now on, maps are added to a copy ({@link #with}); these maps stay as they are. */
  AddressSpace share() {
    shared = true;
    return this;
  }

  /** This space with {@code mapping} added: itself, or a copy when it is shared. */
  AddressSpace with(Mapping mapping) {
    AddressSpace space = shared ? new AddressSpace(this) : this;
    space.add(mapping);
    return space;
  }

  synchronized void add(Mapping mapping) {
    Map.Entry<Long, Mapping> before = maps.lowerEntry(mapping.start());
    if (before != null && before.getValue().end() > mapping.start()) {
      Mapping old = before.getValue();
      maps.put(old.start(), old.from(old.start(), mapping.start()));
      if (old.end() > mapping.end()) {
        maps.put(mapping.end(), old.from(mapping.end(), old.end()));
      }
    }
    for (Map.Entry<Long, Mapping> inside = maps.ceilingEntry(mapping.start());
        inside != null && inside.getKey() < mapping.end();
        inside = maps.ceilingEntry(mapping.start())) {
      Mapping old = maps.remove(inside.getKey());
      if (old.end() > mapping.end()) {
        maps.put(mapping.end(), old.from(mapping.end(), old.end()));
      }
    }
    maps.put(mapping.start(), mapping);
    frames.clear(); // addresses in the new range mean something else now
  }

  /** The mapping holding {@code address}, or null. */
  synchronized Mapping find(long address) {
    Map.Entry<Long, Mapping> entry = maps.floorEntry(address);
    return entry != null && address < entry.getValue().end() ? entry.getValue() : null;
  }

  ConcurrentHashMap<Long, Frame> frames() {
    return frames;
  }
}

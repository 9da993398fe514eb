package dev.loadprof.archive;

import java.io.Serializable;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which runs of an archive a job reads: some nights, some hosts, or all. Nights and hosts are the
 * archive's partitions (index/night=NIGHT/host=HOST/), so a selection lists only its own part of
 * the index, never the whole archive.
 *
 * <p>Nights: comma-separated UTC dates (YYYY-MM-DD) or inclusive ranges FROM..TO, at most
 * {@value #MAX_NIGHTS} in all. Hosts: comma-separated host names as the traces' headers give
 * them; {@value #UNKNOWN_HOST} selects runs whose trace named no host.
 */
public final class RunSelection implements Serializable {
  public static final int MAX_NIGHTS = 366;
  /** The host partition of runs whose trace did not say its host. */
  public static final String UNKNOWN_HOST = "_";

  private final List<String> nights;
  private final List<String> hosts;

  private RunSelection(List<String> nights, List<String> hosts) {
    this.nights = List.copyOf(nights);
    this.hosts = List.copyOf(hosts);
  }

  public static RunSelection all() {
    return new RunSelection(List.of(), List.of());
  }

  /**
   * @param nights e.g. "2026-11-20,2026-11-01..2026-11-07"; null or blank: every night
   * @param hosts e.g. "web1,web2"; null or blank: every host
   * @throws IllegalArgumentException with a message for the user
   */
  public static RunSelection parse(String nights, String hosts) {
    Set<String> n = new LinkedHashSet<>();
    if (nights != null && !nights.isBlank()) {
      for (String part : nights.split(",")) {
        String p = part.strip();
        int dots = p.indexOf("..");
        LocalDate from = date(dots < 0 ? p : p.substring(0, dots));
        LocalDate to = dots < 0 ? from : date(p.substring(dots + 2));
        if (to.isBefore(from)) {
          throw new IllegalArgumentException("--nights: range " + p + " ends before it starts");
        }
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
          n.add(d.toString());
          if (n.size() > MAX_NIGHTS) {
            throw new IllegalArgumentException("--nights selects more than " + MAX_NIGHTS
                + " nights; give a shorter range or leave --nights out to read every night");
          }
        }
      }
    }
    Set<String> h = new LinkedHashSet<>();
    if (hosts != null && !hosts.isBlank()) {
      for (String part : hosts.split(",")) {
        if (!part.isBlank()) {
          h.add(hostPartition(part.strip()));
        }
      }
    }
    return new RunSelection(new ArrayList<>(n), new ArrayList<>(h));
  }

  private static LocalDate date(String text) {
    try {
      return LocalDate.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("--nights takes dates such as 2026-11-20 or ranges"
          + " such as 2026-11-01..2026-11-07, got '" + text + "'");
    }
  }

  public boolean isAll() {
    return nights.isEmpty() && hosts.isEmpty();
  }

  public List<String> nights() {
    return nights;
  }

  public List<String> hosts() {
    return hosts;
  }

  public boolean matches(String night, String hostPartition) {
    return (nights.isEmpty() || nights.contains(night))
        && (hosts.isEmpty() || hosts.contains(hostPartition));
  }

  /** Checks a night given to loadprof archive --night; returns it. */
  public static String checkNight(String night) {
    try {
      return LocalDate.parse(night).toString();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("--night takes a UTC date such as 2026-11-20, got '"
          + night + "'");
    }
  }

  /**
   * A host name as a path segment: letters, digits, '.', '-' and '_' kept, anything else '_';
   * no host: {@value #UNKNOWN_HOST}. Selections compare these forms.
   */
  public static String hostPartition(String host) {
    if (host == null || host.isEmpty()) {
      return UNKNOWN_HOST;
    }
    StringBuilder b = new StringBuilder(host.length());
    for (char c : host.toCharArray()) {
      b.append(Character.isLetterOrDigit(c) && c < 128 || c == '.' || c == '-' || c == '_'
          ? c : '_');
    }
    return b.toString();
  }

  @Override
  public String toString() {
    return isAll() ? "all runs" : "nights " + (nights.isEmpty() ? "all" : nights)
        + ", hosts " + (hosts.isEmpty() ? "all" : hosts);
  }
}

package dev.loadprof.archive.beam;

import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The store modules' listings and create-if-absent primitives on the classpath, by scheme, found
 * once a JVM: a ServiceLoader reads its services file from every jar of the classpath (~130),
 * and a job on S3 asked for one at each small read and each create (several a run). The
 * modules hold no state of a job's (a client is made from the options each is given, or kept
 * by the module for the options Beam's file systems were set up with).
 */
final class StoreModules {
  private static final Map<String, Optional<StoreListing>> LISTINGS = new ConcurrentHashMap<>();
  private static final Map<String, Optional<ExclusiveCreate>> CREATES =
      new ConcurrentHashMap<>();

  private StoreModules() {}

  /** The listing of {@code scheme}, or null when no module provides one. */
  static StoreListing listing(String scheme) {
    return LISTINGS.computeIfAbsent(scheme, s -> first(StoreListing.class,
        l -> l.schemes().contains(s))).orElse(null);
  }

  /** The create-if-absent of {@code scheme}, or null when no module provides one. */
  static ExclusiveCreate create(String scheme) {
    return CREATES.computeIfAbsent(scheme, s -> first(ExclusiveCreate.class,
        c -> c.schemes().contains(s))).orElse(null);
  }

  private static <T> Optional<T> first(Class<T> service, Predicate<T> serves) {
    for (T module : ServiceLoader.load(service, service.getClassLoader())) {
      if (serves.test(module)) {
        return Optional.of(module);
      }
    }
    return Optional.empty();
  }
}

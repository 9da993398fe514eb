package dev.loadprof.compare;

import java.time.LocalDate;

/**
 * A lasting change in one figure's nightly history: from this night on, its level differs.
 *
 * @param key benchmark (as group), process, function or null, metric
 * @param before median of the nightly values from the previous change point to this night
 * @param after median from this night to the next change point
 * @param deltaPct (after - before) / before in %, null when before is 0
 * @param kind regression or improvement
 * @param attribution real-time figures only, else null
 * @param pValue of E-Divisive's permutation test
 */
public record ChangePoint(
    LocalDate night,
    SeriesKey key,
    double before,
    double after,
    Double deltaPct,
    String kind,
    Attribution attribution,
    double pValue) {}

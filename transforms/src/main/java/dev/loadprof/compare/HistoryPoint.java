package dev.loadprof.compare;

import java.time.LocalDate;

/** One figure on one night: the median over that night's runs of the benchmark. */
public record HistoryPoint(SeriesKey key, LocalDate night, int runs, double value) {}

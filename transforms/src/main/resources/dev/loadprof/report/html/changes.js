'use strict';
// What compare.html and nightly.html share: the verdict, excluded runs and notes, and the table
// of changes in compare.json's shape (nightly.json's changes and change points are the same).
const Changes = (() => {
  const { el, seconds, signedSeconds, pct, fixed } = LP;

  function isTime(metric) {
    return metric === 'real_time' || metric === 'cpu_time' || metric.startsWith('time_at_load_');
  }

  /** A figure in its metric's unit: times as durations, loads to 2 places, fractions in %. */
  function value(metric, v) {
    if (v == null) return '-';
    if (isTime(metric)) return seconds(v);
    if (metric === 'serial_fraction') return pct(100 * v);
    return fixed(v);
  }

  function delta(metric, before, after) {
    return isTime(metric) ? signedSeconds(after - before)
      : (after >= before ? '+' : '−') + value(metric, Math.abs(after - before));
  }

  function deltaPct(d) {
    return d == null ? '-' : (d > 0 ? '+' : '') + d.toFixed(1) + '%';
  }

  /**
   * "p=0.0159", "~ (p=0.42)" when not significant at alpha, the prediction interval with one
   * candidate run, "thresholds only" with one baseline run.
   */
  function significance(r, alpha) {
    if (r.kind === 'missing') return r.note; // ran on one side only: nothing to test
    if (r.p_value == null) return 'thresholds only (1 baseline run)';
    const p = 'p=' + r.p_value.toPrecision(3);
    const sig = r.p_value < alpha;
    let text = sig ? p : '~ (' + p + ')';
    if (r.interval && r.interval.kind === 'prediction') {
      text += (sig ? ', outside' : ', inside') + ' prediction interval ' + value(r.metric, r.interval.low)
        + ' – ' + value(r.metric, r.interval.high);
    } else if (r.interval) {
      text += ', shift ' + r.interval.low.toFixed(1) + '% … ' + r.interval.high.toFixed(1) + '%';
    }
    return text;
  }

  /** "cpu (CPU +79.9 ms, parallelism +0.3 ms)" for real-time figures, else "-". */
  function cause(r) {
    if (!r.cause) return '-';
    return r.cause + ' (CPU ' + signedSeconds(r.cpu_part_ns) + ', parallelism ' + signedSeconds(r.parallelism_part_ns) + ')';
  }

  /** The entity of a row: "process" or "process › function". */
  function entity(r) {
    return r.function == null ? r.process : r.process + ' › ' + r.function;
  }

  /**
   * The changes, in their given order (regressions first); row i gets id idPrefix + i, and the
   * benchmark column when withBenchmark.
   */
  function table(rows, alpha, idPrefix, withBenchmark) {
    const indexed = rows.map((r, i) => Object.assign({ rank: i + 1 }, r));
    const columns = [
      { label: '#', get: (r) => r.rank },
      withBenchmark ? { label: 'benchmark', get: (r) => r.benchmark, text: true } : null,
      { label: 'process', get: (r) => r.process, text: true, cls: 'name' },
      { label: 'function', get: (r) => (r.function == null ? '(whole process)' : r.function), text: true, cls: 'name' },
      { label: 'metric', get: (r) => r.metric.replace(/_/g, ' '), text: true },
      { label: 'baseline', get: (r) => r.baseline, show: (r) => value(r.metric, r.baseline) },
      { label: 'candidate', get: (r) => r.candidate, show: (r) => value(r.metric, r.candidate) },
      { label: 'change', get: (r) => r.delta_pct, fmt: deltaPct },
      { label: 'kind', get: (r) => r.kind || '-', text: true },
      { label: 'significance', get: (r) => (r.p_value == null ? 2 : r.p_value), show: (r) => significance(r, alpha),
        cls: 'text', title: 'Mann–Whitney p (~: not significant at alpha ' + alpha + '), or the prediction interval '
          + 'of a single candidate run' },
      { label: 'cause', get: (r) => r.cause || '', show: cause, text: true },
      // compare.json's processes say whether each figure is a reported change.
      rows.length && 'change' in rows[0] ? { label: 'reported', get: (r) => (r.change ? 'yes' : 'no'), text: true } : null,
    ].filter((c) => c);
    const t = LP.table(columns, indexed, 0, null, true, (r) => ({ id: idPrefix + (r.rank - 1),
      class: r.change === false ? 'figure' : 'change ' + (r.kind || ''), title: r.note }));
    t.classList.add('changes');
    return t;
  }

  function verdict(d) {
    // Beside changes of other figures (waits, load, CPU), say what "no change" is about.
    const scope = d.verdict === 'no change' && d.changes && d.changes.length
      ? el('span', { class: 'scope', text: ' in real time' }) : null;
    return el('div', { class: 'verdict ' + d.verdict.replace(/ /g, '-'), id: 'verdict' },
      el('span', { class: 'big', text: d.verdict }), scope,
      el('span', { text: ' · exit code ' + d.exit_code }));
  }

  /** Runs left out (with their health warnings) and the notes, or null. */
  function excludedAndNotes(d) {
    const parts = [];
    if (d.excluded_runs.length) {
      parts.push(el('div', { class: 'warnings', role: 'alert', id: 'excluded' },
        'Runs left out of the statistics:',
        el('ul', null, ...d.excluded_runs.map((e) => el('li', { text: e.run + ': ' + e.reason })))));
    }
    if (d.notes.length) {
      parts.push(el('div', { class: 'card notes', id: 'notes' },
        el('ul', null, ...d.notes.map((n) => el('li', { text: n })))));
    }
    return parts;
  }

  return { table, value, delta, deltaPct, significance, cause, entity, verdict, excludedAndNotes };
})();

'use strict';
// What compare.html and nightly.html share: the verdict, excluded runs and notes, and the table
// of changes in compare.json's shape (nightly.json's changes and change points are the same).
const Changes = (() => {
  const { el, seconds, signedSeconds, pct, fixed } = LP;

  /**
   * A figure in its unit (compare.json's "unit"): times ("ns") as durations, shares ("fraction")
   * in %, average loads (threads on CPUs, no unit) to 2 places.
   */
  function value(unit, v) {
    if (v == null) return '-';
    if (unit === 'ns') return seconds(v);
    if (unit === 'fraction') return pct(100 * v);
    return fixed(v);
  }

  function delta(unit, before, after) {
    return unit === 'ns' ? signedSeconds(after - before)
      : (after >= before ? '+' : '−') + value(unit, Math.abs(after - before));
  }

  /** A relative change: one decimal below 100 %, none above. */
  function signedPct(x) {
    return (x > 0 ? '+' : '') + x.toFixed(Math.abs(x) < 100 ? 1 : 0) + '%';
  }

  function deltaPct(d) {
    return d == null ? '-' : signedPct(d);
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
    const i = r.interval;
    if (i && i.kind === 'prediction') {
      text += (sig ? ', outside' : ', inside') + ' prediction interval ' + value(r.unit, i.low)
        + ' – ' + value(r.unit, i.high) + (i.clipped ? ' (cut at 0)' : '');
    } else if (i) {
      text += (i.kind === 'ratio_pct' ? ', change ' : ', shift ') + signedPct(i.low) + ' … '
        + signedPct(i.high) + (i.clipped ? ' (cut at −100%)' : '');
    }
    return text;
  }

  /**
   * "cpu (CPU +79.9 ms, parallelism +0.3 ms)" for real-time figures, else "-"; "moved": CPU that
   * moved into a function of a process slowed by interference.
   */
  function cause(r) {
    if (!r.cause) return '-';
    return r.cause + ' (CPU ' + signedSeconds(r.cpu_part_ns) + ', parallelism ' + signedSeconds(r.parallelism_part_ns)
      + (r.cause === 'moved' ? '; moved from the process’s other functions' : '') + ')';
  }

  /**
   * Where on the critical path the change is, where every run of both sides has a path:
   * "serial_section +781 ms (path +777 ms)" for a process (the function whose time on the path
   * changed most the change's way), "+781 ms of the path's +777 ms" for a function; "-" else.
   */
  function critical(r) {
    if (r.critical_path_change_ns == null) return '-';
    const path = signedSeconds(r.critical_path_change_ns);
    if (r.function != null) return signedSeconds(r.critical_function_change_ns) + ' of the path\u2019s ' + path;
    return r.critical_function == null ? 'path ' + path + ', no function changed that way'
      : r.critical_function + ' ' + signedSeconds(r.critical_function_change_ns) + ' (path ' + path + ')';
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
      { label: 'baseline', get: (r) => r.baseline, show: (r) => value(r.unit, r.baseline) },
      { label: 'candidate', get: (r) => r.candidate, show: (r) => value(r.unit, r.candidate) },
      { label: 'change', get: (r) => r.delta_pct, fmt: deltaPct },
      { label: 'kind', get: (r) => r.kind || '-', text: true },
      { label: 'significance', get: (r) => (r.p_value == null ? 2 : r.p_value), show: (r) => significance(r, alpha),
        cls: 'text', title: 'Mann–Whitney (or, with too few runs for it, t-test) p (~: not significant at alpha '
          + alpha + ') with the interval of the change, or the prediction interval of a single candidate run or night' },
      { label: 'cause', get: (r) => r.cause || '', show: cause, text: true },
      // Only when some row has a critical path on both sides: pages without paths are as before.
      rows.some((r) => r.critical_path_change_ns != null) ? { label: 'critical path', get: (r) => r.critical_function
        || '', show: critical, text: true, title: 'the function whose time on the critical path changed most the '
        + 'change\u2019s way (for a function: its own time on the path), and the change of the path' } : null,
      // compare.json's processes say whether each figure is a reported change.
      rows.length && 'change' in rows[0] ? { label: 'reported', get: (r) => (r.change ? 'yes' : 'no'), text: true } : null,
    ].filter((c) => c);
    const t = LP.table(columns, indexed, 0, null, true, (r) => ({ id: idPrefix + (r.rank - 1),
      class: r.change === false ? 'figure' : 'change ' + (r.kind || ''), title: r.note }));
    t.classList.add('changes');
    return t;
  }

  /**
   * The verdict badge; in nightly.html, when the latest night is unchanged but a real-time level
   * is still changed against the nights before its last change point, it says so.
   */
  function verdict(d) {
    // Beside changes of other figures (waits, load, CPU), say what "no change" is about.
    const scope = d.verdict === 'no change' && d.changes && d.changes.length
      ? el('span', { class: 'scope', text: ' in real time' }) : null;
    const still = (d.still_changed || []).filter(() => d.verdict !== 'regression' && d.verdict !== 'missing');
    const stillText = still.length ? el('div', { class: 'still', id: 'still-changed',
      text: 'latest night like the nights since the last change point; real time still changed against the nights '
        + 'before: ' + still.slice(0, 2).map((cp) => entity(cp) + ' ' + deltaPct(cp.delta_pct) + ' since ' + cp.night
        + ' (' + cp.kind + ')').join(', ') + (still.length > 2 ? ' and ' + (still.length - 2) + ' more' : '') })
      : null;
    return el('div', { class: 'verdict ' + d.verdict.replace(/ /g, '-') + (still.length ? ' still-changed' : ''),
      id: 'verdict' },
      el('span', { class: 'big', text: d.verdict }), scope,
      el('span', { text: ' · exit code ' + d.exit_code }), stillText);
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

  return { table, value, delta, deltaPct, signedPct, significance, cause, critical, entity, verdict, excludedAndNotes };
})();

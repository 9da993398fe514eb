'use strict';
// report.html's critical path (issue 33): the path drawn over the thread-state lanes, its flame
// graph, and the what-if table. The data: a process's "critical" (CriticalHtml), or null with
// "critical_absent", the one line that says why there is none.
const Critical = (() => {
  const { el, svg, pct, card } = LP;
  /** Classes of the kinds (CriticalPath.Kind ordinals). */
  const KIND_CLASS = ['running', 'runnable-own', 'runnable-other', 'blocked'];
  const KIND_TEXT = ['running', 'waiting for a CPU its own threads held', 'waiting for a CPU another process held',
    'blocked'];

  /** "+1.20 s", "−0.41 s" in a scale's unit. */
  function signed(scale, ns) {
    return (ns > 0 ? '+' : ns < 0 ? '−' : '±') + scale(Math.abs(ns));
  }

  /**
   * The path over the lanes (an svg from Charts.stateLanes): per piece a line on its thread's
   * lane, per change of thread (a wake-up hop) a line between the two lanes at that instant.
   * Returns the path's ns on threads without a lane.
   */
  function overlay(lanesSvg, cp, runStartNs) {
    const geo = lanesSvg.geometry;
    const g = svg('g', { class: 'critical-path' });
    const scale = LP.durationScale([cp.path_ns]);
    let prev = null;
    let offLane = 0;
    for (const [tid, from, to, kind] of cp.pieces) {
      const j = geo.laneOf.get(tid);
      if (j == null) {
        offLane += to - from;
        prev = null;
        continue;
      }
      // Along the lane's top edge: its middle stays free for the lane's own tooltips.
      const y = geo.top(j) + 2;
      const x1 = geo.x(from);
      const x2 = Math.max(geo.x(to), x1 + 0.8);
      if (prev && prev.tid !== tid) {
        g.append(svg('line', { class: 'cp-hop', x1, x2: x1, y1: prev.y, y2: y, 'data-from': prev.tid, 'data-to': tid }));
      }
      const line = svg('line', { class: 'cp-seg ' + KIND_CLASS[kind], x1, x2, y1: y, y2: y, 'data-tid': tid,
        'data-kind': cp.kinds[kind] });
      line.addEventListener('mousemove', (e) => LP.tip(e, 'critical path: ' + KIND_TEXT[kind], [
        'tid ' + tid + ', ' + ((from - runStartNs) / 1e9).toFixed(3) + ' – ' + ((to - runStartNs) / 1e9).toFixed(3) + ' s',
        'the thread and kind that held most of the path per ' + LP.seconds(cp.piece_ns),
        'the whole path: ' + scale(cp.path_ns)]));
      line.addEventListener('mouseleave', LP.hideTip);
      g.append(line);
      prev = { tid, y };
    }
    lanesSvg.append(g);
    return offLane;
  }

  /** The line under the lanes that says how to read the path drawn on them. */
  function overlayNote(cp, offLaneNs) {
    const scale = LP.durationScale([cp.path_ns, offLaneNs]);
    return el('p', { class: 'note', id: 'critical-legend', text: 'Critical path (black): the chain of running, '
      + 'waiting for a CPU (dashed red) and blocked (thin) intervals, linked through wake-ups (vertical lines), that ends '
      + 'when the process ends; ' + cp.hops.toLocaleString('en') + ' wake-up hops between threads in '
      + cp.segments.toLocaleString('en') + ' segments, drawn as the thread that held most of it per '
      + LP.seconds(cp.piece_ns) + '.' + (offLaneNs > 0 ? ' ' + scale(offLaneNs) + ' of the path is on threads '
      + 'without a lane.' : '') });
  }

  function figures(cp) {
    const blocked = Object.values(cp.blocked_ns).reduce((a, b) => a + b, 0);
    const d = LP.durationScale([cp.path_ns]); // one unit for the figures
    const share = (ns) => (cp.path_ns > 0 ? ' (' + pct(100 * ns / cp.path_ns, 1) + ')' : '');
    return el('div', { class: 'figures', id: 'critical-figures' },
      LP.figure('path', d(cp.path_ns), 'the path\u2019s length: the span of the process'),
      LP.figure('on CPU', d(cp.oncpu_ns) + share(cp.oncpu_ns)),
      LP.figure('waiting for a CPU', d(cp.runnable_own_ns + cp.runnable_other_ns)
        + share(cp.runnable_own_ns + cp.runnable_other_ns),
      'own threads ' + d(cp.runnable_own_ns) + ', other processes ' + d(cp.runnable_other_ns)),
      LP.figure('blocked', d(blocked) + share(blocked), Object.entries(cp.blocked_ns)
        .map(([r, ns]) => r + ' ' + d(ns)).join(', ') || 'no blocked time'),
      LP.figure('threads on it', String(cp.threads.length), cp.threads.slice(0, 8)
        .map((t) => t.name + ' ' + d(t.ns)).join(', ')),
      LP.figure('wake-up hops', cp.hops.toLocaleString('en')));
  }

  /** The flame graph of the path: on-CPU stacks warm, waits (first frame "[…]") blue. */
  function flame(cp, strings) {
    return Flame.graph(cp.flame, strings, {
      modes: [{ id: 'critical', label: 'time on the path', unit: 'time on the critical path', width: (n) => n.v[0] }],
      key: 'critical',
      color: (n) => {
        const oncpu = n.v[0] > 0 ? n.v[1] / n.v[0] : 0;
        let h = 0;
        for (let i = 0; i < n.name.length; i++) h = (h * 31 + n.name.charCodeAt(i)) >>> 0;
        return oncpu >= 0.5 ? 'hsl(' + (8 + (h % 40)) + ',78%,' + (58 + ((h >> 6) % 14)) + '%)'
          : 'hsl(' + (195 + (h % 35)) + ',45%,' + (66 + ((h >> 11) % 16)) + '%)';
      },
      tip: (n, root) => {
        const d = LP.durationScale([n.v[0]]);
        return ['on the path: ' + d(n.v[0]) + ' (' + pct(100 * n.v[0] / (root.v[0] || 1)) + ')',
          'of it on CPU: ' + d(n.v[1])];
      },
      legend: el('div', { class: 'legend' }, el('span', { text: 'width = time on the critical path (each sample of '
        + 'the thread on the path at its instant, full period); warm = on CPU, blue = waits, under a first frame '
        + 'that names them' })),
    });
  }

  /**
   * One row per function: the predicted change of the span if its on-CPU time were 10, 25, 50 %
   * (or a --what-if share) shorter, all in one unit.
   */
  function whatIfTable(cp, strings) {
    const byFn = new Map();
    const shares = new Set();
    for (const [fn, faster, predicted, change, changePct] of cp.what_if) {
      if (!byFn.has(fn)) byFn.set(fn, { fn: strings[fn], at: {} });
      byFn.get(fn).at[faster] = { predicted, change, changePct };
      shares.add(faster);
    }
    const order = [...shares].sort((a, b) => a - b);
    const d = LP.durationScale(cp.what_if.map((w) => w[3]));
    const rows = [...byFn.values()];
    const first = order.includes(25) ? order.indexOf(25) : 0;
    const table = LP.table([
      { label: 'function', get: (r) => r.fn, text: true, cls: 'name' },
      ...order.map((f) => ({
        label: f + ' % faster', get: (r) => (r.at[f] ? r.at[f].change : null),
        show: (r) => (r.at[f] ? signed(d, r.at[f].change) + ' (' + signed((v) => pct(v, 1), r.at[f].changePct)
          + ')' : '-'),
        title: 'predicted change of the run\u2019s real time (span) if its on-CPU time were ' + f + ' % shorter',
      })),
    ], rows, 1 + first, null, true);
    table.id = 'what-if';
    return table;
  }

  /** The card of a process: the path's figures, flame graph and what-if table; or why none. */
  function view(p, strings) {
    const cp = p.critical;
    if (!cp) {
      const c = card('Critical path', el('p', { class: 'note', id: 'no-critical', text: p.critical_absent }));
      c.id = 'critical';
      return { card: c, graph: null };
    }
    const graph = cp.flame ? flame(cp, strings) : null;
    const c = card('Critical path', figures(cp),
      el('h3', { text: 'Where the path spends its time' }),
      graph || el('p', { class: 'note', text: 'No stacks on the path.' }),
      el('h3', { text: 'What if a function were faster' }),
      cp.what_if.length ? whatIfTable(cp, strings) : el('p', { class: 'note', id: 'no-what-if', text: cp.what_if_absent }),
      el('p', { class: 'note', id: 'critical-model', text: 'Predictions from this one recording: the path recomputed '
        + 'with the function\u2019s on-CPU time shortened (' + cp.model + ').' }),
      ...cp.notes.map((n) => el('p', { class: 'note', text: n })));
    c.id = 'critical';
    return { card: c, graph };
  }

  return { overlay, overlayNote, view };
})();

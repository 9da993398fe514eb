'use strict';
// Load histogram and load timeline, as SVG.
const Charts = (() => {
  const { el, svg } = LP;

  function niceMax(v) {
    if (v <= 0) return 1;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 2.5, 5, 10]) if (v <= m * p) return m * p;
    return 10 * p;
  }

  /**
   * The share of time at each load k, one bar per series: side by side, or overlaid (each later
   * series a narrower bar drawn over the earlier ones). series: [{id, label, values}] with
   * values[k-1] fractions; every bar carries data-k, data-series and data-pct.
   */
  function histogram(series, overlay) {
    const n = Math.max(...series.map((s) => s.values.length));
    const W = 600, H = 230, L = 44, R = 10, T = 10, B = 34;
    const max = niceMax(100 * Math.max(0, ...series.flatMap((s) => s.values)));
    const band = (W - L - R) / Math.max(1, n);
    const bar = overlay ? Math.max(1, Math.min(36, band * 0.7)) : Math.max(1, Math.min(22, band * 0.8 / series.length));
    const y = (v) => T + (H - T - B) * (1 - v / max);
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'histogram',
      role: 'img', 'aria-label': series.map((s) => s.label).join(' and ') + ' at each load' });
    const axis = svg('g', { class: 'axis' });
    for (let i = 0; i <= 4; i++) {
      const v = (max * i) / 4;
      axis.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), 'stroke-dasharray': i ? '2 3' : null }),
        svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', text: v + '%' }));
    }
    const step = Math.ceil(n / 24);
    for (let k = 1; k <= n; k++) {
      const x0 = L + band * (k - 1) + band / 2;
      if ((k - 1) % step === 0 || k === n) {
        axis.append(svg('text', { x: x0, y: H - B + 14, 'text-anchor': 'middle', text: String(k) }));
      }
    }
    axis.append(svg('text', { x: (L + W - R) / 2, y: H - 4, 'text-anchor': 'middle',
      text: 'load (threads of the process on a CPU)' }));
    root.append(axis);
    for (let k = 1; k <= n; k++) {
      const x0 = L + band * (k - 1) + band / 2;
      series.forEach((s, i) => {
        const v = 100 * (s.values[k - 1] || 0);
        // Overlaid, each later series is a narrower bar inside the earlier ones, so both stay visible.
        const w = overlay ? bar * Math.pow(0.5, i) : bar;
        const x = overlay ? x0 - w / 2 : x0 - (bar * series.length) / 2 + i * bar;
        const r = svg('rect', { class: 'bar ' + s.id, x, width: w, y: y(v),
          height: Math.max(0, y(0) - y(v)), 'data-k': k, 'data-series': s.id, 'data-pct': v.toFixed(2) });
        r.addEventListener('mousemove', (e) => LP.tip(e, 'load ' + k,
          series.map((t) => t.label + ': ' + LP.pct(100 * (t.values[k - 1] || 0)))));
        r.addEventListener('mouseleave', LP.hideTip);
        root.append(r);
      });
    }
    const legend = el('div', { class: 'legend' }, ...series.map((s) =>
      el('span', null, el('span', { class: 'swatch ' + s.id }), s.label)));
    return el('div', null, legend, root);
  }

  /** CPU time and real time at each load side by side, so the gap between them shows. */
  function cpuAndReal(cpu, real) {
    return histogram([{ id: 'cpu', label: 'CPU time', values: cpu }, { id: 'real', label: 'real time', values: real }]);
  }

  const PHASE_COLORS = ['#2f6fde', '#e8772e', '#2c9a5a', '#9b4fd1', '#c8a312'];

  /**
   * The time axis shared by the load timeline and the thread-state lanes: from the earlier of
   * their starts to the later of their ends (trace-clock ns).
   */
  function sharedAxis(tl, lanes) {
    const spans = [];
    if (tl) spans.push([tl.start_ns, tl.start_ns + tl.thread_ns.length * tl.bucket_ns]);
    if (lanes) spans.push([lanes.start_ns, lanes.start_ns + lanes.buckets * lanes.bucket_ns]);
    if (!spans.length) return null;
    return { start_ns: Math.min(...spans.map((s) => s[0])), end_ns: Math.max(...spans.map((s) => s[1])) };
  }

  /** x of a trace-clock instant on an axis drawn from L to W - R. */
  function xScale(axis, W, L, R) {
    const span = Math.max(1, axis.end_ns - axis.start_ns);
    const f = (ns) => L + ((ns - axis.start_ns) / span) * (W - L - R);
    f.perNs = (W - L - R) / span;
    return f;
  }

  /** Ticks in seconds from the run start along y, every nice step of the axis. */
  function timeTicks(g, axis, runStartNs, x, y) {
    const t0 = axis.start_ns - runStartNs;
    const span = axis.end_ns - axis.start_ns;
    const tickNs = niceMax(span / 8);
    for (let t = Math.ceil(t0 / tickNs) * tickNs; t <= t0 + span; t += tickNs) {
      const tx = x(t + runStartNs);
      g.append(svg('line', { x1: tx, x2: tx, y1: y, y2: y + 4 }),
        svg('text', { x: tx, y: y + 16, 'text-anchor': 'middle', text: (t / 1e9).toFixed(tickNs < 1e8 ? 2 : 1) + ' s' }));
    }
  }

  /**
   * Load over time from the exact run intervals: per bucket a bar of the average load while the
   * process ran (coloured by it) and its peak; below, one band per top function whose opacity is
   * that function's share of the bucket's on-CPU time. axis (optional, see sharedAxis): the
   * span drawn, so that the thread-state lanes below line up with it.
   */
  function timeline(tl, runStartNs, maxLoad, axis) {
    const n = tl.thread_ns.length;
    const phases = tl.phases || [];
    const W = 1000, L = 44, R = 170, T = 10, CH = 150, AX = 28, PH = 16;
    const H = T + CH + AX + phases.length * (PH + 3) + 6;
    const peak = Math.max(1, ...tl.max_load);
    const ymax = niceMax(peak);
    const a = axis || sharedAxis(tl, null);
    const x = xScale(a, W, L, R);
    const bw = tl.bucket_ns * x.perNs;
    const y = (v) => T + CH * (1 - v / ymax);
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'timeline', role: 'img',
      'aria-label': 'load over time' });
    const axisG = svg('g', { class: 'axis' });
    for (let i = 0; i <= 4; i++) {
      const v = (ymax * i) / 4;
      axisG.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), 'stroke-dasharray': i ? '2 3' : null }),
        svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', text: String(+v.toFixed(2)) }));
    }
    timeTicks(axisG, a, runStartNs, x, T + CH);
    axisG.append(svg('text', { x: W - R + 6, y: T + 12, text: 'avg load' }),
      svg('text', { x: W - R + 6, y: T + 26, text: '— peak load' }));
    root.append(axisG);
    const t0 = tl.start_ns - runStartNs;
    let peakPath = '';
    for (let i = 0; i < n; i++) {
      const bx = x(tl.start_ns + i * tl.bucket_ns);
      const avg = tl.thread_ns[i] / tl.bucket_ns;
      const busyLoad = tl.busy_ns[i] ? tl.thread_ns[i] / tl.busy_ns[i] : 0;
      if (avg > 0) {
        const r = svg('rect', { class: 'bucket', x: bx, width: Math.max(0.6, bw - 0.3), y: y(avg),
          height: y(0) - y(avg), fill: LP.loadColor(busyLoad, maxLoad), 'data-avg-load': avg.toFixed(4) });
        const from = t0 + i * tl.bucket_ns;
        r.addEventListener('mousemove', (e) => LP.tip(e,
          (from / 1e9).toFixed(3) + ' – ' + ((from + tl.bucket_ns) / 1e9).toFixed(3) + ' s', [
            'average load: ' + avg.toFixed(2),
            'load while on a CPU: ' + busyLoad.toFixed(2),
            'peak load: ' + tl.max_load[i],
            ...phases.filter((p) => p.cpu_ns[i] > 0).map((p) => p.name + ': ' + LP.seconds(p.cpu_ns[i]) + ' CPU')]));
        r.addEventListener('mouseleave', LP.hideTip);
        root.append(r);
      }
      peakPath += (i ? 'L' : 'M') + bx.toFixed(1) + ' ' + y(tl.max_load[i]).toFixed(1) + 'H' + (bx + bw).toFixed(1);
    }
    root.append(svg('path', { d: peakPath, fill: 'none', stroke: '#3a4150', 'stroke-width': 1, opacity: 0.6 }));
    phases.forEach((p, j) => {
      const top = T + CH + AX + j * (PH + 3);
      const color = PHASE_COLORS[j % PHASE_COLORS.length];
      const g = svg('g', { class: 'phase', 'data-name': p.name });
      g.append(svg('rect', { x: L, y: top, width: W - L - R, height: PH, fill: '#f0f2f6' }));
      for (let i = 0; i < n; i++) {
        if (p.cpu_ns[i] <= 0 || tl.thread_ns[i] <= 0) continue;
        const share = Math.min(1, p.cpu_ns[i] / tl.thread_ns[i]);
        g.append(svg('rect', { x: x(tl.start_ns + i * tl.bucket_ns), y: top, width: Math.max(0.6, bw), height: PH,
          fill: color, opacity: (0.15 + 0.85 * share).toFixed(3) }));
      }
      const label = svg('text', { x: W - R + 6, y: top + PH - 4 });
      const name = p.name;
      label.textContent = name.length > 26 ? name.slice(0, 25) + '…' : name;
      g.append(svg('title', { text: name }), label);
      root.append(g);
    });
    return root;
  }

  /** Colours of the thread states, by ThreadState ordinal (running ... unknown). */
  const STATE_COLORS = ['#2c9a5a', '#e8a33a', '#7fb0e6', '#9b4fd1', '#8a93a3', '#d3d8e0'];

  /**
   * One lane per thread, coloured by its dominant state in each bucket (lanes.lanes[j].states:
   * runs of buckets, each a letter, 'a' + the state's ordinal or '.' for none, and its length when
   * over 1), on the axis of the load
   * timeline above it. names: the states' labels; pid marks the main thread.
   */
  function stateLanes(lanes, names, runStartNs, axis, pid) {
    const W = 1000, L = 44, R = 170, T = 2, LH = 11, GAP = 3, AX = 24;
    const H = T + lanes.lanes.length * (LH + GAP) + AX;
    const x = xScale(axis, W, L, R);
    const bw = lanes.bucket_ns * x.perNs;
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'state-lanes', role: 'img',
      'aria-label': 'thread states over time' });
    const axisG = svg('g', { class: 'axis' });
    timeTicks(axisG, axis, runStartNs, x, T + lanes.lanes.length * (LH + GAP));
    root.append(axisG);
    lanes.lanes.forEach((lane, j) => {
      const top = T + j * (LH + GAP);
      const g = svg('g', { class: 'lane', 'data-tid': lane.tid });
      g.append(svg('rect', { x: L, y: top, width: W - L - R, height: LH, fill: '#f4f5f8' }));
      // The thread and its top function (from the page's data), else its tid.
      const name = lane.name || 'tid ' + lane.tid + (lane.tid === pid ? ' (main)' : '');
      const scale = LP.durationScale(lane.by_state_ns);
      const totals = names.map((s, i) => [s, lane.by_state_ns[i]]).filter((e) => e[1] > 0)
        .map((e) => e[0] + ': ' + scale(e[1]));
      let k = 0;
      for (const [, letter, count] of lane.states.matchAll(/([a-z.])(\d*)/g)) {
        const e = k + (count ? +count : 1);
        if (letter !== '.') {
          const s = letter.charCodeAt(0) - 97;
          const from = lanes.start_ns + k * lanes.bucket_ns;
          const to = lanes.start_ns + e * lanes.bucket_ns;
          const r = svg('rect', { class: 'seg', x: x(from), y: top, width: Math.max(0.6, (e - k) * bw), height: LH,
            fill: STATE_COLORS[s], 'data-state': names[s] });
          r.addEventListener('mousemove', (ev) => LP.tip(ev, name + ': ' + names[s],
            [((from - runStartNs) / 1e9).toFixed(3) + ' – ' + ((to - runStartNs) / 1e9).toFixed(3) + ' s (the state with the most time per '
              + LP.seconds(lanes.bucket_ns) + ')', 'the thread over the axis: ' + totals.join(', ')]));
          r.addEventListener('mouseleave', LP.hideTip);
          g.append(r);
        }
        k = e;
      }
      const label = svg('text', { x: W - R + 6, y: top + LH - 1, text: name.length > 30 ? name.slice(0, 29) + '…' : name });
      label.append(svg('title', { text: name }));
      g.append(label);
      root.append(g);
    });
    // Where each thread's lane is, for what is drawn over the lanes (the critical path).
    root.geometry = { x, laneOf: new Map(lanes.lanes.map((l, j) => [l.tid, j])), top: (j) => T + j * (LH + GAP),
      laneHeight: LH };
    return root;
  }

  /** The states' colours, with each state's thread time when byStateNs is given. */
  function stateLegend(names, byStateNs, only) {
    const scale = byStateNs ? LP.durationScale(byStateNs) : null; // one unit for the legend
    const items = names.map((n, i) => {
      if (only && !only.includes(i)) return null;
      const sw = el('span', { class: 'swatch' });
      sw.style.background = STATE_COLORS[i]; // CSSOM: the CSP allows no style attributes
      return el('span', { class: 'key', 'data-state': n }, sw, n + (byStateNs && byStateNs[i] > 0 ? ' ' + scale(byStateNs[i]) : ''));
    });
    return el('div', { class: 'legend state-legend' }, ...items);
  }

  /**
   * A figure over the nights: one line per series ({id, label, points: [[night, value, runs]]}),
   * nights evenly spaced on x (all of the benchmark's, so a missing night shows as a gap); each
   * mark ({night, href, label}) is a change point: a dashed line at its night and a flag that
   * links to its details. fmt formats a value.
   */
  function trend(title, nights, series, marks, fmt) {
    const W = 560, H = 200, L = 76, R = 26, T = 22, B = 40;
    const max = niceMax(Math.max(0, ...series.flatMap((s) => s.points.map((p) => p[1]))));
    // Durations on the axis in one unit, the one of its top tick.
    const tick = fmt === LP.seconds ? LP.durationScale([max]) : fmt;
    const x = (night) => L + (nights.length > 1 ? (nights.indexOf(night) / (nights.length - 1)) * (W - L - R) : (W - L - R) / 2);
    const y = (v) => T + (H - T - B) * (1 - v / max);
    const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'trend', role: 'img', 'aria-label': title });
    const axis = svg('g', { class: 'axis' });
    for (let i = 0; i <= 4; i++) {
      const v = (max * i) / 4;
      axis.append(svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), 'stroke-dasharray': i ? '2 3' : null }),
        svg('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', text: i ? tick(v) : '0' }));
    }
    const step = Math.ceil(nights.length / 7);
    nights.forEach((night, i) => {
      if (i % step === 0 || i === nights.length - 1) {
        axis.append(svg('text', { x: x(night), y: H - B + 14, 'text-anchor': 'middle', text: night.slice(5) }));
      }
    });
    axis.append(svg('text', { x: L, y: 13, class: 'title', text: title }),
      svg('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', text: 'night (month-day)' }));
    root.append(axis);
    for (const m of marks) {
      const mx = x(m.night);
      const a = svg('a', { class: 'changepoint', href: m.href, 'data-night': m.night },
        svg('title', { text: m.label }),
        svg('line', { x1: mx, x2: mx, y1: T, y2: H - B }),
        svg('path', { d: `M${mx - 6},${T - 2} h12 l-6,8 z` }));
      root.append(a);
    }
    series.forEach((s, i) => {
      const color = PHASE_COLORS[i % PHASE_COLORS.length];
      const pts = s.points.filter((p) => nights.includes(p[0]));
      root.append(svg('polyline', { class: 'line', stroke: color,
        points: pts.map((p) => x(p[0]).toFixed(1) + ',' + y(p[1]).toFixed(1)).join(' ') }));
      for (const p of pts) {
        const c = svg('circle', { class: 'point', cx: x(p[0]), cy: y(p[1]), r: 3.2, fill: color,
          'data-series': s.id, 'data-night': p[0], 'data-value': p[1] });
        c.addEventListener('mousemove', (e) => LP.tip(e, s.label, [p[0] + ': ' + fmt(p[1]), p[2] + (p[2] === 1 ? ' run' : ' runs')]));
        c.addEventListener('mouseleave', LP.hideTip);
        root.append(c);
      }
    });
    const legend = series.length > 1 ? el('div', { class: 'legend' }, ...series.map((s, i) => {
      const sw = el('span', { class: 'swatch' });
      sw.style.background = PHASE_COLORS[i % PHASE_COLORS.length];
      return el('span', { class: 'key' }, sw, s.label);
    })) : null;
    return el('div', { class: 'trendbox' }, root, legend);
  }

  return { histogram, cpuAndReal, sharedAxis, timeline, stateLanes, stateLegend, trend, PHASE_COLORS,
    STATE_COLORS };
})();

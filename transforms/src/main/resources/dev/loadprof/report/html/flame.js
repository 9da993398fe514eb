'use strict';
// The flame graph module (root on top) of every page: click to zoom, search, hover. What the
// widths, colours and hover lines are comes from a spec: realTime() for analyze (widths real or
// CPU time, colour the frame's average load, so serial code is hot red) and diff() for compare
// (widths the candidate's real time or the larger of the two, colour wider/narrower by cause).
const Flame = (() => {
  const { el, svg, pct } = LP;
  const ROW = 18;

  /** [name, [figures...], [children]] with name indices into strings -> linked nodes. */
  function build(a, strings, parent, depth) {
    const node = { name: strings[a[0]], v: a[1], parent, depth, children: [] };
    if (a[2]) for (const c of a[2]) node.children.push(build(c, strings, node, depth + 1));
    return node;
  }

  /**
   * Whether a frame name matches a search: it holds the text (any case), or the text is a
   * regular expression (case-insensitive) that matches it. Names with regex characters are still
   * found by their own text. Null for an empty search; .invalid when the text is no regex.
   */
  function matcher(text) {
    if (text === '') return null;
    const lower = text.toLowerCase();
    let re = null;
    try { re = new RegExp(text, 'i'); } catch (e) { re = null; }
    const m = (name) => name.toLowerCase().includes(lower) || (re !== null && re.test(name));
    m.invalid = re === null;
    return m;
  }

  /**
   * The function's callers and callees over the whole graph, as two trees in the page's array
   * form ([name index, figures, children]) over strings of their own: every outermost frame of
   * the function (a recursion counts once) adds its figures to the function, to each of its
   * callers up to the root (callers: the function on top, who called it below), and to what it
   * called (callees). Null when no frame has that name.
   */
  function sandwichTrees(root, name) {
    const tops = [];
    (function walk(n, inside) {
      const is = n !== root && n.name === name;
      if (is && !inside) tops.push(n);
      for (const c of n.children) walk(c, inside || is);
    })(root, false);
    if (!tops.length) return null;
    const strings = [];
    const ids = new Map();
    const id = (s) => { if (!ids.has(s)) { ids.set(s, strings.length); strings.push(s); } return ids.get(s); };
    const add = (a, v) => { for (let i = 0; i < v.length; i++) a[1][i] += v[i]; };
    const child = (a, nm) => {
      a[2] = a[2] || [];
      let c = a[2].find((k) => strings[k[0]] === nm);
      if (!c) { c = [id(nm), a[1].map(() => 0)]; a[2].push(c); }
      return c;
    };
    const callers = [id(name), root.v.map(() => 0)];
    const callees = [id(name), root.v.map(() => 0)];
    for (const t of tops) {
      add(callers, t.v);
      add(callees, t.v);
      let c = callers;
      for (let a = t.parent; a && a !== root; a = a.parent) { c = child(c, a.name); add(c, t.v); }
      (function merge(src, dst) {
        for (const k of src.children) { const d = child(dst, k.name); add(d, k.v); merge(k, d); }
      })(t, callees);
    }
    const order = (a) => { if (a[2]) { a[2].sort((x, y) => (strings[x[0]] < strings[y[0]] ? -1 : 1)); a[2].forEach(order); } };
    order(callers);
    order(callees);
    return { callers, callees, strings, places: tops.length };
  }

  /** The zoomed views of the page's graphs, in the URL's hash: key=JSON list of frame names. */
  function hashParams() {
    return new URLSearchParams(location.hash.slice(1));
  }

  /**
   * A flame graph in a card body. spec: {modes: [{id, label, unit, width(node)}], color(node),
   * tip(node, root) -> lines, legend: element, attrs(node) -> data attributes (optional), key:
   * the graph's name in the URL hash (optional), sandwich: false to offer no callers view,
   * rootName}. Returns the element, with zoom/search/setMode/sandwich on its .flame for the page
   * (and the browser tests) to call. Keys (with the graph focused): Escape or 0 resets the zoom,
   * - or Backspace zooms out a level, + zooms into the widest frame, / goes to the search;
   * Ctrl or Alt with the wheel zooms in toward the frame under the pointer, or out.
   */
  function graph(tree, strings, spec) {
    const root = build(tree, strings, null, 0);
    root.name = spec.rootName || 'all';
    let zoomed = root;
    let mode = spec.modes[0];
    let query = '';
    let match = null;
    const status = el('span', { class: 'note', 'aria-live': 'polite' });
    const search = el('input', { type: 'search', placeholder: 'search (regex)', 'aria-label': 'search functions',
      oninput: () => { query = search.value; match = matcher(query); draw(); } });
    const group = 'flame-width-' + Math.random().toString(36).slice(2);
    const radios = spec.modes.map((m) => {
      const r = el('input', { type: 'radio', name: group, value: m.id, onchange: () => { mode = m; draw(); } });
      r.checked = m === mode;
      return el('label', null, r, m.label);
    });
    const reset = el('button', { type: 'button', onclick: () => zoom(root) }, 'Reset zoom');
    const callersButton = spec.sandwich === false ? null : el('button', { type: 'button', class: 'callers',
      title: 'who calls the zoomed function, and what it calls, over the whole graph',
      onclick: () => showSandwich(zoomed.name) }, 'Callers');
    const crumbs = el('div', { class: 'crumbs' });
    const host = el('div', { class: 'flame', tabindex: 0, 'aria-label': 'flame graph: Escape resets the zoom, '
      + 'minus zooms out, plus zooms in, slash searches; Ctrl+wheel zooms' });
    const sandwichBox = el('div', { class: 'sandwich' });
    const box = el('div', null,
      el('div', { class: 'controls' }, search, ...(radios.length > 1 ? radios : []), reset, callersButton, status),
      crumbs, host, spec.legend, sandwichBox);

    /** The path of names from the root to a node, without the root. */
    function pathOf(n) {
      const names = [];
      for (let a = n; a && a !== root; a = a.parent) names.unshift(a.name);
      return names;
    }

    function find(names) {
      let n = root;
      for (const name of names) {
        n = n.children.find((c) => c.name === name);
        if (!n) return null;
      }
      return n;
    }

    function zoom(node) {
      zoomed = node;
      if (spec.key) {
        const params = hashParams();
        if (node === root) params.delete(spec.key);
        else params.set(spec.key, JSON.stringify(pathOf(node)));
        history.replaceState(null, '', '#' + params.toString());
      }
      if (callersButton) callersButton.disabled = zoomed === root;
      draw();
    }

    function width(n) {
      return mode.width(n);
    }

    /** Frames to draw: the zoomed frame's ancestors full width, then its subtree. */
    function layout(W) {
      const total = width(zoomed) || 1;
      const frames = [];
      const chain = [];
      for (let a = zoomed.parent; a; a = a.parent) chain.unshift(a);
      chain.forEach((a) => frames.push({ n: a, x: 0, w: W, ancestor: true }));
      (function lay(n, x, w) {
        if (w < 0.5) return;
        frames.push({ n, x, w, ancestor: false });
        // Children never overflow their parent (with max-of-two widths they could).
        const sum = n.children.reduce((s, c) => s + width(c), 0);
        const scale = sum > width(n) && sum > 0 ? width(n) / sum : 1;
        let cx = x;
        for (const c of n.children) {
          const cw = (width(c) * scale / total) * W;
          lay(c, cx, cw);
          cx += cw;
        }
      })(zoomed, 0, W);
      return { frames, chain, total };
    }

    function draw() {
      LP.hideTip();
      const W = Math.max(400, host.clientWidth || 1000);
      const { frames, chain, total } = layout(W);
      const depth = Math.max(...frames.map((f) => f.n.depth)) + 1;
      const s = svg('svg', { width: W, height: depth * ROW, viewBox: `0 0 ${W} ${depth * ROW}`,
        role: 'img', 'aria-label': 'flame graph' });
      let matched = 0;
      for (const f of frames) {
        const n = f.n;
        const isMatch = match !== null && match(n.name);
        const g = svg('g', { class: 'frame' + (f.ancestor ? ' ancestor' : '') + (isMatch ? ' match' : ''),
          'data-name': n.name, 'data-depth': n.depth, transform: `translate(${f.x.toFixed(2)},${n.depth * ROW})` });
        if (spec.attrs) for (const [k, v] of Object.entries(spec.attrs(n))) g.setAttribute(k, v);
        g.append(svg('rect', { width: Math.max(0.5, f.w - 0.5).toFixed(2), height: ROW - 1, rx: 1.5,
          fill: spec.color(n) }));
        if (f.w > 24) {
          const chars = Math.floor((f.w - 6) / 6.7);
          const label = n.name.length > chars ? n.name.slice(0, Math.max(1, chars - 1)) + '…' : n.name;
          g.append(svg('text', { x: 3, y: ROW - 6, text: label }));
        }
        g.node = n;
        g.addEventListener('click', () => zoom(n));
        g.addEventListener('mousemove', (e) => LP.tip(e, n.name, spec.tip(n, root)));
        g.addEventListener('mouseleave', LP.hideTip);
        s.append(g);
        if (isMatch && !f.ancestor && !hasMatchedAncestor(n)) matched += width(n);
      }
      host.classList.toggle('searching', match !== null);
      host.replaceChildren(s);
      crumbs.textContent = [...chain, zoomed].map((a) => a.name).join(' › ');
      const count = s.querySelectorAll('.frame.match').length;
      status.textContent = match === null ? ''
        : 'matched ' + pct(100 * matched / total) + ' of the ' + mode.unit + ' shown (' + count
          + (count === 1 ? ' frame' : ' frames') + (match.invalid ? '; not a regex: searched as text' : '') + ')';
    }

    function hasMatchedAncestor(n) {
      for (let a = n.parent; a && a !== zoomed.parent; a = a.parent) {
        if (match(a.name)) return true;
      }
      return false;
    }

    /** The callers and callees of a function, as two graphs below this one. */
    function showSandwich(name) {
      const t = sandwichTrees(root, name);
      if (!t) return;
      const sub = (tree, title, note) => {
        const g = graph(tree, t.strings, Object.assign({}, spec, { key: null, sandwich: false, legend: null, rootName: name }));
        return { g, part: el('div', { class: 'sandwich-part' }, el('h3', { text: title }), el('p', { class: 'note', text: note }), g) };
      };
      const callers = sub(t.callers, 'Callers of ' + name,
        'who called it, merged over its ' + t.places + (t.places === 1 ? ' place' : ' places') + ' in the graph: the function on top, its callers below it');
      const callees = sub(t.callees, 'Callees of ' + name, 'what it called, merged over the same places');
      const close = el('button', { type: 'button', onclick: () => sandwichBox.replaceChildren() }, 'Close');
      sandwichBox.replaceChildren(el('div', { class: 'controls' }, close), callers.part, callees.part);
      callers.g.flame.draw();
      callees.g.flame.draw();
      return { callers: callers.g, callees: callees.g };
    }

    host.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' || e.key === '0') zoom(root);
      else if (e.key === '-' || e.key === 'Backspace') zoom(zoomed.parent || root);
      else if (e.key === '+' || e.key === '=') {
        const widest = zoomed.children.reduce((b, c) => (!b || width(c) > width(b) ? c : b), null);
        if (widest) zoom(widest);
      } else if (e.key === '/') search.focus();
      else return;
      e.preventDefault();
    });
    host.addEventListener('wheel', (e) => {
      if (!e.ctrlKey && !e.altKey) return; // a plain wheel scrolls the page
      e.preventDefault();
      if (e.deltaY > 0) {
        zoom(zoomed.parent || root);
        return;
      }
      const g = e.target.closest && e.target.closest('g.frame');
      let n = g && g.node;
      if (!n || n === zoomed) return;
      let inside = false;
      for (let a = n; a; a = a.parent) if (a === zoomed) inside = true;
      if (!inside) return;
      while (n.parent !== zoomed) n = n.parent;
      zoom(n);
    }, { passive: false });

    if (spec.key && hashParams().has(spec.key)) {
      try {
        const n = find(JSON.parse(hashParams().get(spec.key)));
        if (n) zoomed = n;
      } catch (e) { /* a hand-edited hash: the whole graph */ }
    }
    if (callersButton) callersButton.disabled = zoomed === root;

    box.flame = { zoom, draw, root, showSandwich, find,
      zoomed: () => zoomed,
      search: (text) => { search.value = text; query = text; match = matcher(text); draw(); },
      setMode: (id) => {
        mode = spec.modes.find((m) => m.id === id);
        radios.forEach((l) => { l.firstChild.checked = l.firstChild.value === id; });
        draw();
      } };
    // Drawn by the page once the box is in the document and has its width.
    return box;
  }

  function avgLoad(wall, cpu) {
    return wall > 0 ? cpu / wall : 0;
  }

  /** analyze: node.v = [real ns, CPU ns]; maxLoad scales the colours. */
  function realTime(tree, strings, maxLoad) {
    return graph(tree, strings, {
      modes: [
        { id: 'wall', label: 'real-time widths', unit: 'real time', width: (n) => n.v[0] },
        { id: 'cpu', label: 'CPU-time widths', unit: 'CPU time', width: (n) => n.v[1] },
      ],
      key: 'flame',
      color: (n) => LP.loadColor(avgLoad(n.v[0], n.v[1]), maxLoad),
      tip: (n, root) => {
        const d = LP.durationScale([n.v[0], n.v[1]]); // one unit for the tooltip
        return [
          'real time: ' + d(n.v[0]) + ' (' + pct(100 * n.v[0] / (root.v[0] || 1)) + ')',
          'CPU time: ' + d(n.v[1]) + ' (' + pct(100 * n.v[1] / (root.v[1] || 1)) + ')',
          'average load: ' + (n.v[0] > 0 ? avgLoad(n.v[0], n.v[1]).toFixed(2) : '-')];
      },
      legend: loadLegend(maxLoad),
    });
  }

  function loadLegend(maxLoad) {
    const W = 260;
    const s = svg('svg', { width: W + 80, height: 28, viewBox: `0 0 ${W + 80} 28` });
    const top = Math.max(2, maxLoad);
    for (let i = 0; i < W; i += 4) {
      const load = Math.exp((i / W) * Math.log(top));
      s.append(svg('rect', { x: 40 + i, y: 2, width: 4, height: 10, fill: LP.loadColor(load, maxLoad) }));
    }
    s.append(svg('text', { x: 0, y: 11, text: 'load' }),
      svg('text', { x: 40, y: 25, text: '1 (serial)' }),
      svg('text', { x: 40 + W, y: 25, 'text-anchor': 'end', text: String(+top.toFixed(1)) }));
    return el('div', { class: 'legend' }, s,
      el('span', { text: 'colour = average load of the frame (CPU time / real time); width = real or CPU time' }));
  }

  /**
   * analyze's off-CPU graph: node.v = [off-CPU thread ns, 0], the leaves the thread states
   * (names: their labels, by ordinal) coloured as in the thread-state lanes, the functions the
   * threads waited in shades of blue.
   */
  function offCpu(tree, strings, names) {
    const stateOf = (n) => (n.children.length === 0 ? names.indexOf(n.name) : -1);
    return graph(tree, strings, {
      modes: [{ id: 'offcpu', label: 'off-CPU widths', unit: 'off-CPU time', width: (n) => n.v[0] }],
      key: 'offcpu',
      color: (n) => {
        const s = stateOf(n);
        if (s >= 0) return Charts.STATE_COLORS[s];
        let h = 0;
        for (let i = 0; i < n.name.length; i++) h = (h * 31 + n.name.charCodeAt(i)) >>> 0;
        return 'hsl(' + (195 + (h % 35)) + ',' + (45 + ((h >> 6) % 25)) + '%,' + (66 + ((h >> 11) % 16)) + '%)';
      },
      attrs: (n) => (stateOf(n) >= 0 ? { 'data-state': n.name } : {}),
      tip: (n, root) => [
        'off-CPU time: ' + LP.seconds(n.v[0]) + ' (' + pct(100 * n.v[0] / (root.v[0] || 1)) + ')',
        stateOf(n) >= 0 ? 'thread state while off CPU' : 'threads switched out in this frame or below it'],
      legend: el('div', null, Charts.stateLegend(names, null, [1, 2, 3, 4, 5]),
        el('span', { class: 'note', text: 'last frame of each stack = the thread state; blue = where the threads '
          + 'waited; width = thread time off CPU (summed over threads)' })),
    });
  }

  /** The causes of compare (Attribution.Cause ordinals) and their names; -1: unchanged. */
  const CAUSES = ['cpu', 'parallelism', 'both'];
  /** Hues: wider in real time warm, narrower cool; per cause. */
  const HUES = { wider: [0, 32, 320], narrower: [215, 170, 265] };
  /** A relative change this large or more gets the full colour. */
  const FULL = 0.5;

  function diffFigures(n) {
    const [bw, bc, cw, cc, cause] = n.v;
    const top = Math.max(bw, cw);
    return { bw, bc, cw, cc, cause, rel: top > 0 ? (cw - bw) / top : 0 };
  }

  function diffColor(d) {
    if (d.cause < 0 || Math.abs(d.rel) < 0.005) return 'hsl(220,10%,86%)';
    const t = Math.min(1, Math.abs(d.rel) / FULL);
    const hue = HUES[d.rel > 0 ? 'wider' : 'narrower'][d.cause];
    return 'hsl(' + hue + ',' + (35 + 50 * t).toFixed(0) + '%,' + (84 - 32 * t).toFixed(0) + '%)';
  }

  /**
   * compare: node.v = [baseline real, baseline CPU, candidate real, candidate CPU, cause], one
   * average run per side.
   */
  function diff(tree, strings) {
    return graph(tree, strings, {
      modes: [
        { id: 'candidate', label: 'candidate real-time widths', unit: 'candidate real time', width: (n) => n.v[2] },
        { id: 'max', label: 'larger of the two', unit: 'larger real time', width: (n) => Math.max(n.v[0], n.v[2]) },
      ],
      key: 'flame',
      sandwich: false, // a node's cause is its own: it does not add up over places
      color: (n) => diffColor(diffFigures(n)),
      attrs: (n) => ({ 'data-cause': n.v[4] < 0 ? 'unchanged' : CAUSES[n.v[4]], 'data-delta-ns': n.v[2] - n.v[0] }),
      tip: (n) => {
        const d = diffFigures(n);
        const u = LP.durationScale([d.bw, d.cw, d.bc, d.cc]); // one unit for the tooltip
        const delta = d.cw - d.bw;
        return [
          'real time: baseline ' + u(d.bw) + ' · candidate ' + u(d.cw)
            + ' (' + (delta > 0 ? '+' : delta < 0 ? '−' : '±') + u(Math.abs(delta)) + (d.bw > 0 ? ', ' + (d.cw >= d.bw ? '+' : '') + pct(100 * (d.cw - d.bw) / d.bw, 1) : '') + ')',
          'CPU time: baseline ' + u(d.bc) + ' · candidate ' + u(d.cc),
          'average load: baseline ' + (d.bw > 0 ? avgLoad(d.bw, d.bc).toFixed(2) : '-')
            + ' · candidate ' + (d.cw > 0 ? avgLoad(d.cw, d.cc).toFixed(2) : '-'),
          'cause: ' + (d.cause < 0 ? 'unchanged' : CAUSES[d.cause])];
      },
      legend: diffLegend(),
    });
  }

  function diffLegend() {
    const item = (rel, cause, text) => el('span', { class: 'key' },
      el('span', { class: 'swatch', 'data-fill': diffColor({ rel, cause }) }), text);
    const items = [
      item(0.6, 0, 'wider: more CPU work'), item(0.6, 1, 'wider: lost parallelism'), item(0.6, 2, 'wider: both'),
      item(-0.6, 0, 'narrower: less CPU work'), item(-0.6, 1, 'narrower: more parallelism'),
      item(-0.6, 2, 'narrower: both'), item(0, -1, 'unchanged')];
    // Colours by CSSOM, not style attributes, which the page's CSP does not allow.
    items.forEach((i) => { const s = i.firstChild; s.style.background = s.getAttribute('data-fill'); });
    return el('div', { class: 'legend', id: 'diff-legend' }, ...items,
      el('span', { text: 'width = real time per run; colour = whether the frame got wider or narrower in real time, '
        + 'and why (deeper colour: larger relative change)' }));
  }

  return { graph, realTime, offCpu, diff, CAUSES, matcher, sandwichTrees };
})();

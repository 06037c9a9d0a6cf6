// report.html's script: draws the run's tables, charts, drill-down and replays from the JSON
// the page carries (crates/report/src/html). No network, no other file but the PNG plots.
(function () {
  'use strict';

  const api = {
    ready: false,
    loadMs: null,
    replayBalls: function () { return []; },
    setTime: function () {},
    chartSeries: function () { return []; },
  };
  window.poolReport = api;

  const data = JSON.parse(document.getElementById('report-data').textContent);
  const replayData = JSON.parse(document.getElementById('replay-data').textContent);
  const app = document.getElementById('app');

  // ---- small helpers -------------------------------------------------------------------

  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const k of Object.keys(attrs)) {
        const v = attrs[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === 'text') e.textContent = v;
        else if (k === 'html') e.innerHTML = v;
        else if (k === 'onclick') e.addEventListener('click', v);
        else e.setAttribute(k, v === true ? '' : String(v));
      }
    }
    for (const c of children || []) {
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return e;
  }

  // A file of the run as a link: a relative path ("./" first, each part encoded), which can
  // carry no scheme (javascript:, https:) whatever the file is called.
  function local(name) {
    return './' + String(name).split('/').map(encodeURIComponent).join('/');
  }

  // Whether a map made from data has `key` as its own entry, never a name of
  // Object.prototype (constructor, __proto__, toString).
  function own(map, key) {
    return Object.prototype.hasOwnProperty.call(map, key);
  }

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  // The report's Markdown inside cells: **bold** and `code`, nothing else.
  function md(s) {
    return esc(s)
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/`([^`]+)`/g, '<code>$1</code>');
  }

  // report.md's Markdown as blocks: paragraphs, "- " lists, **bold**, *italic*, `code`.
  function inlineMd(s) {
    return md(s).replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?![*\w])/g, '$1<em>$2</em>');
  }
  function mdBlocks(text) {
    const out = document.createDocumentFragment();
    let list = null;
    for (const raw of String(text).split('\n')) {
      const line = raw.trim();
      if (!line) { list = null; continue; }
      if (line.indexOf('- ') === 0) {
        if (!list) { list = el('ul'); out.appendChild(list); }
        list.appendChild(el('li', { html: inlineMd(line.slice(2)) }));
      } else {
        list = null;
        out.appendChild(el('p', { html: inlineMd(line) }));
      }
    }
    return out;
  }

  // Plain text of a cell's Markdown (a tooltip).
  function plain(s) {
    return String(s).replace(/\*\*([^*]+)\*\*/g, '$1').replace(/`([^`]+)`/g, '$1');
  }

  // Copies text to the clipboard (a page opened from file:// may refuse navigator.clipboard:
  // then a selection and execCommand).
  function copyText(text, button) {
    function done(ok) {
      const was = button.dataset.label || button.textContent;
      button.dataset.label = was;
      button.textContent = ok ? 'copied' : 'select and copy';
      setTimeout(function () { button.textContent = was; }, 1200);
    }
    function fallback() {
      const ta = el('textarea', { class: 'copy-buffer', 'aria-hidden': 'true' });
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      let ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      ta.remove();
      done(ok);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else fallback();
  }

  function sci(v) {
    if (v === null || v === undefined || !isFinite(v)) return '–';
    if (v === 0) return '0';
    const a = Math.abs(v);
    if (a >= 0.01 && a < 1e4) return String(+v.toPrecision(3));
    return v.toExponential(2);
  }

  function pct(v) {
    if (v === null || v === undefined || !isFinite(v)) return '–';
    const p = 100 * v;
    return (p === 0 ? '0' : p < 10 ? p.toFixed(1) : p.toFixed(0)) + ' %';
  }

  function dtText(dt) {
    return dt === null || dt === undefined ? 'no dt' : 'dt ' + Number(dt).toExponential(0) + ' s';
  }

  // ---- page frame ----------------------------------------------------------------------

  const run = data.run || {};
  const header = el('header', null, [
    el('h1', { text: 'Pool physics harness: ' + data.title }),
  ]);
  const facts = [];
  if (run.shots !== undefined) facts.push(run.shots + ' shots');
  if (run.engines) facts.push(run.engines.length + ' engine runs besides the reference');
  if (run.wall_time_s !== undefined) facts.push('wall time ' + sci(run.wall_time_s) + ' s on ' + (run.threads || '?') + ' threads');
  if (run.quick) facts.push('a --quick run');
  header.appendChild(el('p', { class: 'facts', text: facts.join(' · ') }));
  const files = el('p', { class: 'files' }, ['Files: ']);
  data.files.forEach(function (f, i) {
    if (i) files.appendChild(document.createTextNode(' · '));
    files.appendChild(el('a', { href: local(f), text: f }));
  });
  header.appendChild(files);
  for (const n of data.notes || []) header.appendChild(el('p', { class: 'note', text: n }));
  const nav = el('nav', null, []);
  header.appendChild(nav);
  app.appendChild(header);

  function section(id, title, intro) {
    const s = el('section', { id: id }, [el('h2', { text: title })]);
    if (intro) s.appendChild(el('p', { class: 'intro', html: md(intro) }));
    nav.appendChild(el('a', { href: '#' + id, text: title }));
    app.appendChild(s);
    return s;
  }

  // ---- filters -------------------------------------------------------------------------

  // The engine filter lists engines by name (a discrete scheme's, a program's, else the
  // engine's: never a version); rows and series without a name (the reference's, the chaos
  // floor's) stay whatever it says. The family filter narrows rows, and the answer's columns.
  const engineNames = new Map(); // name -> true when a discrete scheme
  const familyNames = new Set();
  function noteAttrs(a) {
    if (!a) return;
    if (a.name) engineNames.set(a.name, engineNames.get(a.name) || a.engine === 'discrete');
    if (a.family) familyNames.add(a.family);
  }
  const allTables = [].concat(data.answer || [], data.glance || [], data.rates || [], data.verdicts || [], data.floor_stats || []);
  for (const t of allTables) for (const r of t.rows) noteAttrs(r.attrs);
  for (const c of data.charts) for (const s of c.series) noteAttrs({ name: s.name, engine: s.engine });
  if (data.grid) for (const c of data.grid.columns) familyNames.add(c.family);

  const filters = Object.create(null);
  const filterBar = el('div', { class: 'filters', id: 'filters' }, [el('span', { text: 'Show only: ' })]);
  {
    const sel = el('select', { id: 'filter-engine', 'aria-label': 'engine' }, [el('option', { value: '', text: 'every engine' })]);
    const names = Array.from(engineNames.keys()).sort();
    const groups = [['discrete schemes', names.filter(function (n) { return engineNames.get(n); })],
      ['engines', names.filter(function (n) { return !engineNames.get(n); })]];
    for (const [label, list] of groups) {
      if (!list.length) continue;
      const g = el('optgroup', { label: label });
      for (const v of list) g.appendChild(el('option', { value: v, text: v }));
      sel.appendChild(g);
    }
    filters.engine = sel;
    const fam = el('select', { id: 'filter-family', 'aria-label': 'family' }, [el('option', { value: '', text: 'every family' })]);
    Array.from(familyNames).sort().forEach(function (v) { fam.appendChild(el('option', { value: v, text: v })); });
    filters.family = fam;
    for (const [key, s] of [['engine', sel], ['family', fam]]) {
      s.addEventListener('change', applyFilters);
      filterBar.appendChild(el('label', null, [key + ' ', s]));
    }
  }
  header.appendChild(filterBar);

  const charts = [];
  // Whether an element with these data-* attributes passes the filters: a name only when it
  // has one, a family only when it has one.
  function passes(a) {
    const e = filters.engine.value, f = filters.family.value;
    if (e && a.name && a.name !== e) return false;
    if (f && a.family && a.family !== f) return false;
    return true;
  }
  function applyFilters() {
    document.querySelectorAll('tbody tr, li[data-name], li[data-family]').forEach(function (tr) {
      tr.hidden = !passes(tr.dataset);
    });
    // Columns of a family (the answer table's and grid's).
    document.querySelectorAll('th[data-family], td[data-family]').forEach(function (c) {
      c.hidden = !passes({ family: c.dataset.family });
    });
    // A table whose every row the filters hide (a rate table of another family) goes whole.
    document.querySelectorAll('.table-wrap').forEach(function (w) {
      const rows = w.querySelectorAll('tbody tr');
      w.hidden = rows.length > 0 && Array.from(rows).every(function (r) { return r.hidden; });
    });
    for (const c of charts) {
      c.wrap.hidden = !passes({ family: c.family });
      c.chart.series.forEach(function (s, i) {
        if (i === 0) return;
        const ser = c.spec.series[i - 1];
        // The floor's and the reference's series have no name: always drawn.
        const show = passes({ name: ser.name });
        if (s.show !== show) c.chart.setSeries(i, { show: show });
      });
    }
  }

  // ---- tables --------------------------------------------------------------------------

  function renderTable(t) {
    const table = el('table', { id: t.id || null, class: t.class || null });
    const thead = el('thead');
    const hr = el('tr');
    const colFamily = t.col_family || [];
    t.columns.forEach(function (c, i) {
      const th = el('th', { 'data-key': i, scope: 'col', title: 'sort by ' + c, text: c, 'data-family': colFamily[i] || null });
      th.addEventListener('click', function () { sortBy(table, i, th); });
      hr.appendChild(th);
    });
    thead.appendChild(hr);
    table.appendChild(thead);
    const tbody = el('tbody');
    for (const r of t.rows) {
      const tr = el('tr', { class: r.class || null });
      for (const k of Object.keys(r.attrs || {})) tr.dataset[k] = r.attrs[k];
      r.cells.forEach(function (c, i) {
        const td = el('td', { 'data-family': colFamily[i] || null });
        if (c.v !== undefined && c.v !== null) td.dataset.v = c.v;
        td.dataset.t = c.t;
        if (c.drill) {
          const d = c.drill;
          const ri = runIndex(d);
          const a = el('a', {
            class: 'drill', href: '#drill', html: md(c.t),
            'data-family': d.family, 'data-table': d.table,
            'data-run': ri >= 0 ? shots.runs[ri].run : d.engine + '|' + d.scheme + '|' + (d.dt === null ? '' : d.dt),
            'data-changed': d.changed, 'data-n': d.n,
            title: d.changed + ' of ' + d.n + ' shots changed: click to list them',
          });
          a.addEventListener('click', function (ev) { ev.preventDefault(); openDrill(d); });
          td.appendChild(a);
        } else {
          td.innerHTML = md(c.t);
        }
        if (i === 0) td.className = 'name';
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    const wrap = el('div', { class: 'table-wrap' }, []);
    if (t.caption) wrap.appendChild(el('h3', { html: md(t.caption) }));
    // Wide tables scroll inside the page, not the page itself.
    wrap.appendChild(el('div', { class: 'table-scroll' }, [table]));
    return wrap;
  }

  function sortBy(table, col, th) {
    const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
    table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir);
    const sign = dir === 'ascending' ? 1 : -1;
    const tbody = table.tBodies[0];
    const rows = Array.from(tbody.rows);
    rows.sort(function (a, b) {
      const ca = a.cells[col], cb = b.cells[col];
      const va = ca && ca.dataset.v !== undefined ? parseFloat(ca.dataset.v) : NaN;
      const vb = cb && cb.dataset.v !== undefined ? parseFloat(cb.dataset.v) : NaN;
      // Numbers first, in order; cells without one after them, by text.
      if (!isNaN(va) && !isNaN(vb)) return sign * (va - vb);
      if (!isNaN(va)) return -1;
      if (!isNaN(vb)) return 1;
      const ta = ca ? ca.dataset.t || '' : '', tb = cb ? cb.dataset.t || '' : '';
      if (ta === '' && tb !== '') return 1;
      if (tb === '' && ta !== '') return -1;
      return sign * ta.localeCompare(tb, undefined, { numeric: true });
    });
    for (const r of rows) tbody.appendChild(r);
  }

  // ---- charts --------------------------------------------------------------------------

  const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2',
    '#17becf', '#bcbd22', '#7f7f7f', '#393b79', '#ad494a', '#637939', '#e7ba52', '#7b4173',
    '#3182bd', '#31a354', '#756bb1', '#636363', '#e6550d'];
  const colourOf = Object.create(null);
  let nextColour = 0;
  function colour(key) {
    if (key === 'floor|isolator' || key.indexOf('floor') === 0) return '#000000';
    if (!(key in colourOf)) colourOf[key] = palette[nextColour++ % palette.length];
    return colourOf[key];
  }

  function whiskers(spec) {
    return {
      hooks: {
        draw: function (u) {
          const ctx = u.ctx;
          ctx.save();
          ctx.lineWidth = 1.2 * devicePixelRatio;
          spec.series.forEach(function (s, si) {
            if (!u.series[si + 1].show) return;
            ctx.strokeStyle = u.series[si + 1]._stroke || colour(s.engine + '|' + s.scheme);
            for (let i = 0; i < spec.x.length; i++) {
              const lo = s.lo[i], hi = s.hi[i];
              if (lo === null || hi === null || s.y[i] === null) continue;
              if (s.dash && i !== 0) continue; // a level's interval once, at its left end
              if (spec.y_log && (lo <= 0 || hi <= 0)) continue;
              const x = u.valToPos(spec.x[i], 'x', true);
              const y0 = u.valToPos(lo, 'y', true), y1 = u.valToPos(hi, 'y', true);
              ctx.beginPath();
              ctx.moveTo(x, y0); ctx.lineTo(x, y1);
              ctx.moveTo(x - 3, y0); ctx.lineTo(x + 3, y0);
              ctx.moveTo(x - 3, y1); ctx.lineTo(x + 3, y1);
              ctx.stroke();
            }
          });
          ctx.restore();
        },
      },
    };
  }

  function renderChart(spec, holder, family) {
    const fmt = spec.y_percent ? pct : sci;
    const series = [{ label: spec.x_label, value: function (u, v) { return v === null ? '–' : sci(v); } }];
    spec.series.forEach(function (s) {
      series.push({
        label: s.label,
        stroke: colour(s.engine + '|' + s.scheme + (s.engine === 'event' ? '|' + s.label : '')),
        width: s.dash ? 1.5 : 2,
        dash: s.dash ? [6, 4] : undefined,
        spanGaps: true,
        points: { show: !s.dash, size: 5 },
        value: function (u, v, si, di) {
          if (di === null || di === undefined || v === null || v === undefined) return '–';
          const n = s.n[di];
          return fmt(v) + ' [' + fmt(s.lo[di]) + '–' + fmt(s.hi[di]) + '], n = ' + (n === null ? '–' : n);
        },
      });
    });
    const ys = spec.series.map(function (s) {
      return s.y.map(function (v) { return spec.y_log && v !== null && v <= 0 ? null : v; });
    });
    // Two charts a row in a grid wide enough for them, else one.
    const avail = holder.clientWidth || 900;
    const inGrid = holder.classList.contains('chart-grid');
    const width = Math.max(360, Math.min(inGrid && avail >= 1000 ? Math.floor((avail - 20) / 2) : avail, 1100));
    const opts = {
      title: spec.title,
      width: width,
      height: 320,
      scales: {
        x: { time: false, distr: spec.x_log ? 3 : 1 },
        y: spec.y_percent ? { distr: 1, range: function (u, lo, hi) { return [0, Math.max(0.05, Math.min(1, hi * 1.1))]; } } : { distr: spec.y_log ? 3 : 1 },
      },
      axes: [
        { label: spec.x_label, values: function (u, vals) { return vals.map(function (v) { return v === null ? '' : sci(v); }); } },
        { label: spec.y_label, size: 70, values: function (u, vals) { return vals.map(function (v) { return v === null ? '' : fmt(v); }); } },
      ],
      series: series,
      legend: { live: true },
      plugins: [whiskers(spec)],
    };
    const wrap = el('div', { class: 'chart', id: 'chart-' + spec.id }, []);
    wrap.style.width = width + 'px';
    holder.appendChild(wrap);
    const chart = new uPlot(opts, [spec.x].concat(ys), wrap);
    wrap.appendChild(el('p', { class: 'chart-note', text: spec.note + ' Click a legend entry to hide or show it; hover for values.' }));
    charts.push({ chart: chart, spec: spec, wrap: wrap, family: family });
  }

  // ---- drill-down ----------------------------------------------------------------------

  const shots = data.shots;
  const replays = Object.create(null);
  if (replayData && replayData.replays) {
    for (const r of replayData.replays) replays[r.key] = r;
  }

  function runIndex(d) {
    if (!shots) return -1;
    return shots.runs.findIndex(function (r) {
      if (d.engine === 'floor') return r.run === 'floor';
      const sameDt = (r.dt === null && d.dt === null) ||
        (r.dt !== null && d.dt !== null && Math.abs(r.dt - d.dt) <= 1e-9 * Math.abs(d.dt));
      return r.engine === d.engine && r.scheme === d.scheme && sameDt && r.run !== 'floor';
    });
  }

  function bitsText(bits) {
    const out = [];
    shots.bits.forEach(function (b, i) { if (bits & (1 << i)) out.push(b.replace('_', ' ')); });
    return out.join(', ');
  }

  function outcomeText(fc, pocketed, scratch) {
    return 'first contact ' + (fc || 'none') + '; pocketed ' + (pocketed || 'none') + (scratch ? '; scratch' : '');
  }

  const drill = el('section', { id: 'drill', hidden: true }, []);
  const replay = el('section', { id: 'replay', hidden: true }, []);

  function openDrill(d) {
    drill.innerHTML = '';
    drill.hidden = false;
    const name = d.engine === 'floor' ? 'the chaos floor' : d.engine + ' ' + d.scheme + ' at ' + dtText(d.dt);
    drill.appendChild(el('h3', { text: name + ' on ' + d.family + ' (' + d.table + '): ' + d.changed + ' of ' + d.n + ' shots with a changed outcome' }));
    if (!shots) {
      drill.appendChild(el('p', { text: 'This run wrote no outcomes/shots.csv: no shots to list.' }));
      return;
    }
    const fi = shots.families.findIndex(function (f) { return f[0] === d.family && f[1] === d.table; });
    const ri = runIndex(d);
    const changed = [], other = [], same = [], failed = [];
    // The shots this run played on this family (a cell decided early played fewer than the
    // reference): a shot it never played is not one of its shots.
    const mine = ri >= 0 ? (shots.runs[ri].played.find(function (p) { return p[0] === fi; }) || [fi, []])[1] : null;
    const playedIt = function (idx) {
      return mine === null || mine.some(function (r) { return idx >= r[0] && idx < r[1]; });
    };
    for (const s of shots.list) {
      if (s[0] !== fi || !playedIt(s[1])) continue;
      const diff = s[4].find(function (x) { return x[0] === ri; });
      if (!diff) same.push([s, null]);
      else if (diff[1] & (1 << 8)) failed.push([s, diff]);
      else if (diff[1] & 1) changed.push([s, diff]);
      else other.push([s, diff]);
    }
    drill.appendChild(el('p', { text: changed.length + ' changed outcome, ' + other.length + ' same outcome but other fields differ (positions, first cushion), ' + same.length + ' identical in every field, ' + failed.length + ' failed (not counted). Shots with a replay are marked ▶.' }));
    function list(title, items, open) {
      if (!items.length) return;
      const ul = el('ul', { class: 'shots' });
      for (const it of items) {
        const s = it[0], diff = it[1];
        const fam = shots.families[s[0]];
        const key = fam[0] + '/' + fam[1] + '/' + s[1];
        const has = replays[key] ? '1' : null;
        const ref = s[3];
        let text = 'shot ' + s[1] + ' (' + s[2] + ')';
        if (diff) {
          text += ': ' + bitsText(diff[1]) + ' — reference ' + outcomeText(ref[0], ref[1], ref[2]) + '; this run ' + outcomeText(diff[2], diff[3], diff[4]);
          if (diff[5] !== ref[3]) text += ' (ended ' + diff[5] + ')';
        } else {
          text += ': ' + outcomeText(ref[0], ref[1], ref[2]);
        }
        const changedOutcome = diff && !(diff[1] & (1 << 8)) && (diff[1] & 1);
        // A failed run's shot is not counted in the rate: listed, not as one of its shots.
        const cls = diff && (diff[1] & (1 << 8)) ? 'shot-failed' : changedOutcome ? 'shot-link changed' : 'shot-link';
        const a = el('a', { class: cls, href: '#replay', 'data-key': key, 'data-replay': has, text: (has ? '▶ ' : '') + text });
        a.addEventListener('click', function (ev) {
          ev.preventDefault();
          if (replays[key]) openReplay(replays[key], d, ri >= 0 ? shots.runs[ri].run : null);
          else {
            replay.hidden = false;
            replay.innerHTML = '';
            replay.appendChild(el('p', { text: 'No replay of ' + key + ' in this run (' + ((replayData && replayData.note) || 'no replays written') + '). Shot ' + s[2] + ' can be replayed with `cargo xtask replays`.' }));
          }
        });
        ul.appendChild(el('li', null, [a]));
      }
      drill.appendChild(el('details', { open: open }, [el('summary', { text: title + ' (' + items.length + ')' }), ul]));
    }
    list('Changed outcome', changed, true);
    list('Same outcome, other fields differ', other, changed.length === 0);
    list('Failed', failed, false);
    list('Identical to the reference', same, false);
    drill.scrollIntoView({ block: 'start' });
  }

  // ---- replay --------------------------------------------------------------------------

  const BALL_COLOURS = {
    cue: '#f4f1e6', '1': '#f2c318', '2': '#1f4fb4', '3': '#d22f27', '4': '#5b2a86', '5': '#f07f1b',
    '6': '#1c7c3c', '7': '#7a1f1f', '8': '#111111', '9': '#f2c318', '10': '#1f4fb4', '11': '#d22f27',
    '12': '#5b2a86', '13': '#f07f1b', '14': '#1c7c3c', '15': '#7a1f1f',
  };
  const RUN_STYLE = {
    reference: { label: 'reference (event engine): filled', dash: [], alpha: 1 },
    floor: { label: 'chaos floor (reference, perturbed): dotted rings', dash: [2, 3], alpha: 0.8 },
    engine: { label: 'engine: dashed rings', dash: [7, 4], alpha: 0.9 },
  };

  let current = null;

  function at(track, t) {
    // Position of a flat [t, x, y, ...] track at time t: linear between samples.
    const n = track.length / 3;
    if (n === 0) return null;
    if (t <= track[0]) return [track[1], track[2]];
    if (t >= track[3 * (n - 1)]) return [track[3 * (n - 1) + 1], track[3 * (n - 1) + 2]];
    let lo = 0, hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (track[3 * mid] <= t) lo = mid; else hi = mid;
    }
    const t0 = track[3 * lo], t1 = track[3 * hi];
    const f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
    return [track[3 * lo + 1] + f * (track[3 * hi + 1] - track[3 * lo + 1]),
      track[3 * lo + 2] + f * (track[3 * hi + 2] - track[3 * lo + 2])];
  }

  function ballsAt(rp, runs, t) {
    const out = [];
    for (const r of runs) {
      rp.balls.forEach(function (b, i) {
        const gone = r.pocketed_at && r.pocketed_at[i] !== null && r.pocketed_at[i] !== undefined && t >= r.pocketed_at[i];
        let p = null;
        if (r.tracks && r.tracks[i]) p = at(r.tracks[i], t);
        else if (r.final && r.final[i] && t >= r.end_time) p = r.final[i];
        out.push({ run: r.run, id: b.id, x: p ? p[0] : null, y: p ? p[1] : null, gone: !!gone || (!p && !r.tracks && t >= r.end_time), radius: b.radius });
      });
    }
    return out;
  }

  // replays.json v2 tracks: per ball [t0, x0, y0, dt1, dx1, dy1, ...] in integer units
  // (units.t_s, units.xy_m), the first triple absolute, each later one a difference; decoded
  // once to seconds and metres.
  function decodeTracks(r) {
    if (!r.tracks || r.decoded) return;
    r.decoded = true;
    const u = replayData.units;
    r.tracks = r.tracks.map(function (tr) {
      const out = new Float64Array(tr.length);
      let t = 0, x = 0, y = 0;
      for (let k = 0; k + 2 < tr.length; k += 3) {
        t += tr[k]; x += tr[k + 1]; y += tr[k + 2];
        out[k] = t * u.t_s; out[k + 1] = x * u.xy_m; out[k + 2] = y * u.xy_m;
      }
      return out;
    });
  }

  function openReplay(rp, d, runName) {
    replay.innerHTML = '';
    replay.hidden = false;
    const runs = rp.runs.filter(function (r) {
      return r.run === 'reference' || r.run === 'floor' || (runName && r.run === runName);
    });
    runs.forEach(decodeTracks);
    // The address names the replay, so it can be bookmarked or sent.
    try {
      history.replaceState(null, '', '#replay=' + encodeURIComponent(rp.key) + (runName ? '&run=' + encodeURIComponent(runName) : ''));
    } catch (e) { /* a page opened where history is read-only keeps its address */ }
    const engineRun = runs.find(function (r) { return r.run !== 'reference' && r.run !== 'floor'; });
    // The shot's name carries its seed exactly (a 64-bit seed is more than a JS number holds).
    replay.appendChild(el('h3', { text: 'Replay: ' + rp.family + ' on ' + rp.table + ', shot ' + rp.index + ' (' + rp.shot + ')' }));
    if (runName && !engineRun) {
      replay.appendChild(el('p', { class: 'note', text: 'This replay holds no run of ' + runName + ' (its outcome agrees with the reference on this shot, or the cap left it out): the reference and the floor are shown.' }));
    }
    // What differed, one row per run.
    // A game whose rules read more (a three-cushion point, a snooker foul) gets its column.
    const scored = runs.some(function (r) { return r.outcome && r.outcome.score; });
    const heads = ['run', 'first contact', 'pocketed', 'scratch'].concat(scored ? ['game (its rules)'] : [], ['differs from the reference', 'ended', 'reproduced']);
    const tbl = el('table', { class: 'replay-outcomes' }, [
      el('thead', null, [el('tr', null, heads.map(function (h) { return el('th', { text: h }); }))]),
    ]);
    const tb = el('tbody');
    for (const r of runs) {
      const o = r.outcome || {};
      tb.appendChild(el('tr', null, [
        el('td', { text: r.run }), el('td', { text: o.first_contact || 'none' }), el('td', { text: o.pocketed || 'none' }),
        el('td', { text: o.scratch ? 'yes' : 'no' }),
      ].concat(scored ? [el('td', { text: (o.score || '').split(';').join(', ') || '–' })] : [], [
        el('td', { text: (o.differs || []).join(', ') || (r.run === 'reference' ? '–' : 'nothing') }),
        el('td', { text: sci(r.end_time) + ' s' }),
        el('td', { text: r.reproduced === false ? 'NO: differs from shots.csv' : 'yes' }),
      ])));
    }
    tbl.appendChild(tb);
    replay.appendChild(tbl);
    // Final positions.
    const fin = el('details', null, [el('summary', { text: 'Final positions (m)' })]);
    const ft = el('table', { class: 'finals' }, [el('thead', null, [el('tr', null, [el('th', { text: 'ball' })].concat(runs.map(function (r) { return el('th', { text: r.run }); })))])]);
    const fb = el('tbody');
    rp.balls.forEach(function (b, i) {
      fb.appendChild(el('tr', null, [el('td', { text: b.id })].concat(runs.map(function (r) {
        const p = r.final && r.final[i];
        return el('td', { text: p ? '(' + p[0].toFixed(4) + ', ' + p[1].toFixed(4) + ')' : 'pocketed' });
      }))));
    });
    ft.appendChild(fb);
    fin.appendChild(ft);
    replay.appendChild(fin);

    const endT = Math.max.apply(null, runs.map(function (r) { return r.end_time || 0; }));
    const endMs = Math.max(1, Math.ceil(endT * 1000));
    const legend = el('p', { class: 'replay-legend' }, [
      el('span', { class: 'lg ref', text: RUN_STYLE.reference.label }), ' · ',
      el('span', { class: 'lg floor', text: RUN_STYLE.floor.label }), ' · ',
      el('span', { class: 'lg eng', text: engineRun ? engineRun.run + ': dashed rings' : 'no engine run in this replay' }),
    ]);
    replay.appendChild(legend);
    const body = el('div', { class: 'replay-body' });
    const canvas = el('canvas', { id: 'replay-canvas', width: 900, height: 480, 'aria-label': 'replay of the shot' });
    const slider = el('input', { id: 'replay-slider', type: 'range', min: 0, max: endMs, step: 1, value: 0, 'aria-label': 'time (ms)' });
    const play = el('button', { id: 'replay-play', type: 'button', text: '▶ play' });
    const clock = el('span', { class: 'clock', text: 't = 0.000 s' });
    const events = el('ol', { id: 'replay-events' });
    const all = [];
    for (const r of runs) for (const e of r.events || []) all.push({ run: r.run, e: e });
    all.sort(function (a, b) { return a.e[0] - b.e[0]; });
    for (const it of all) {
      const li = el('li', { 'data-t': it.e[0], class: 'ev-' + (it.run === 'reference' ? 'ref' : it.run === 'floor' ? 'floor' : 'eng'), text: it.e[0].toFixed(4) + ' s · ' + it.run + ' · ' + it.e[1] + ' ' + it.e.slice(2).join(' – ') });
      li.addEventListener('click', function () { api.setTime(Math.round(it.e[0] * 1000)); });
      events.appendChild(li);
    }
    body.appendChild(el('div', { class: 'replay-view' }, [canvas, el('div', { class: 'controls' }, [play, slider, clock])]));
    body.appendChild(el('div', { class: 'replay-events' }, [el('h4', { text: 'Events (click to jump)' }), events]));
    replay.appendChild(body);

    current = { rp: rp, runs: runs, canvas: canvas, slider: slider, clock: clock, events: events, playing: false };
    slider.addEventListener('input', function () { draw(); });
    play.addEventListener('click', function () {
      if (current.playing) { current.playing = false; play.textContent = '▶ play'; return; }
      if (+slider.value >= endMs) slider.value = 0;
      current.playing = true;
      play.textContent = '❚❚ pause';
      let last = performance.now();
      function step(now) {
        if (!current || !current.playing) return;
        slider.value = Math.min(endMs, +slider.value + (now - last));
        last = now;
        draw();
        if (+slider.value >= endMs) { current.playing = false; play.textContent = '▶ play'; return; }
        requestAnimationFrame(step);
      }
      requestAnimationFrame(step);
    });
    draw();
    replay.scrollIntoView({ block: 'start' });
  }

  function draw() {
    if (!current) return;
    const c = current, rp = c.rp, g = rp.geometry;
    const t = +c.slider.value / 1000;
    c.clock.textContent = 't = ' + t.toFixed(3) + ' s';
    const [x0, y0, x1, y1] = g.bounds;
    const pad = 0.06;
    const W = c.canvas.width, scale = W / (x1 - x0 + 2 * pad);
    const H = Math.round((y1 - y0 + 2 * pad) * scale);
    if (c.canvas.height !== H) c.canvas.height = H;
    const px = function (x) { return (x - x0 + pad) * scale; };
    const py = function (y) { return H - (y - y0 + pad) * scale; };
    const ctx = c.canvas.getContext('2d');
    ctx.setLineDash([]);
    ctx.fillStyle = '#0d5c2f';
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = '#1b7a43';
    ctx.fillRect(px(x0), py(y1), (x1 - x0) * scale, (y1 - y0) * scale);
    ctx.strokeStyle = '#5a3a1a';
    ctx.lineWidth = 3;
    ctx.beginPath();
    for (const s of g.segments) { ctx.moveTo(px(s[0]), py(s[1])); ctx.lineTo(px(s[2]), py(s[3])); }
    ctx.stroke();
    for (const a of g.arcs || []) { ctx.beginPath(); ctx.arc(px(a[0]), py(a[1]), a[2] * scale, 0, 2 * Math.PI); ctx.stroke(); }
    ctx.fillStyle = '#050505';
    for (const p of g.pockets) {
      ctx.beginPath();
      ctx.arc(px(p[0]), py(p[1]), Math.min(p[2], 0.08) * scale, 0, 2 * Math.PI);
      ctx.fill();
    }
    // Paths up to t.
    for (const r of c.runs) {
      const kind = r.run === 'reference' ? 'reference' : r.run === 'floor' ? 'floor' : 'engine';
      if (!r.tracks) continue;
      rp.balls.forEach(function (b, i) {
        const tr = r.tracks[i];
        if (!tr || tr.length < 6) return;
        ctx.strokeStyle = BALL_COLOURS[b.id] || '#cccccc';
        ctx.globalAlpha = kind === 'reference' ? 0.75 : 0.6;
        ctx.lineWidth = kind === 'reference' ? 2 : 1.5;
        ctx.setLineDash(RUN_STYLE[kind].dash);
        ctx.beginPath();
        ctx.moveTo(px(tr[1]), py(tr[2]));
        for (let k = 3; k < tr.length; k += 3) {
          if (tr[k] > t) { const p = at(tr, t); ctx.lineTo(px(p[0]), py(p[1])); break; }
          ctx.lineTo(px(tr[k + 1]), py(tr[k + 2]));
        }
        ctx.stroke();
      });
    }
    ctx.globalAlpha = 1;
    // Balls at t.
    const balls = ballsAt(rp, c.runs, t);
    for (const b of balls) {
      if (b.gone || b.x === null) continue;
      const kind = b.run === 'reference' ? 'reference' : b.run === 'floor' ? 'floor' : 'engine';
      const col = BALL_COLOURS[b.id] || '#cccccc';
      ctx.beginPath();
      ctx.arc(px(b.x), py(b.y), b.radius * scale, 0, 2 * Math.PI);
      if (kind === 'reference') {
        ctx.setLineDash([]);
        ctx.fillStyle = col; ctx.fill();
        ctx.strokeStyle = '#000'; ctx.lineWidth = 1; ctx.stroke();
      } else {
        ctx.setLineDash(RUN_STYLE[kind].dash);
        ctx.strokeStyle = kind === 'engine' ? '#ff2bd6' : '#ffffff';
        ctx.lineWidth = 2.5; ctx.stroke();
        ctx.beginPath();
        ctx.arc(px(b.x), py(b.y), b.radius * scale * 0.45, 0, 2 * Math.PI);
        ctx.fillStyle = col; ctx.fill();
      }
    }
    ctx.setLineDash([]);
    // The latest events.
    c.events.querySelectorAll('li').forEach(function (li) { li.classList.toggle('past', +li.dataset.t <= t); });
  }

  api.replayBalls = function () {
    if (!current) return [];
    return ballsAt(current.rp, current.runs, +current.slider.value / 1000).map(function (b) {
      return { run: b.run, id: b.id, x: b.x, y: b.y, gone: b.gone };
    });
  };
  api.setTime = function (ms) {
    if (!current) return;
    current.slider.value = ms;
    current.slider.dispatchEvent(new Event('input', { bubbles: true }));
  };

  // ---- sections ------------------------------------------------------------------------

  // The answer as a picture: engines down, families across, each cell its class's colour
  // (answer_grid.png's), headline and n; a click (or hover) shows the answer table's text.
  function renderGrid(g) {
    const wrap = el('div', { class: 'grid-wrap' });
    const table = el('table', { id: 'answer-grid', class: 'answer-grid' });
    const hr = el('tr', null, [el('th', { text: 'engine', scope: 'col' })]);
    for (const c of g.columns) hr.appendChild(el('th', { scope: 'col', text: c.label, 'data-family': c.family }));
    table.appendChild(el('thead', null, [hr]));
    const detail = el('div', { id: 'grid-detail', class: 'grid-detail', hidden: true });
    const tbody = el('tbody');
    let selected = null;
    for (const r of g.rows) {
      const tr = el('tr', { 'data-name': r.filter, 'data-engine': r.engine, 'data-scheme': r.scheme }, [el('th', { scope: 'row', class: 'name', html: md(r.name) })]);
      r.cells.forEach(function (c, i) {
        const col = g.columns[i];
        if (!c) {
          tr.appendChild(el('td', { class: 'answer-none', 'data-family': col.family, text: '–' }));
          return;
        }
        // One band per part (a series' keeps and changes halves), each its claim's colour.
        const bands = c.parts.map(function (p) {
          const band = el('div', { class: 'band', 'data-legend': p.legend }, p.lines.map(function (line, k) {
            return el('div', { class: k === 0 ? 'headline' : 'n', text: line });
          }));
          band.style.background = p.colour;
          return band;
        });
        const td = el('td', {
          class: 'answer-cell' + (c.decided ? '' : ' open'), 'data-class': c.class, 'data-family': col.family,
          tabindex: 0, title: plain(r.name) + ' on ' + col.label + ': ' + plain(c.text),
        }, bands);
        td.style.background = c.colour;
        function show() {
          if (selected) selected.classList.remove('selected');
          selected = td;
          td.classList.add('selected');
          detail.hidden = false;
          detail.innerHTML = '';
          detail.appendChild(el('p', null, [el('strong', { html: md(r.name) }), ' on ' + col.label + ': ', el('span', { html: md(c.text) })]));
        }
        td.addEventListener('click', show);
        td.addEventListener('keydown', function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); show(); } });
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    }
    table.appendChild(tbody);
    const legend = el('ul', { id: 'answer-legend', class: 'legend' });
    for (const l of g.legend) {
      const sw = el('span', { class: 'swatch' });
      sw.style.background = l.colour;
      legend.appendChild(el('li', { 'data-key': l.key }, [sw, l.label]));
    }
    wrap.appendChild(el('div', { class: 'table-scroll' }, [table]));
    wrap.appendChild(legend);
    wrap.appendChild(el('p', { class: 'chart-note', text: 'Each claim at 5 % per answer; a series shows its keeps half above its changes half. n: shots at the dt shown, then the changed rate\'s excess over the floor in points. Click a cell (or hover) for the whole answer; the table below holds the same cells as text.' }));
    wrap.appendChild(detail);
    return wrap;
  }

  function renderUndecided(intro, items) {
    const box = el('div', { id: 'undecided', class: 'undecided' }, [el('p', { html: inlineMd(intro) })]);
    const ul = el('ul');
    for (const u of items) {
      const code = el('code', { class: 'command', text: u.command });
      const button = el('button', { type: 'button', class: 'copy', title: 'copy the command', text: 'copy' });
      button.addEventListener('click', function () { copyText(u.command, button); });
      ul.appendChild(el('li', { 'data-name': u.filter, 'data-family': u.family }, [el('span', { html: inlineMd(u.text) + ': ' }), code, ' ', button]));
    }
    box.appendChild(ul);
    return box;
  }

  function renderDeclined(list) {
    const box = el('div', { id: 'declined', class: 'declined' }, [el('h3', { text: 'Shots an engine declined or failed' }),
      el('p', { class: 'intro', text: 'They count in no rate (failed in outcomes.csv). An engine that played none of a family\'s shots is "not played" in the answer.' })]);
    const ul = el('ul');
    for (const d of list) {
      const parts = [];
      if (d.declined) parts.push('declined ' + d.declined + ' of its ' + d.runs + ' runs (' + d.declined_shots + ' shots) as outside its model');
      if (d.failed) parts.push((d.declined ? 'failed ' : 'failed or declined ') + d.failed + ' of its ' + d.runs + ' runs');
      const li = el('li', { 'data-name': d.filter, class: 'declined-engine' }, [
        el('strong', { html: md(d.name) }), ': ', el('span', { class: 'declined-count', 'data-declined': d.declined, 'data-failed': d.failed, text: parts.join('; ') }),
      ]);
      if (d.reason) li.appendChild(el('span', null, [' — the first: “', el('span', { class: 'reason', text: d.reason }), '”.']));
      if (d.next) li.appendChild(el('span', { class: 'next', html: ' ' + inlineMd(d.next) }));
      ul.appendChild(li);
    }
    box.appendChild(ul);
    return box;
  }

  if (data.answer) {
    const s = section('answer', 'The answer: where each engine keeps or changes the game', null);
    if (data.guide) s.appendChild(el('div', { id: 'reading-guide', class: 'guide' }, [mdBlocks(data.guide)]));
    if (data.answer_heading) s.appendChild(el('p', { class: 'answer-heading', html: inlineMd(data.answer_heading) }));
    if (data.grid) s.appendChild(renderGrid(data.grid));
    s.appendChild(el('p', { class: 'intro', text: 'The same answers as text (report.md\'s cells): sort by clicking a column header.' }));
    const answerWrap = renderTable(data.answer);
    // Fixed columns filling the page, each at least 115 px (narrower windows scroll it): the
    // cells wrap instead of running off the right edge.
    const at = answerWrap.querySelector('table');
    at.style.minWidth = (150 + 115 * (data.answer.columns.length - 1)) + 'px';
    s.appendChild(answerWrap);
    if (data.undecided && data.undecided.length && data.undecided_intro) s.appendChild(renderUndecided(data.undecided_intro, data.undecided));
    if (data.declined && data.declined.length) s.appendChild(renderDeclined(data.declined));
  } else if (data.declined && data.declined.length) {
    const s = section('answer', 'Shots an engine declined or failed', null);
    s.appendChild(renderDeclined(data.declined));
  }
  if (data.glance) {
    const s = section('glance', 'Every engine at a glance',
      'Order of convergence, error at equal cost, cost to reach 1e-6 s, one-step and whole-shot agreement, engine time per shot (report.md explains each column). Click a header to sort; the filters above narrow every table and chart (the reference and the chaos floor stay).');
    s.appendChild(renderTable(data.glance));
  }
  const gameCharts = data.charts.filter(function (c) { return c.section === 'game'; });
  if (gameCharts.length || (data.rates && data.rates.length)) {
    const s = section('game', 'Does it change the game?',
      'The share of each family\'s shots whose outcome an engine changes, against dt, beside the chaos floor. A dagger marks a rate shown beyond the floor margin, an open circle one not yet decided. **Click a rate** to list the shots it counts; a shot marked ▶ has a replay.');
    const grid = el('div', { class: 'chart-grid' });
    s.appendChild(grid);
    for (const c of gameCharts) renderChart(c, grid, c.family || undefined);
    for (const t of data.rates || []) s.appendChild(renderTable(t));
    s.appendChild(drill);
    s.appendChild(replay);
  }
  const chaos = data.charts.filter(function (c) { return c.section === 'chaos'; });
  if (chaos.length) {
    const s = section('chaos', 'Where chaos starts', null);
    for (const c of chaos) renderChart(c, s);
  }
  if (data.verdicts) {
    const s = section('statistics', 'Does it change the game\'s statistics?',
      'Per family and engine: the game\'s statistics (balls pocketed, scratches, pockets, first contacts, final cue position) against the reference\'s on the same shots, with the verdict (report.md states the margins and the error rate).');
    s.appendChild(renderTable(data.verdicts));
    if (data.floor_stats) {
      s.appendChild(el('h3', { text: 'The reference\'s statistics and the floor\'s' }));
      s.appendChild(renderTable(data.floor_stats));
    }
  }
  const acc = data.charts.filter(function (c) { return c.section === 'accuracy'; });
  if (acc.length) {
    const s = section('accuracy', 'Accuracy and cost against dt', null);
    const grid = el('div', { class: 'chart-grid' });
    s.appendChild(grid);
    for (const c of acc) renderChart(c, grid);
  }
  if (data.images && data.images.length) {
    const s = section('figures', 'Every figure of the run', 'The PNG plots the run wrote beside this page (report.md places each).');
    const grid = el('div', { class: 'figures' });
    for (const img of data.images) {
      grid.appendChild(el('figure', null, [
        el('a', { href: local(img) }, [el('img', { src: local(img), loading: 'lazy', alt: img })]),
        el('figcaption', { text: img }),
      ]));
    }
    s.appendChild(grid);
  }

  applyFilters();
  // A link straight to a replay: report.html#replay=<family/table/index>&run=<run>&t=<ms>.
  (function () {
    const h = new URLSearchParams(location.hash.slice(1));
    const key = h.get('replay');
    const rp = key && own(replays, key) ? replays[key] : null;
    if (!rp) return;
    openReplay(rp, null, h.get('run'));
    if (h.get('t')) api.setTime(+h.get('t'));
  })();
  // Each chart's series as drawn: [{id, family, hidden, series: [{label, name, show}]}].
  api.chartSeries = function () {
    return charts.map(function (c) {
      return {
        id: c.spec.id, family: c.family === undefined ? null : c.family, hidden: c.wrap.hidden,
        series: c.spec.series.map(function (s, i) { return { label: s.label, name: s.name, show: c.chart.series[i + 1].show }; }),
      };
    });
  };
  api.loadMs = Math.round(performance.now());
  api.ready = true;
  document.body.dataset.ready = '1';
})();

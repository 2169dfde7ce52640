// @ts-check
// The dashboard's browser script (plain ES2019, no bundler). It reads the per-suite index that
// data/<suite>.js assigns to window.meshPerfData, and draws one chart per load profile: per mode
// the run medians as a line and their intervals as a band. Filters live in the URL hash, so a
// view can be linked.
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('mesh-perf-config').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  window.meshPerfData = window.meshPerfData || {};
  window.__meshPerfRenders = 0;

  var INVALID = '#9a6700';
  var charts = [];
  var suite = null;
  var state = readHash();

  function $(id) { return document.getElementById(id); }
  function readHash() {
    var out = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) out[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
    });
    return out;
  }
  function writeHash() {
    var parts = Object.keys(state).filter(function (k) { return state[k] !== undefined && state[k] !== ''; })
      .map(function (k) { return encodeURIComponent(k) + '=' + encodeURIComponent(state[k]); });
    try { history.replaceState(null, '', '#' + parts.join('&')); } catch (err) { /* some file:// setups forbid it; the view still works */ }
  }
  function status(text) { $('status').textContent = text; }
  function option(value, label, selected) {
    var o = document.createElement('option');
    o.value = value; o.textContent = label; o.selected = !!selected;
    return o;
  }
  function fill(select, values, current, allLabel) {
    select.innerHTML = '';
    if (allLabel) select.appendChild(option('', allLabel, !current));
    values.forEach(function (v) { select.appendChild(option(v, v, v === current)); });
  }
  function color(i) { return config.palette[i % config.palette.length]; }
  function fmt(v) { return v === undefined || v === null ? '–' : (Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(3)); }
  function day(ms) { return new Date(ms).toISOString().slice(0, 10); }
  function commitUrl(entry) { return entry.repository && entry.sha ? 'https://github.com/' + entry.repository + '/commit/' + entry.sha : null; }

  function loadSuite(name, done) {
    if (window.meshPerfData[name]) return done(window.meshPerfData[name]);
    var script = document.createElement('script');
    script.src = config.dataPrefix + encodeURIComponent(name) + '.js';
    script.onload = function () { done(window.meshPerfData[name]); };
    script.onerror = function () { status('Could not load ' + script.src + '.'); };
    document.head.appendChild(script);
  }

  // In order of first appearance: modes keep the order the runs list them in (as in run reports).
  function keysOf(runs, pick) {
    var seen = {}, out = [];
    runs.forEach(function (r) { pick(r).forEach(function (k) { if (k && !seen[k]) { seen[k] = true; out.push(k); } }); });
    return out;
  }
  var DAY = 86400000;
  var STEPS = [1, 2, 7, 14, 30, 61, 91, 182, 365, 730];
  // Date ticks on whole UTC days, a step that gives at most ~10 labels.
  // The axis spans the first to the last visible run (Chart.js would round a linear axis out to
  // "nice" numbers, days away from any run); one run gets an hour either side.
  function timeBounds(runs) {
    if (!runs.length) return [undefined, undefined];
    var first = Date.parse(runs[0].startedAt);
    var last = Date.parse(runs[runs.length - 1].startedAt);
    return first === last ? [first - DAY / 24, last + DAY / 24] : [first, last];
  }

  function dayTicks(axis) {
    var span = (axis.max - axis.min) / DAY;
    axis.hourly = span < 2;
    if (axis.hourly) {
      // Runs within a day or two: day ticks would leave the axis without a label.
      var HOUR = DAY / 24;
      var hstep = [1, 2, 3, 6, 12, 24].filter(function (s) { return span * 24 / s <= 10; })[0] || 24;
      var ticksH = [];
      for (var h = Math.ceil(axis.min / (hstep * HOUR)) * hstep * HOUR; h <= axis.max; h += hstep * HOUR) ticksH.push({ value: h });
      if (!ticksH.length) ticksH.push({ value: axis.min });
      axis.ticks = ticksH;
      return;
    }
    var step = STEPS.filter(function (s) { return span / s <= 10; })[0] || 730;
    var first = Math.ceil(axis.min / DAY) * DAY;
    var ticks = [];
    for (var t = first; t <= axis.max; t += step * DAY) ticks.push({ value: t });
    axis.ticks = ticks;
  }

  function selectSuite(name) {
    state.suite = name;
    loadSuite(name, function (index) {
      if (!index) { status('No data for suite ' + name + '.'); return; }
      suite = index;
      var runs = index.runs;
      suite.profiles = keysOf(runs, function (r) { return Object.keys(r.modes); }).sort();
      suite.modeNames = keysOf(runs, function (r) {
        var out = []; Object.keys(r.modes).forEach(function (p) { out = out.concat(Object.keys(r.modes[p])); }); return out;
      });
      suite.branches = keysOf(runs, function (r) { return [r.branch]; }).sort();
      if (state.profile && suite.profiles.indexOf(state.profile) < 0) state.profile = '';
      if (state.branch && suite.branches.indexOf(state.branch) < 0) state.branch = '';
      fill($('f-profile'), suite.profiles, state.profile, 'all profiles');
      fill($('f-branch'), suite.branches, state.branch, 'all branches');
      var hidden = (state.hide || '').split(',');
      var box = $('f-modes');
      box.innerHTML = '';
      suite.modeNames.forEach(function (m, i) {
        var label = document.createElement('label');
        var input = document.createElement('input');
        input.type = 'checkbox'; input.value = m; input.checked = hidden.indexOf(m) < 0;
        input.addEventListener('change', onModes);
        label.appendChild(input);
        var swatch = document.createElement('span');
        swatch.textContent = ' ' + m;
        swatch.style.color = color(i);
        label.appendChild(swatch);
        box.appendChild(label);
      });
      render();
    });
  }

  function onModes() {
    var hidden = [];
    Array.prototype.forEach.call($('f-modes').querySelectorAll('input'), function (i) { if (!i.checked) hidden.push(i.value); });
    state.hide = hidden.join(',');
    render();
  }

  function visibleRuns() {
    var runs = suite.runs.filter(function (r) { return !state.branch || r.branch === state.branch; });
    var days = Number(state.range || '365');
    if (days > 0 && runs.length) {
      var newest = Date.parse(runs[runs.length - 1].startedAt);
      runs = runs.filter(function (r) { return Date.parse(r.startedAt) >= newest - days * 86400000; });
    }
    return runs;
  }

  function render() {
    writeHash();
    charts.forEach(function (c) { c.destroy(); });
    charts = [];
    var container = $('charts');
    container.innerHTML = '';
    var runs = visibleRuns();
    var stat = state.stat || 'p99';
    var byCommit = state.axis === 'commit';
    var hidden = (state.hide || '').split(',');
    var profiles = state.profile ? [state.profile] : suite.profiles;
    status(runs.length + ' of ' + suite.runs.length + ' runs of suite ' + suite.suite +
      (runs.length ? ' (' + day(Date.parse(runs[0].startedAt)) + ' … ' + day(Date.parse(runs[runs.length - 1].startedAt)) + ')' : ''));
    profiles.forEach(function (profile, pi) {
      var figure = document.createElement('figure');
      var caption = document.createElement('figcaption');
      caption.className = 'chart-title';
      caption.textContent = suite.suite + ' · ' + profile + ' · ' + (stat === 'p999' ? 'p99.9' : stat) + ' (ms)';
      var box = document.createElement('div');
      box.className = 'chart';
      var canvas = document.createElement('canvas');
      canvas.id = 'trend-' + pi;
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', caption.textContent);
      box.appendChild(canvas);
      figure.appendChild(caption);
      figure.appendChild(box);
      container.appendChild(figure);
      charts.push(trendChart(canvas, runs, profile, stat, byCommit, hidden));
    });
    renderTable(runs);
    window.__meshPerfRenders += 1;
    window.__meshPerfRendered = performance.now();
  }

  function trendChart(canvas, runs, profile, stat, byCommit, hidden) {
    var datasets = [];
    suite.modeNames.forEach(function (mode, mi) {
      if (hidden.indexOf(mode) >= 0) return;
      var points = [];
      runs.forEach(function (r, ri) {
        var m = r.modes[profile] && r.modes[profile][mode];
        var s = m && m.s[stat];
        if (!s) return;
        points.push({ x: byCommit ? ri : Date.parse(r.startedAt), y: s[0], lo: s[1], hi: s[2], run: r,
          invalid: r.verdict === 'invalid' || m.valid < m.n });
      });
      if (!points.length) return;
      var c = color(mi);
      datasets.push({ band: true, label: mode + ' low', data: points.map(function (p) { return { x: p.x, y: p.lo }; }),
        borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: false });
      datasets.push({ band: true, label: mode + ' high', data: points.map(function (p) { return { x: p.x, y: p.hi }; }),
        borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: '-1', backgroundColor: c + '2e' });
      datasets.push({ label: mode, data: points, borderColor: c, backgroundColor: c, borderWidth: 1.5, tension: 0, pointHitRadius: 5,
        pointStyle: function (ctx) { var p = ctx.raw; return p && p.invalid ? 'crossRot' : 'circle'; },
        pointRadius: function (ctx) { var p = ctx.raw; return p && p.invalid ? 6 : (points.length > 200 ? 1.5 : 3); },
        pointBorderColor: function (ctx) { var p = ctx.raw; return p && p.invalid ? INVALID : c; },
        pointBorderWidth: function (ctx) { var p = ctx.raw; return p && p.invalid ? 2 : 1; } });
    });
    return new Chart(canvas, {
      type: 'line',
      data: { datasets: datasets },
      options: {
        parsing: false,
        normalized: true,
        spanGaps: true,
        interaction: { mode: 'nearest', intersect: false },
        scales: {
          x: { type: 'linear', title: { display: true, text: byCommit ? 'commit (run order)' : 'date (UTC)' },
            min: byCommit ? undefined : timeBounds(runs)[0], max: byCommit ? undefined : timeBounds(runs)[1],
            afterBuildTicks: byCommit ? undefined : dayTicks,
            ticks: { maxTicksLimit: 10, autoSkip: byCommit, callback: function (v) {
              if (!byCommit) return this.hourly ? new Date(v).toISOString().slice(5, 16).replace('T', ' ') : day(v);
              var r = runs[v]; return r && Number.isInteger(v) ? (r.sha || r.id).slice(0, 7) : '';
            } } },
          y: { beginAtZero: false, title: { display: true, text: 'latency (ms)' } }
        },
        plugins: {
          legend: { labels: { filter: function (item, data) { return !data.datasets[item.datasetIndex].band; } } },
          tooltip: {
            filter: function (item) { return !item.dataset.band; },
            callbacks: {
              title: function (items) {
                var r = items.length && items[0].raw.run; if (!r) return '';
                return day(Date.parse(r.startedAt)) + ' · ' + (r.sha ? r.sha.slice(0, 7) : r.id) + (r.branch ? ' · ' + r.branch : '') + ' · ' + r.verdict;
              },
              label: function (ctx) { var p = ctx.raw; return ctx.dataset.label + ': ' + fmt(p.y) + ' [' + fmt(p.lo) + ', ' + fmt(p.hi) + ']' + (p.invalid ? ' (invalid)' : ''); }
            }
          }
        },
        onClick: function (event, elements, chart) {
          // Every point under the pointer, then only the run medians (a band edge can sit on the same pixel).
          var hits = chart.getElementsAtEventForMode(event, 'point', { intersect: true }, true)
            .filter(function (h) { return !chart.data.datasets[h.datasetIndex].band; });
          if (!hits.length) return;
          var p = chart.data.datasets[hits[0].datasetIndex].data[hits[0].index];
          if (p && p.run) location.href = p.run.report;
        }
      }
    });
  }

  function renderTable(runs) {
    var body = $('runs').querySelector('tbody');
    body.innerHTML = '';
    runs.slice(-20).reverse().forEach(function (r) {
      var tr = document.createElement('tr');
      function cell(content) { var td = document.createElement('td'); td.className = 'text'; if (typeof content === 'string') td.textContent = content; else td.appendChild(content); tr.appendChild(td); return td; }
      function link(href, text) { var a = document.createElement('a'); a.href = href; a.textContent = text; return a; }
      cell(r.startedAt.replace('T', ' ').slice(0, 16));
      var badge = document.createElement('span'); badge.className = 'badge ' + r.verdict; badge.textContent = (r.verdict === 'inconclusive' ? '\u26a0 ' : '') + r.verdict.toUpperCase(); cell(badge);
      cell(r.branch || '');
      var url = commitUrl(r);
      cell(url ? link(url, (r.sha || '').slice(0, 7)) : (r.sha || '').slice(0, 7));
      var links = cell('');
      links.appendChild(link(r.report, 'report'));
      links.appendChild(link(r.file, 'json'));
      body.appendChild(tr);
    });
  }

  function bind(id, key) {
    var el = $(id);
    if (state[key] !== undefined) el.value = state[key];
    el.addEventListener('change', function () { state[key] = el.value; if (key === 'suite') selectSuite(el.value); else render(); });
  }

  if (!config.suites.length) {
    status('No runs published yet. Publish one with: mesh-perf publish --results <dir> --store <repo>');
    window.__meshPerfRendered = performance.now();
    return;
  }
  fill($('f-suite'), config.suites.map(function (s) { return s.name; }), state.suite);
  bind('f-suite', 'suite'); bind('f-profile', 'profile'); bind('f-stat', 'stat'); bind('f-branch', 'branch');
  bind('f-range', 'range'); bind('f-axis', 'axis');
  selectSuite(state.suite && config.suites.some(function (s) { return s.name === state.suite; }) ? state.suite : config.suites[0].name);
})();

// @ts-check
// The dashboard's browser script (plain ES2019, no bundler). It loads a suite's index shards (the
// months the chosen range needs) and its change points as scripts; assets/store-data.js decodes
// them into window.meshPerfData. It draws one chart per load profile: per mode the run medians as
// a line and their intervals as a band. Filters live in the URL hash, so a view can be linked.
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('mesh-perf-config').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  window.meshPerfData = window.meshPerfData || {};
  window.meshPerfRunPage = config.runPage;
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

  function suiteInfo(name) { return config.suites.filter(function (s) { return s.name === name; })[0]; }
  function monthOf(ms) { return new Date(ms).toISOString().slice(0, 7); }
  var requested = {};
  // Loads the shards of `name` from the month of `fromMs` on (all of them when undefined), and its
  // change points, each file once; then calls done with the suite's data.
  function loadSuite(name, fromMs, done) {
    var info = suiteInfo(name) || { months: [] };
    var base = config.runsPrefix + encodeURIComponent(name) + '/';
    var sources = (info.months || []).filter(function (m) { return fromMs === undefined || m >= monthOf(fromMs); })
      .map(function (m) { return shardSource(name, m); });
    sources.push(base + 'change-points.' + encodeURIComponent(name) + '.js');
    var pending = 0, failed = false;
    function finish() {
      if (pending > 0 || failed) return;
      var data = window.meshPerfData[name];
      if (data && data.errors.length) status('Could not read ' + data.errors.join('; ') + '.');
      done(data);
    }
    sources.forEach(function (src) {
      if (requested[src]) return;
      requested[src] = true;
      pending++;
      var script = document.createElement('script');
      script.src = src;
      script.onload = function () { pending--; finish(); };
      script.onerror = function () { failed = true; status('Could not load ' + src + '.'); };
      document.head.appendChild(script);
    });
    finish();
  }
  function shardSource(name, month) { var n = encodeURIComponent(name); return config.runsPrefix + n + '/index/' + month + '.' + n + '.js'; }
  function everything(name) {
    return ((suiteInfo(name) || {}).months || []).every(function (m) { return requested[shardSource(name, m)]; });
  }
  // The earliest start the view needs: the range back from the newest run of the chosen branch
  // (all history for "all").
  function neededFrom(data) {
    var days = Number(state.range || '365');
    if (days <= 0) return undefined;
    var info = suiteInfo(state.suite);
    var newest = info && info.last ? Date.parse(info.last) : Date.now();
    if (state.branch && data) {
      var own = data.runs.filter(function (r) { return r.branch === state.branch; });
      if (own.length) newest = Date.parse(own[own.length - 1].startedAt);
      else return undefined;
    }
    return newest - days * 86400000;
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
    loadSuite(name, neededFrom(window.meshPerfData[name]), function (index) {
      if (!index) { status('No data for suite ' + name + '.'); return; }
      // The run a change-point link names may be older than the range: load every month once.
      if (state.after && !everything(name) && !index.runs.some(function (r) { return r.id === state.after; })) {
        return loadSuite(name, undefined, function () { selectSuite(name); });
      }
      suite = index;
      var runs = index.runs;
      var info = suiteInfo(name) || {};
      suite.profiles = info.profiles || keysOf(runs, function (r) { return Object.keys(r.modes); }).sort();
      suite.modeNames = info.modes || keysOf(runs, function (r) {
        var out = []; Object.keys(r.modes).forEach(function (p) { out = out.concat(Object.keys(r.modes[p])); }); return out;
      });
      suite.branches = info.branches || keysOf(runs, function (r) { return [r.branch]; }).sort();
      suite.total = info.runs || runs.length;
      suite.files = index.files || {};
      suite.changePoints = index.changePoints || [];
      suite.unsplit = index.unsplit || [];
      suite.analysedRuns = index.analysedRuns;
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

  // Draws the view, first loading the months a wider range or another branch needs.
  function render() {
    var from = neededFrom(suite);
    var info = suiteInfo(suite.suite) || { months: [] };
    var missing = (info.months || []).filter(function (m) { return !requested[shardSource(suite.suite, m)] && (from === undefined || m >= monthOf(from)); });
    if (missing.length) { loadSuite(suite.suite, from, function () { render(); }); return; }
    draw();
  }

  // The charts on the first screen are drawn at once with the tables, the others one by one after
  // the page has painted (each is a few dozen milliseconds at a year of daily runs).
  var generation = 0;
  function draw() {
    var drawing = ++generation;
    writeHash();
    charts.forEach(function (c) { c.destroy(); });
    charts = [];
    var container = $('charts');
    container.innerHTML = '';
    var runs = visibleRuns();
    var stat = state.stat || config.defaultStat;
    var byCommit = state.axis === 'commit';
    var hidden = (state.hide || '').split(',');
    var profiles = state.profile ? [state.profile] : suite.profiles;
    status(runs.length + ' of ' + suite.total + ' runs of suite ' + suite.suite +
      (runs.length ? ' (' + day(Date.parse(runs[0].startedAt)) + ' … ' + day(Date.parse(runs[runs.length - 1].startedAt)) + ')' : ''));
    var pending = profiles.map(function (profile, pi) {
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
      return function () { charts.push(trendChart(canvas, runs, profile, stat, byCommit, hidden)); };
    });
    var inView = container.querySelectorAll('canvas');
    while (pending.length && inView[profiles.length - pending.length].getBoundingClientRect().top < window.innerHeight) pending.shift()();
    renderTable(runs);
    renderChangePoints(runs);
    window.__meshPerfRendered = performance.now();
    (function next() {
      if (drawing !== generation) return;
      if (!pending.length) {
        window.__meshPerfRenders += 1;
        window.__meshPerfDrawn = performance.now();
        return;
      }
      pending.shift()();
      setTimeout(next, 0);
    })();
  }

  // Change points are found per branch (pull-request runs left out): the chosen branch's, else
  // the branch with the most runs.
  function changePointBranch() {
    if (state.branch) return state.branch;
    if (suite.mainBranch !== undefined) return suite.mainBranch;
    var counts = {}, best = '', most = -1;
    suite.runs.forEach(function (r) { if (r.pr === undefined) counts[r.branch || ''] = (counts[r.branch || ''] || 0) + 1; });
    Object.keys(counts).sort().forEach(function (b) { if (counts[b] > most) { most = counts[b]; best = b; } });
    return best;
  }
  function pointsOf(profile, metric) {
    var branch = changePointBranch();
    return suite.changePoints.filter(function (cp) { return cp.branch === branch && cp.profile === profile && cp.metric === metric; });
  }
  function cpSize(cp) {
    function pct(v) { return (v >= 0 ? '+' : '') + (cp.metric === 'err' ? (v * 100).toFixed(2) + ' pt' : (v * 100).toFixed(1) + '%'); }
    return pct(cp.size) + ' [' + pct(cp.sizeLow) + ', ' + pct(cp.sizeHigh) + ']';
  }
  function cpId(cp) { return 'cp-' + [cp.profile, cp.mode, cp.metric, cp.after].join('-').replace(/[^A-Za-z0-9_-]+/g, '_'); }

  // Segment medians (dashed) with their intervals (hatched band) and a vertical line at each change.
  function changePointDatasets(profile, stat, mode, c, xOf) {
    var out = [], seen = {};
    pointsOf(profile, stat).filter(function (cp) { return cp.mode === mode; }).forEach(function (cp) {
      cp.segments.forEach(function (seg) {
        var x1 = xOf[seg.from], x2 = xOf[seg.to];
        if (x1 === undefined || x2 === undefined || seen[seg.from]) return;
        seen[seg.from] = true;
        out.push({ band: true, cpBand: true, label: mode + ' segment low', data: [{ x: x1, y: seg.low }, { x: x2, y: seg.low }],
          borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: false });
        out.push({ band: true, cpBand: true, label: mode + ' segment high', data: [{ x: x1, y: seg.high }, { x: x2, y: seg.high }],
          borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: '-1', backgroundColor: c + '40' });
        out.push({ band: true, label: mode + ' segment median', data: [{ x: x1, y: seg.median }, { x: x2, y: seg.median }],
          borderColor: c, borderDash: [6, 4], borderWidth: 2, pointRadius: 0, pointHitRadius: 0, fill: false });
      });
    });
    return out;
  }
  var changeLines = {
    id: 'meshPerfChangeLines',
    afterDatasetsDraw: function (chart) {
      var marks = chart.options.plugins.meshPerfChangeLines || [];
      var ctx = chart.ctx, area = chart.chartArea, xs = chart.scales.x;
      ctx.save();
      marks.forEach(function (m) {
        var px = xs.getPixelForValue(m.x);
        if (px < area.left || px > area.right) return;
        ctx.strokeStyle = m.color; ctx.lineWidth = 1.5; ctx.setLineDash([3, 3]);
        ctx.beginPath(); ctx.moveTo(px, area.top); ctx.lineTo(px, area.bottom); ctx.stroke();
        ctx.setLineDash([]); ctx.fillStyle = m.color; ctx.font = '11px ' + Chart.defaults.font.family;
        ctx.fillText(m.label, Math.min(px + 3, area.right - ctx.measureText(m.label).width), area.top + 11);
      });
      ctx.restore();
    }
  };

  function trendChart(canvas, runs, profile, stat, byCommit, hidden) {
    var datasets = [];
    var marks = [];
    var xOf = {};
    runs.forEach(function (r, ri) { xOf[r.id] = byCommit ? ri : Date.parse(r.startedAt); });
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
      // One look for every point of the line (Chart.js then resolves the points' options once, not
      // per point: a third of a year's chart); invalid runs get crosses drawn over them.
      datasets.push({ label: mode, data: points, borderColor: c, backgroundColor: c, borderWidth: 1.5, tension: 0, pointHitRadius: 5,
        pointStyle: 'circle', pointRadius: points.length > 200 ? 1.5 : 3, pointBorderColor: c, pointBorderWidth: 1 });
      var invalid = points.filter(function (p) { return p.invalid; });
      if (invalid.length) datasets.push({ band: true, mark: true, label: mode + ' invalid', data: invalid, showLine: false,
        pointStyle: 'crossRot', pointRadius: 6, pointBorderColor: INVALID, pointBorderWidth: 2, backgroundColor: INVALID, borderColor: INVALID,
        pointHitRadius: 0 });
      datasets = datasets.concat(changePointDatasets(profile, stat, mode, c, xOf));
      pointsOf(profile, stat).forEach(function (cp) {
        if (cp.mode === mode && xOf[cp.after] !== undefined) marks.push({ x: xOf[cp.after], color: c, label: (cp.size >= 0 ? '▲ ' : '▼ ') + (cp.size * 100).toFixed(0) + '%' });
      });
    });
    return new Chart(canvas, {
      type: 'line',
      data: { datasets: datasets },
      plugins: [changeLines],
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
          meshPerfChangeLines: marks,
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
      body.appendChild(tr);
    });
  }

  // The change points of the chosen branch, newest first, with what changed between the two runs.
  function renderChangePoints(runs) {
    var body = $('change-points').querySelector('tbody');
    var note = $('cp-note');
    body.innerHTML = '';
    var branch = changePointBranch();
    var byId = {};
    suite.runs.forEach(function (r) { byId[r.id] = r; });
    var list = suite.changePoints.filter(function (cp) { return cp.branch === branch && (!state.profile || cp.profile === state.profile); });
    var unsplit = suite.unsplit.filter(function (u) { return u.branch === branch && (!state.profile || u.profile === state.profile); });
    note.textContent = (list.length ? list.length + ' change point' + (list.length === 1 ? '' : 's') : 'No change points') +
      ' on branch ' + (branch || '(none)') + ' over the newest ' + (suite.analysedRuns || 365) + ' runs of each series (p50, p99, p50 ratio to baseline, error rate, CPU per 1000 rps; p < 0.001 and ≥ 2%).' +
      (unsplit.length ? ' Not analysed: ' + unsplit.slice(0, 3).map(function (u) { return u.profile + ' · ' + u.mode + ' · ' + u.metric + ' (' + u.reason + ')'; }).join('; ') + (unsplit.length > 3 ? '; …' : '') + '.' : '');
    var current = null;
    if (state.after && byId[state.after]) {
      var at = byId[state.after].startedAt;
      current = list.filter(function (cp) { return cp.afterStartedAt <= at; })[0] || null;
      if (!current) note.textContent += ' Run ' + state.after + ' falls after no change point.';
    }
    list.forEach(function (cp) {
      var tr = document.createElement('tr');
      tr.id = cpId(cp);
      if (cp === current) tr.className = 'cp-current';
      function cell(content, cls) { var td = document.createElement('td'); td.className = cls || 'text'; if (typeof content === 'string') td.textContent = content; else td.appendChild(content); tr.appendChild(td); return td; }
      function runLink(id) {
        var r = byId[id], file = r ? r.file : suite.files[id];
        if (!file) return document.createTextNode(id);
        var a = document.createElement('a');
        a.href = r ? r.report : config.runPage + '#run=' + file.replace(/^runs\//, '').replace(/\.js$/, '').split('/').map(encodeURIComponent).join('/');
        a.textContent = r ? (r.sha ? r.sha.slice(0, 7) : r.startedAt.slice(0, 10)) : id;
        a.title = id;
        return a;
      }
      cell(cp.afterStartedAt.slice(0, 10));
      cell(cp.profile + ' · ' + cp.mode + ' · ' + (cp.metric === 'ratio' ? 'p50 / baseline' : cp.metric === 'err' ? 'errors' : cp.metric === 'cpu' ? 'CPU/1000 rps' : cp.metric));
      var size = cell(cpSize(cp), 'num'); if (cp.slower) size.classList.add('cp-slower');
      var s0 = cp.segments[0], s1 = cp.segments[1];
      cell(fmt(s0.median) + ' [' + fmt(s0.low) + ', ' + fmt(s0.high) + '] → ' + fmt(s1.median) + ' [' + fmt(s1.low) + ', ' + fmt(s1.high) + ']', 'num');
      var runsCell = cell('');
      runsCell.appendChild(runLink(cp.before)); runsCell.appendChild(document.createTextNode(' → ')); runsCell.appendChild(runLink(cp.after));
      var ch = cp.changed, parts = [];
      if (ch.commits) parts.push('commits ' + ch.commits[0].slice(0, 7) + '..' + ch.commits[1].slice(0, 7));
      Object.keys(ch.mesh || {}).forEach(function (m) { parts.push(m + ' ' + ch.mesh[m][0] + ' → ' + ch.mesh[m][1]); });
      if (ch.k8s) parts.push('Kubernetes ' + ch.k8s[0] + ' → ' + ch.k8s[1]);
      if (ch.runnerClass) parts.push('runner ' + ch.runnerClass[0] + ' → ' + ch.runnerClass[1]);
      var fields = ch.fields || [];
      var changedCell = cell(parts.join(', ') || (fields.length ? '' : 'nothing recorded'));
      if (ch.commits && ch.repository) {
        var a = document.createElement('a');
        a.href = 'https://github.com/' + ch.repository + '/compare/' + ch.commits[0] + '...' + ch.commits[1];
        a.textContent = ' (diff)';
        changedCell.appendChild(a);
      }
      // Every other field that differed (settings, images, k6's binary, the runner's image, files):
      // the first few in the cell, all of them behind a disclosure.
      if (fields.length) {
        var list = document.createElement('ul');
        list.className = 'cp-fields';
        fields.forEach(function (f, i) {
          var li = document.createElement('li');
          li.textContent = f.key + ': ' + f.before + ' \u2192 ' + f.after;
          li.title = li.textContent;
          if (i >= 4) li.className = 'cp-more';
          list.appendChild(li);
        });
        changedCell.appendChild(list);
        var hidden = fields.length - 4 + (ch.more || 0);
        if (fields.length > 4) {
          var toggle = document.createElement('button');
          toggle.type = 'button';
          toggle.className = 'cp-toggle';
          toggle.textContent = hidden + ' more';
          toggle.addEventListener('click', function () { list.classList.toggle('cp-open'); toggle.textContent = list.classList.contains('cp-open') ? 'fewer' : hidden + ' more'; });
          changedCell.appendChild(toggle);
        }
        if (ch.unknown) changedCell.appendChild(document.createTextNode(' (' + ch.unknown + ' not recorded by an older run)'));
      }
      verdictCell(cell('', 'text cp-verdict'), cp);
      body.appendChild(tr);
    });
    if (current) { var row = $(cpId(current)); if (row && row.scrollIntoView) row.scrollIntoView({ block: 'center' }); }
  }

  // A change point's confirmation (mesh-perf confirm): the verdict as a badge, its line, what supports it on demand.
  var VERDICT_LABEL = { confirmed: 'confirmed', withdrawn: 'withdrawn', environment: 'environment', 'cannot-rerun': 'cannot re-run', inconclusive: 'inconclusive', invalid: 'invalid run', 'not-run': 'not run' };
  function verdictCell(td, cp) {
    var c = cp.confirmation;
    var badge = document.createElement('span');
    if (!c) {
      badge.className = 'badge unconfirmed';
      badge.textContent = 'unconfirmed';
      td.appendChild(badge);
      return;
    }
    badge.className = 'badge ' + c.verdict;
    badge.textContent = VERDICT_LABEL[c.verdict] || c.verdict;
    td.appendChild(badge);
    var line = c.line.replace(/^[a-z -]+: /, '');
    td.appendChild(document.createTextNode(' ' + line));
    if (c.metric && c.metric !== cp.metric) td.appendChild(document.createTextNode(' (judged on ' + (c.metric === 'ratio' ? 'p50 / baseline' : c.metric) + ')'));
    if (c.details && c.details.length) {
      var more = document.createElement('details');
      var summary = document.createElement('summary');
      summary.textContent = 'how (' + c.finishedAt.replace('T', ' ').slice(0, 16) + ')';
      more.appendChild(summary);
      var list = document.createElement('ul');
      c.details.forEach(function (d) { var li = document.createElement('li'); li.textContent = d; list.appendChild(li); });
      more.appendChild(list);
      td.appendChild(more);
    }
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
  // The link's suite, else the one with the newest run (config.defaultSuite, chosen in render.ts).
  var initial = state.suite && config.suites.some(function (s) { return s.name === state.suite; }) ? state.suite : config.defaultSuite || config.suites[0].name;
  fill($('f-suite'), config.suites.map(function (s) { return s.name; }), initial);
  bind('f-suite', 'suite'); bind('f-profile', 'profile'); bind('f-stat', 'stat'); bind('f-branch', 'branch');
  bind('f-range', 'range'); bind('f-axis', 'axis');
  selectSuite(initial);
})();

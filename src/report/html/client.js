// @ts-check
// The report's browser script, kept as plain ES2019 text: it runs inside report.html next to the
// inlined Chart.js and must not depend on a bundler. It only hands prepared numbers (see
// chart-data.ts) to Chart.js; every figure is computed in TypeScript.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('mesh-perf-data').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;

  var SPECTRUM_TICKS = { 1: 'min', 2: '50%', 4: '75%', 10: '90%', 20: '95%', 100: '99%', 1000: '99.9%', 10000: 'max' };

  // Bars carry low/high arrays; draw the interval as a whisker on each bar.
  var whiskers = {
    id: 'whiskers',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      var y = chart.scales.y;
      chart.data.datasets.forEach(function (ds, i) {
        var meta = chart.getDatasetMeta(i);
        if (!ds.low || !chart.isDatasetVisible(i)) return;
        meta.data.forEach(function (bar, j) {
          var lo = ds.low[j], hi = ds.high[j];
          // No interval (one repetition gives low = high): no zero-height whisker pretending to be one.
          if (lo === null || hi === null || lo === undefined || hi === undefined || lo === hi) return;
          var top = y.getPixelForValue(hi), bottom = y.getPixelForValue(lo);
          var w = Math.max(2, Math.min(6, bar.width / 4));
          ctx.save();
          ctx.beginPath();
          ctx.rect(chart.chartArea.left, chart.chartArea.top, chart.chartArea.right - chart.chartArea.left, chart.chartArea.bottom - chart.chartArea.top);
          ctx.clip();
          ctx.strokeStyle = '#1b1f24';
          ctx.lineWidth = 1.2;
          ctx.beginPath();
          ctx.moveTo(bar.x, top); ctx.lineTo(bar.x, bottom);
          ctx.moveTo(bar.x - w, top); ctx.lineTo(bar.x + w, top);
          ctx.moveTo(bar.x - w, bottom); ctx.lineTo(bar.x + w, bottom);
          ctx.stroke();
          ctx.restore();
        });
      });
    }
  };

  function canvas(id) { return document.getElementById(id); }
  function ms(v) { return v === null || v === undefined ? '–' : (Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(3)) + ' ms'; }
  function intervalLabel(ds, j) {
    if (!ds.low || ds.low[j] === null) return '';
    return ' [' + ms(ds.low[j]) + ', ' + ms(ds.high[j]) + ']';
  }
  function barTooltip(ctx) { return ctx.dataset.label + ': ' + ms(ctx.parsed.y) + intervalLabel(ctx.dataset, ctx.dataIndex); }
  function msAxis(title) { return { title: { display: true, text: title }, beginAtZero: true }; }

  function spectrum(id, series) {
    return new Chart(canvas(id), {
      type: 'line',
      data: {
        datasets: series.map(function (s) {
          return { label: s.mode + (s.invalid ? ' (invalid)' : ''), data: s.points, borderColor: s.color, backgroundColor: s.color,
            borderDash: s.invalid ? [5, 4] : [], pointRadius: 3, tension: 0 };
        })
      },
      options: {
        parsing: false,
        scales: {
          x: { type: 'logarithmic', min: 1, max: 10000, title: { display: true, text: 'percentile (log scale of 1/(1−q))' },
            afterBuildTicks: function (axis) { axis.ticks = Object.keys(SPECTRUM_TICKS).map(function (v) { return { value: Number(v) }; }); },
            ticks: { autoSkip: false, callback: function (v) { return SPECTRUM_TICKS[v] || ''; } } },
          y: msAxis('latency (ms)')
        },
        plugins: { tooltip: { callbacks: { label: function (ctx) { return ctx.dataset.label + ' ' + ctx.raw.label + ': ' + ms(ctx.raw.y); } } } }
      }
    });
  }

  function bars(id, block, yTitle) {
    // The axis must hold the whiskers, not only the bars.
    var lows = [], highs = [];
    block.modes.forEach(function (m) { lows = lows.concat(m.low, m.median); highs = highs.concat(m.high, m.median); });
    var finite = function (v) { return typeof v === 'number' && isFinite(v); };
    var axis = msAxis(yTitle);
    axis.suggestedMin = Math.min.apply(null, [0].concat(lows.filter(finite)));
    axis.suggestedMax = Math.max.apply(null, [0].concat(highs.filter(finite)));
    return new Chart(canvas(id), {
      type: 'bar',
      data: {
        labels: block.stats,
        datasets: block.modes.map(function (m) {
          return { label: m.mode, data: m.median, low: m.low, high: m.high, backgroundColor: m.color + 'cc', borderColor: m.color, borderWidth: 1 };
        })
      },
      options: { scales: { y: axis }, plugins: { tooltip: { callbacks: { label: barTooltip } } } },
      plugins: [whiskers]
    });
  }

  function timeline(id, series, stat) {
    return new Chart(canvas(id), {
      type: 'line',
      data: { datasets: series.map(function (s) { return timelineDataset(s, stat); }) },
      options: {
        parsing: false,
        scales: { x: { type: 'linear', title: { display: true, text: 'seconds into the measured window' } }, y: msAxis(stat + ' latency (ms)') },
        plugins: { legend: { labels: { boxWidth: 12 } } }
      }
    });
  }
  function timelineDataset(s, stat) {
    return { label: s.label, data: s.t.map(function (t, i) { return { x: t, y: s[stat][i] }; }),
      borderColor: s.valid ? s.color : '#9a6700', backgroundColor: s.color, borderWidth: 1.2,
      borderDash: s.valid ? [] : [6, 4], pointRadius: 0, tension: 0 };
  }

  function resources(id, block, field, title) {
    return new Chart(canvas(id), {
      type: 'bar',
      data: { labels: block.groups, datasets: block.modes.map(function (m) {
        return { label: m.mode, data: m[field], backgroundColor: m.color + 'cc', borderColor: m.color, borderWidth: 1 };
      }) },
      options: { scales: { y: { beginAtZero: true, title: { display: true, text: title } } } }
    });
  }

  // A/B: each block's head ÷ base − 1 as a point; the estimate, its interval and the practical minimum as lines.
  function abChart(id, g) {
    var first = g.blocks.length ? g.blocks[0] : 0, last = g.blocks.length ? g.blocks[g.blocks.length - 1] : 1;
    var flat = function (y) { return [{ x: first, y: y }, { x: last, y: y }]; };
    var pct = function (v) { return (v > 0 ? '+' : '') + v.toFixed(2) + '%'; };
    return new Chart(canvas(id), {
      type: 'scatter',
      data: { datasets: [
        { label: 'block', data: g.blocks.map(function (b, j) { return { x: b, y: g.changePct[j] }; }), backgroundColor: '#0969da', pointRadius: 4 },
        { label: 'estimate ' + pct(g.estimatePct), data: flat(g.estimatePct), type: 'line', borderColor: '#1b1f24', borderWidth: 2, pointRadius: 0 },
        { label: 'interval [' + pct(g.lowPct) + ', ' + pct(g.highPct) + ']', data: flat(g.highPct), type: 'line', borderColor: '#8c959f', backgroundColor: 'rgba(140,149,159,0.25)', borderWidth: 1, pointRadius: 0, fill: '+1' },
        { label: '', data: flat(g.lowPct), type: 'line', borderColor: '#8c959f', borderWidth: 1, pointRadius: 0 },
        { label: 'practical minimum ' + pct(g.minimumPct), data: flat(g.minimumPct), type: 'line', borderColor: '#cf222e', borderDash: [6, 4], borderWidth: 1.5, pointRadius: 0 }
      ] },
      options: {
        parsing: false,
        scales: { x: { type: 'linear', title: { display: true, text: 'block' }, ticks: { precision: 0 } },
          y: { title: { display: true, text: 'head ÷ base − 1 (%)' } } },
        plugins: { legend: { labels: { filter: function (item) { return item.text !== ''; } } },
          tooltip: { callbacks: { label: function (ctx) { return ctx.datasetIndex === 0 ? 'block ' + ctx.raw.x + ': ' + pct(ctx.raw.y) : ctx.dataset.label; } } } }
      }
    });
  }
  // Charts in page order, each a task: the ones on the first screen are drawn at once, the rest
  // one by one after the page has painted (a report with a dozen profiles holds 70 charts, drawn
  // in one go they kept the whole page blank for a second).
  var tasks = [];
  (data.ab || []).forEach(function (g, i) { tasks.push(['ab-' + i, function () { abChart('ab-' + i, g); }]); });
  data.profiles.forEach(function (p, i) {
    tasks.push(['spectrum-' + i, function () { spectrum('spectrum-' + i, p.spectrum); }]);
    tasks.push(['bars-' + i, function () { bars('bars-' + i, p.bars, 'latency (ms), median over repetitions'); }]);
    if (p.overhead) tasks.push(['overhead-' + i, function () { bars('overhead-' + i, p.overhead, 'overhead vs ' + p.overhead.baseline + ' (ms)'); }]);
    tasks.push(['timeline-' + i, function () {
      var select = document.getElementById('timeline-stat-' + i);
      var chart = canvas('timeline-' + i) ? timeline('timeline-' + i, p.timeline, select ? select.value : 'p99') : null;
      if (select && chart) select.addEventListener('change', function () {
        chart.data.datasets = p.timeline.map(function (s) { return timelineDataset(s, select.value); });
        chart.options.scales.y.title.text = select.value + ' latency (ms)';
        chart.update();
      });
    }]);
    if (p.resources) {
      tasks.push(['cpu-' + i, function () { resources('cpu-' + i, p.resources, 'cpu', 'CPU (millicores, average)'); }]);
      tasks.push(['memory-' + i, function () { resources('memory-' + i, p.resources, 'memory', 'memory (MiB, average)'); }]);
    }
  });
  function onFirstScreen(id) {
    var el = canvas(id);
    return !el || el.getBoundingClientRect().top < window.innerHeight;
  }
  while (tasks.length && onFirstScreen(tasks[0][0])) tasks.shift()[1]();
  window.__meshPerfFirstScreen = performance.now();
  function next() {
    if (!tasks.length) { window.__meshPerfDrawn = performance.now(); window.__meshPerfReady = true; return; }
    tasks.shift()[1]();
    setTimeout(next, 0);
  }
  // Printing draws what is left at once.
  window.addEventListener('beforeprint', function () { while (tasks.length) tasks.shift()[1](); window.__meshPerfReady = true; });
  setTimeout(next, 0);
})();

// SPDX-License-Identifier: Apache-2.0
// The benchmark page (bench.html): bench/js/workloads.js in the browser, as `npm run bench`
// runs it in Node: per workload a tuned JS loop, a TypedArray.prototype.set copy of the output's
// bytes, and every build this page can load (simd-threads only when crossOriginIsolated), each
// with typed arrays and with heap tensors (workloads.js timeRelayout, which checks every
// result against the JS loop before timing it). ?quick=1: few runs (the tests use it).
// ?suite=resize: the resampling suite instead (bench-resize.js).
//
// Test hook: window.relayoutBench = { done: Promise<{ results, columns, markdown, env }> }.
import { load } from '/bindings/js/browser.js';
import { timeMedian, timeRelayout, WORKLOADS } from '/bench/js/workloads.js';

import { BUILDS, drawBars, environment, fmtMs, nextFrame, showError, showStatus, unavailable } from './common.js';

const params = new URLSearchParams(location.search);
const quick = params.has('quick') && params.get('quick') !== '0';
// workloads.js timeMedian's options; the full run uses its defaults, as bench.js does
const TIMING = quick ? { warmup: 1, warmupMs: 10, runs: 3 } : undefined;

const $ = (id) => document.getElementById(id);

/** bench/js/bench.js's number format. */
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

function markdown(columns, results, env) {
  const cell = (wl, impl) => results.find((r) => r.workload === wl && r.impl === impl);
  const lines = [`${env}; median ms (speed-up over the JS loop)`, '',
    `| workload | ${columns.join(' | ')} |`, `| --- |${columns.map(() => ' ---: |').join('')}`];
  for (const w of WORKLOADS) {
    const js = cell(w.name, 'js-loop')?.median_ms;
    const cells = columns.map((c) => {
      const r = cell(w.name, c);
      if (!r) return '';
      if (r.error) return 'wrong';
      return c === 'js-loop' ? fmt(r.median_ms) : `${fmt(r.median_ms)} (${(js / r.median_ms).toFixed(1)}x)`;
    });
    lines.push(`| ${w.name} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

function drawTable(columns, results, done = false) {
  const cell = (wl, impl) => results.find((r) => r.workload === wl && r.impl === impl);
  const table = $('table');
  const head = document.createElement('tr');
  for (const h of ['workload', ...columns]) {
    const th = document.createElement('th');
    th.textContent = h;
    head.append(th);
  }
  const rows = WORKLOADS.map((w) => {
    const tr = document.createElement('tr');
    const name = document.createElement('td');
    name.innerHTML = '<code></code>';
    name.firstChild.textContent = w.name;
    tr.append(name);
    const js = cell(w.name, 'js-loop')?.median_ms;
    for (const c of columns) {
      const td = document.createElement('td');
      const r = cell(w.name, c);
      if (!r) {
        td.className = 'pending';
        td.textContent = done ? '' : '…';
      } else if (r.error) {
        td.className = 'bad';
        td.textContent = 'wrong';
        td.title = r.error;
      } else {
        td.textContent = fmtMs(r.median_ms);
        if (c !== 'js-loop' && js) {
          const s = document.createElement('span');
          s.className = 'speed';
          s.textContent = `${(js / r.median_ms).toFixed(1)}×`;
          td.append(s);
        }
        td.title = `${r.runs} runs${r.implName ? `, ${r.implName}` : ''}`;
      }
      tr.append(td);
    }
    return tr;
  });
  const thead = document.createElement('thead');
  thead.append(head);
  const tbody = document.createElement('tbody');
  tbody.append(...rows);
  table.replaceChildren(thead, tbody);
}

function drawChart(columns, results) {
  const groups = WORKLOADS.map((w) => {
    const g = document.createElement('div');
    g.className = 'chart-group';
    const h = document.createElement('h3');
    h.textContent = w.name;
    const bars = document.createElement('div');
    bars.className = 'bars';
    const js = results.find((r) => r.workload === w.name && r.impl === 'js-loop')?.median_ms;
    const measured = columns.filter((c) => results.some((x) => x.workload === w.name && x.impl === c));
    drawBars(bars, measured.map((c) => {
      const r = results.find((x) => x.workload === w.name && x.impl === c);
      const ok = !r.error;
      return {
        label: c, value: ok ? r.median_ms : undefined,
        kind: c === 'js-loop' ? 'js' : c === 'typedarray-set' ? 'copy' : '',
        extra: ok && js && c !== 'js-loop' ? `${(js / r.median_ms).toFixed(1)}×` : undefined,
        note: 'wrong result',
      };
    }));
    g.append(h, bars);
    return g;
  });
  $('chart').replaceChildren(...groups);
}

async function run() {
  $('again').disabled = true;
  const env = environment(quick);
  $('env').textContent = env;
  const builds = BUILDS.filter((b) => !unavailable(b));
  const skipped = BUILDS.filter((b) => unavailable(b)).map((b) => `${b}: ${unavailable(b)}`);
  if (skipped.length) $('env').textContent += ` · not run: ${skipped.join('; ')}`;
  const hw = navigator.hardwareConcurrency || 1;
  const label = (b) => (b === 'simd-threads' ? `${b} (${hw}t)` : b);
  const columns = ['js-loop', 'typedarray-set'];
  for (const b of builds) {
    columns.push(label(b), `${label(b)} heap`);
  }
  const results = [];
  const total = WORKLOADS.length * columns.length;
  const update = (what) => {
    $('progress').value = results.length / total;
    $('progress-text').textContent = what ?? `${results.length} of ${total} measurements`;
    drawTable(columns, results);
  };
  update('starting…');
  const record = (workload, impl, t, extra = {}) => {
    results.push({ workload, impl, median_ms: t?.median, runs: t?.runs, ...extra });
    update();
  };
  const t0 = performance.now();

  for (const w of WORKLOADS) {
    const data = w.make();
    record(w.name, 'js-loop', timeMedian(() => w.js(data), TIMING));
    await nextFrame();
    const copySrc = new Uint8Array(data.out.buffer.byteLength).fill(1);
    const copyDst = new Uint8Array(copySrc.length);
    record(w.name, 'typedarray-set', timeMedian(() => copyDst.set(copySrc), TIMING));
    await nextFrame();
  }
  for (const build of builds) {
    update(`loading ${build}…`);
    const rl = await load({ build });
    try {
      for (const w of WORKLOADS) {
        update(`${build}: ${w.name}…`);
        await nextFrame();
        try {
          timeRelayout(rl, w, (kind, t, implName) =>
            record(w.name, kind === 'heap' ? `${label(build)} heap` : label(build), t, { implName }), TIMING);
        } catch (e) { // a result that differs from the JS loop
          console.error(e);
          for (const c of [label(build), `${label(build)} heap`])
            if (!results.some((r) => r.workload === w.name && r.impl === c)) record(w.name, c, null, { error: e.message });
        }
      }
    } finally {
      rl.terminate();
    }
  }
  const secs = (performance.now() - t0) / 1000;
  const md = markdown(columns, results, env);
  $('markdown').textContent = md;
  update(`done in ${secs.toFixed(1)} s`);
  drawTable(columns, results, true);
  drawChart(columns, results);
  $('again').disabled = false;
  return { results, columns, markdown: md, env, seconds: secs };
}

// The suite the page runs: the reorder workloads here, or the resampling ones.
const runSuite = params.get('suite') === 'resize'
  ? async () => (await import('./bench-resize.js')).runResize() : run;

async function main() {
  const rl = await load();
  showStatus(rl);
  rl.terminate(); // each build is loaded afresh for its measurements
  await nextFrame();
  return runSuite();
}

const done = main();
window.relayoutBench = { done };
done.catch(showError);
$('again').addEventListener('click', () => { runSuite().catch(showError); });

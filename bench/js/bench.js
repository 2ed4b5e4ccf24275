// SPDX-License-Identifier: Apache-2.0
// relayout's JavaScript benchmark (Node): every build, with typed arrays (copies in and out)
// and with heap tensors (zero copy), against a tuned hand-written JS loop and a
// TypedArray.prototype.set copy of the output's bytes, same process, medians.
//
//   node bench/js/bench.js [--builds=simd-threads,simd,baseline] [--threads=2]
//                          [--peers=FILE|live] [--json]
//
// --peers merges the JSON lines printed by bench/js/peers/peers.js (onnxruntime-web,
// tfjs-wasm) into the table: from FILE, or with --peers=live from peers.js run in this run,
// once before relayout's timings and once after, each peer keeping its better median (the
// peers need processes of their own: ORT sets up its thread pool once per process).
// Output: a markdown table (ms, and the speed-up over the JS loop).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';

import { load } from '../../bindings/js/node.js';
import { timeMedian, timeRelayout, WORKLOADS } from './workloads.js';

const { values: args } = parseArgs({
  options: { builds: { type: 'string', default: 'simd-threads,simd,baseline' },
    threads: { type: 'string', default: '2' }, peers: { type: 'string' }, json: { type: 'boolean', default: false } },
});
const builds = args.builds.split(',');
const threads = Number(args.threads);

const results = []; // { workload, impl, median_ms, runs }
const record = (workload, impl, t) => {
  results.push({ workload, impl, median_ms: t.median, runs: t.runs });
  if (args.json) console.log(JSON.stringify(results.at(-1)));
};

for (const w of WORKLOADS) {
  const data = w.make();
  record(w.name, 'js-loop', timeMedian(() => w.js(data)));
  const copySrc = new Uint8Array(data.out.buffer.byteLength).fill(1);
  const copyDst = new Uint8Array(copySrc.length);
  record(w.name, 'typedarray-set', timeMedian(() => copyDst.set(copySrc)));
}

// The result lines of peers.js's output.
const peerLines = (text) => text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l))
  .filter((r) => r.workload && r.impl && typeof r.median_ms === 'number');
const runPeers = () => peerLines(execFileSync(process.execPath,
  [new URL('./peers/peers.js', import.meta.url).pathname], { encoding: 'utf8', maxBuffer: 1 << 26 }));
const livePeers = args.peers === 'live' ? [runPeers()] : [];

const impls = {};
for (const build of builds) {
  const rl = await load({ build, threads });
  const label = build === 'simd-threads' ? `${build} (${rl.threads}t)` : build;
  for (const w of WORKLOADS) {
    const impl = timeRelayout(rl, w, (kind, t) =>
      record(w.name, kind === 'heap' ? `${label} heap` : label, t));
    (impls[w.name] ??= {})[label] = impl;
  }
  rl.terminate();
}

if (args.peers === 'live') {
  livePeers.push(runPeers());
  const best = new Map();
  for (const r of livePeers.flat()) {
    const key = `${r.workload}\0${r.impl}`;
    if (!best.has(key) || r.median_ms < best.get(key).median_ms) best.set(key, r);
  }
  results.push(...best.values());
} else if (args.peers) {
  results.push(...peerLines(readFileSync(args.peers, 'utf8')));
}

// ---- the table ----------------------------------------------------------------------------------
const columns = [...new Set(results.map((r) => r.impl))];
const cell = (wl, impl) => results.find((r) => r.workload === wl && r.impl === impl);
const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
console.log(`\nNode ${process.version}, ${os.cpus()[0].model}, ${os.availableParallelism?.() ?? os.cpus().length} hardware threads; ` +
  'median ms (speed-up over the JS loop)\n');
console.log(`| workload | ${columns.join(' | ')} |`);
console.log(`| --- |${columns.map(() => ' ---: |').join('')}`);
for (const w of WORKLOADS) {
  const js = cell(w.name, 'js-loop')?.median_ms;
  const cells = columns.map((c) => {
    const r = cell(w.name, c);
    if (!r) return '';
    return c === 'js-loop' ? fmt(r.median_ms) : `${fmt(r.median_ms)} (${(js / r.median_ms).toFixed(1)}x)`;
  });
  console.log(`| ${w.name} | ${cells.join(' | ')} |`);
}
console.log('\nrelayout implementations:');
for (const [wl, m] of Object.entries(impls))
  console.log(`  ${wl}: ${Object.entries(m).map(([b, i]) => `${b} ${i}`).join(', ')}`);

// SPDX-License-Identifier: Apache-2.0
// The source rows an image pipeline's resampling reads, so that bytes outside the wasm heap
// (an ImageData, say) need only those rows copied in: a 1080-row frame resized to 224 rows with
// 'nearest' or 'linear' reads 224 or 448 of them. The rows are oneDNN's taps
// (src/resampling_taps.c, docs/resampling.md); a plan trusts them only after a check that the
// rows left out change nothing (RowCopy.check), and otherwise copies every row.

// oneDNN's source coordinate (o + 0.5) * in / out - 0.5, every step rounded to f32.
const coord = (o, inn, out) =>
  Math.fround(Math.fround(Math.fround(Math.fround(o + 0.5) * inn) / out) - 0.5);

/** The rows (0 .. inH - 1) a nearest or linear resize of inH rows to outH reads, in order;
 *  null for the other filters (which read nearly every row when they reduce). */
export function rowsRead(resize, inH, outH) {
  if (resize !== 'nearest' && resize !== 'linear') return null;
  const read = new Uint8Array(inH);
  for (let o = 0; o < outH; o++) {
    const s = coord(o, inH, outH);
    if (resize === 'nearest') {
      const r = s < 0 ? -Math.floor(-s + 0.5) : Math.floor(s + 0.5); // halves away from zero
      read[Math.min(Math.max(r, 0), inH - 1)] = 1;
    } else {
      read[Math.max(Math.trunc(s), 0)] = 1;
      read[s < 0 ? 0 : Math.min(Math.ceil(s), inH - 1)] = 1;
    }
  }
  return read;
}

/** [first row, row count] runs of the rows marked in `read`. */
export function rowRuns(read) {
  const runs = [];
  for (let y = 0; y < read.length; y++) {
    if (!read[y]) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === y) last[1]++;
    else runs.push([y, 1]);
  }
  return runs;
}

/**
 * Which rows of a plan's region to copy: `runs` ([first, count] in region rows) or null for
 * all. check() proves the rows left out unread: the plan runs once with them 0 and once with
 * them 255 (the rows read hold 0 both times), and the two tensors must be the same bytes.
 * plan: { geo, staging(), image(), exec(srcPtr, dstPtr, what), rl }.
 */
export function rowsToCopy(plan, resize, what) {
  const { region: r, win } = plan.geo;
  const read = rowsRead(resize, r.height, win.height);
  if (!read) return null;
  const runs = rowRuns(read);
  const copied = runs.reduce((n, [, count]) => n + count, 0);
  if (copied * 4 > r.height * 3) return null; // a saving under a quarter: not worth the check
  const p = plan.staging(), rowBytes = plan.width * plan.pixelBytes, img = plan.image();
  const out = (fill) => {
    const heap = plan.rl._heapU8();
    heap.fill(fill, p, p + r.height * rowBytes);
    for (const [y, count] of runs) heap.fill(0, p + y * rowBytes, p + (y + count) * rowBytes);
    plan.exec(p, img._ptr, what);
    return new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength).slice();
  };
  const zeros = out(0), full = out(255);
  return zeros.every((b, i) => b === full[i]) ? runs : null;
}

// SPDX-License-Identifier: Apache-2.0
// With a lib that declares Symbol.dispose (ESNext), every object works with `using`.
import { load } from 'tensor-relayout';

export async function main(): Promise<number> {
  await using rl = { value: await load(), async [Symbol.asyncDispose]() { this.value.terminate(); } };
  using d = rl.value.desc('f32:a:4');
  using p = rl.value.reorder(d, 'bf16:a:4');
  using pipe = rl.value.imagePipeline();
  return d.size + p.dst.size + (pipe.options.size?.[0] ?? 0);
}

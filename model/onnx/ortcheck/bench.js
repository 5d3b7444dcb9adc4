#!/usr/bin/env node
// Times an exported AliceZero model in ONNX Runtime (onnxruntime-node), for
// comparing the Go fast path with ONNX Runtime on the same network and
// machine (model/onnx's TestCompareORT drives it; it can also run alone).
//
// Usage: node bench.js MODEL.onnx PLANES INPUT.bin BATCH THREADS SECONDS
//
// INPUT.bin holds BATCH*PLANES*64 little-endian float32 values. One session
// with THREADS intra-op threads (1 = no thread pool; inter-op 1,
// sequential execution, all graph optimisations) runs the batch for a
// warm-up of a few runs and then repeatedly for about SECONDS. Prints one
// JSON line:
//   {"ort_version", "batch", "threads", "runs", "wall_s", "cpu_s",
//    "pos_per_s", "pos_per_cpu_s"}
// where cpu_s is the process's user+system CPU time during the timed runs.
'use strict';

const fs = require('node:fs');

async function main() {
  const args = process.argv.slice(2);
  if (args.length !== 6) {
    throw new Error('usage: node bench.js MODEL.onnx PLANES INPUT.bin BATCH THREADS SECONDS');
  }
  const [modelPath, planesArg, input, batchArg, threadsArg, secondsArg] = args;
  const planes = Number(planesArg);
  const batch = Number(batchArg);
  const threads = Number(threadsArg);
  const seconds = Number(secondsArg);
  for (const [name, v] of [['PLANES', planes], ['BATCH', batch], ['THREADS', threads]]) {
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} ${v} is not a positive integer`);
  }
  if (!(seconds > 0)) throw new Error(`SECONDS ${secondsArg} is not positive`);
  let ort;
  try {
    ort = require('onnxruntime-node');
  } catch (e) {
    console.error('onnxruntime-node is not installed: run "ONNXRUNTIME_NODE_INSTALL=skip npm install" in ' + __dirname);
    process.exit(3);
  }
  const session = await ort.InferenceSession.create(modelPath, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
  });
  const buf = fs.readFileSync(input);
  const want = batch * planes * 64 * 4;
  if (buf.length !== want) throw new Error(`${input}: ${buf.length} bytes, batch ${batch} needs ${want}`);
  const data = new Float32Array(batch * planes * 64);
  for (let i = 0; i < data.length; i++) data[i] = buf.readFloatLE(4 * i);
  const feeds = { planes: new ort.Tensor('float32', data, [batch, planes, 8, 8]) };
  for (let i = 0; i < 5; i++) await session.run(feeds);

  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let runs = 0;
  let wall = 0;
  while (wall < seconds) {
    await session.run(feeds);
    runs++;
    wall = Number(process.hrtime.bigint() - t0) / 1e9;
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  console.log(JSON.stringify({
    ort_version: (ort.env && ort.env.versions && ort.env.versions.common) || '',
    batch,
    threads,
    runs,
    wall_s: wall,
    cpu_s: cpuS,
    pos_per_s: (runs * batch) / wall,
    pos_per_cpu_s: (runs * batch) / cpuS,
  }));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});

#!/usr/bin/env node
// Runs an exported AliceZero model in ONNX Runtime (onnxruntime-node) and
// writes its outputs as JSON, for the Go tests of model/onnx.
//
// Usage: node check.js MODEL.onnx OUT.json PLANES INPUT.bin:BATCH [INPUT.bin:BATCH ...]
//
// Each INPUT.bin holds BATCH*PLANES*64 little-endian float32 values (PLANES
// input planes of 8×8 per position, env.NumPlanes in Go). All inputs
// run through one session (so one file checks several batch sizes against
// the symbolic batch dimension). OUT.json receives
//   {"ort_version", "input_names", "output_names",
//    "runs": [{"batch", "policy_dims", "policy_logits", "wdl_dims", "wdl"}]}.
'use strict';

const fs = require('node:fs');

async function main() {
  const args = process.argv.slice(2);
  if (args.length < 4) {
    throw new Error('usage: node check.js MODEL.onnx OUT.json PLANES INPUT.bin:BATCH [...]');
  }
  const [modelPath, outPath, planesArg, ...inputs] = args;
  const planes = Number(planesArg);
  if (!Number.isInteger(planes) || planes < 1) {
    throw new Error(`PLANES ${planesArg} is not a positive integer`);
  }
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
  });
  const result = {
    ort_version: (ort.env && ort.env.versions && ort.env.versions.common) || '',
    input_names: session.inputNames,
    output_names: session.outputNames,
    runs: [],
  };
  for (const spec of inputs) {
    const at = spec.lastIndexOf(':');
    const file = spec.slice(0, at);
    const batch = Number(spec.slice(at + 1));
    const buf = fs.readFileSync(file);
    const want = batch * planes * 64 * 4;
    if (at < 0 || !Number.isInteger(batch) || batch < 1 || buf.length !== want) {
      throw new Error(`input ${spec}: ${buf.length} bytes, batch ${batch} needs ${want}`);
    }
    const data = new Float32Array(batch * planes * 64);
    for (let i = 0; i < data.length; i++) data[i] = buf.readFloatLE(4 * i);
    const feeds = { planes: new ort.Tensor('float32', data, [batch, planes, 8, 8]) };
    const out = await session.run(feeds);
    result.runs.push({
      batch,
      policy_dims: out.policy_logits.dims,
      policy_logits: Array.from(out.policy_logits.data),
      wdl_dims: out.wdl.dims,
      wdl: Array.from(out.wdl.data),
    });
  }
  fs.writeFileSync(outPath, JSON.stringify(result));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});

// Node: tfjs-tflite-node + coral-tflite-delegate (npm, unmodified) load coralsim's libedgetpu.so.1
// by name (LD_LIBRARY_PATH) and run golden corpus models; every case's output 0 must equal the
// golden bytes. The twin reaches the library through CORALSIM_HLE, set before each model loads
// (CoralDelegate only forwards the `device` option).
// usage: node coral_delegate_check.js GOLDEN_DIR CORPUS_DIR MODEL_ID...
const fs = require('fs');
const path = require('path');
require('@tensorflow/tfjs-backend-cpu');
const tf = require('@tensorflow/tfjs-core');
const tflite = require('tfjs-tflite-node');
const {CoralDelegate} = require('coral-tflite-delegate');

(async () => {
  const [golden, corpus, ...ids] = process.argv.slice(2);
  let failures = 0;
  for (const id of ids) {
    const dir = path.join(golden, id);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
    const compiled = path.join(corpus, manifest.compiled.path);
    const twin = manifest.twin.where === 'corpus' ? path.join(corpus, manifest.twin.path)
                                                  : path.join(golden, manifest.twin.path.replace(/^public\//, ''));
    process.env.CORALSIM_HLE = `${compiled}=${twin}`;
    process.env.CORALSIM_MODE = 'hle';
    const model = await tflite.loadTFLiteModel(compiled, {delegates: [new CoralDelegate()]});
    for (const kase of manifest.cases) {
      const input = fs.readFileSync(path.join(dir, kase.model_inputs[0].file));
      const x = tf.tensor(new Uint8Array(input), model.inputs[0].shape, 'int32');
      const y = model.predict(x);
      const got = Array.from(y.dataSync());
      const expectedFile = kase.tpu_outputs.find(t => t.name === model.outputs[0].name) || kase.tpu_outputs[0];
      const expected = Array.from(fs.readFileSync(path.join(dir, expectedFile.file)));
      const same = got.length === expected.length && got.every((v, i) => v === expected[i]);
      console.log(`${id} ${kase.case}: ${got.length} values ${same ? 'identical to golden' : 'DIFFER from golden'}`);
      if (!same) failures++;
    }
  }
  process.exit(failures === 0 ? 0 : 1);
})().catch(e => {
  console.error(e);
  process.exit(1);
});

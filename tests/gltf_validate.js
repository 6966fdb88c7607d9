// Validates glTF files with the Khronos glTF validator (npm package gltf-validator, a library):
//   node gltf_validate.js MODULE_DIR FILE...
// Prints each file's counts and messages; exits 1 when any file has an error (warnings are shown,
// not fatal).
const fs = require('fs');
const validator = require(require('path').resolve(process.argv[2]));  // a relative dir is the caller's, not this script's
const files = process.argv.slice(3);
const severity = ['error', 'warning', 'info', 'hint'];
(async () => {
  let failed = false;
  for (const file of files) {
    const r = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {maxIssues: 50});
    const i = r.issues;
    console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`);
    for (const m of i.messages) console.log(`  ${severity[m.severity]} ${m.code} ${m.pointer || ''}: ${m.message}`);
    if (i.numErrors !== 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.error(`validator failed: ${e}`);
  process.exit(1);
});

// Validates glTF files with the Khronos glTF validator (npm package gltf-validator, a library):
//   node gltf_validate.js MODULE_DIR FILE...
// Prints each file's counts and its first messages; exits 1 when any file has an error or a
// warning. Every issue is counted (maxIssues 0: no cap), so a flood of infos cannot hide an error.
const fs = require('fs');
const validator = require(require('path').resolve(process.argv[2]));  // a relative dir is the caller's, not this script's
const files = process.argv.slice(3);
const severity = ['error', 'warning', 'info', 'hint'];
(async () => {
  let failed = false;
  for (const file of files) {
    const r = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {maxIssues: 0});
    const i = r.issues;
    console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`);
    for (const m of i.messages.slice(0, 50)) console.log(`  ${severity[m.severity]} ${m.code} ${m.pointer || ''}: ${m.message}`);
    if (i.numErrors !== 0 || i.numWarnings !== 0 || i.truncated) failed = true;
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.error(`validator failed: ${e}`);
  process.exit(1);
});

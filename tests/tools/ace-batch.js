// Checks many EPUBs with Ace by DAISY in one Node process and one headless
// Chromium, as EpubCheckBatch.java does for EPUBCheck: `ace-cli` starts
// Node, loads Ace and launches a browser for every book, which cost the
// test suite more than the checks themselves.
//
// Usage: node ace-batch.js OUTDIR EPUB...
// Needs NODE_PATH to hold the node_modules folder Ace is installed in and
// PUPPETEER_EXECUTABLE_PATH to name the browser. Writes Ace's own
// OUTDIR/<n>/report.json for the n-th EPUB (0-based) that Ace could check;
// a book Ace fails on is said on stderr and has no report, so the caller
// can tell it from a clean one and try it again.
'use strict';

const fs = require('fs');
const path = require('path');
const ace = require('@daisy/ace-core');
const runner = require('@daisy/ace-axe-runner-puppeteer');
const logger = require('@daisy/ace-logger');

// Ace launches the browser before each book and closes it after: here the
// first launch opens it and only the end of the batch closes it.
let launched = null;
const shared = Object.assign({}, runner, {
  launch: () => {
    if (!launched) launched = runner.launch();
    return launched;
  },
  close: () => Promise.resolve(),
});

async function main() {
  const [outdir, ...epubs] = process.argv.slice(2);
  if (!outdir || epubs.length === 0) {
    console.error('usage: node ace-batch.js OUTDIR EPUB...');
    process.exit(2);
  }
  logger.initLogger({ verbose: false, silent: true });
  // Two books at a time: a book's documents spend much of their time
  // waiting on the browser, which another book's can use meanwhile.
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < epubs.length) {
      const n = next++;
      const epub = epubs[n];
      const out = path.join(outdir, String(n));
      fs.mkdirSync(out, { recursive: true });
      try {
        await ace(path.resolve(epub), { cwd: process.cwd(), outdir: out, silent: true, timeout: 600000 }, shared);
      } catch (err) {
        failed += 1;
        console.error(`${epub}: Ace failed: ${err && err.message ? err.message : err}`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
  if (launched) await runner.close();
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
});

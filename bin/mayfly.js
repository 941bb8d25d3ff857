#!/usr/bin/env node
// The command line: src/cli.ts compiled and bundled (minified) into one file; run `npm run build`
// after changing the source. For stack traces in TypeScript terms, run it with
// `node --enable-source-maps` (the bundle ships its source map; reading it costs start-up time).
import { main } from '../dist/cli.bundle.js';

main(process.argv).catch((err) => {
  process.stderr.write(`mayfly: ${err?.stack ?? err}\n`);
  process.exit(1);
});

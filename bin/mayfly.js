#!/usr/bin/env node
// The command line: src/cli.ts compiled and bundled into one file (run `npm run build` after changing the source).
import { main } from '../dist/cli.bundle.js';

main(process.argv).catch((err) => {
  process.stderr.write(`mayfly: ${err?.stack ?? err}\n`);
  process.exit(1);
});

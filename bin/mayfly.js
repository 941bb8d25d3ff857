#!/usr/bin/env node
// The command line: the compiled src/cli.ts (run `npm run build` after changing the source).
import { main } from '../dist/cli.js';

main(process.argv).catch((err) => {
  process.stderr.write(`mayfly: ${err?.stack ?? err}\n`);
  process.exit(1);
});

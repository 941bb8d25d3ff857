#!/usr/bin/env node
// The command line: src/cli.ts compiled and bundled into dist/cli.bundle.cjs by `npm run build`
// (scripts/build/bundle_cli.mjs), loaded here with V8's code cache saved by the build so that
// start-up does not compile it again. Run with `node --enable-source-maps` for stack traces in
// TypeScript terms: the bundle is then loaded as an ordinary module, whose source map Node reads.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const bundle = fileURLToPath(new URL('../dist/cli.bundle.cjs', import.meta.url));
const require = createRequire(bundle);

function loadWithCodeCache() {
  let cachedData;
  try {
    cachedData = readFileSync(bundle.replace(/\.cjs$/, '.cache'));
  } catch {
    cachedData = undefined; // no cache: V8 compiles the source
  }
  const source = `(function (exports, require, module, __filename, __dirname) {${readFileSync(bundle, 'utf8')}\n})`;
  const script = new vm.Script(source, { filename: bundle, cachedData });
  const cli = { exports: {} };
  script.runInThisContext()(cli.exports, require, cli, bundle, path.dirname(bundle));
  return cli.exports;
}

const { main } = process.sourceMapsEnabled ? require(bundle) : loadWithCodeCache();

main(process.argv).catch((err) => {
  process.stderr.write(`mayfly: ${err?.stack ?? err}\n`);
  process.exit(1);
});

// The command line as one file: `npm run build` compiles src/ to dist/ with tsc, then this
// bundles dist/cli.js with its dependencies (bson, pino, commander) into one minified CommonJS
// file, dist/cli.bundle.cjs, and saves V8's code cache for it (dist/cli.bundle.cache), which
// bin/mayfly.js hands to V8 so that start-up skips compiling. Start-up was dominated by module
// resolution and loading of ~150 files (one file: roughly halved), then by compiling ~1 MB of
// source (minified to ~0.5 MB, and the code cache: ~18 ms less); see README, Performance. The
// embedding API (dist/index.js) is not bundled.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'rolldown';

const bundle = path.resolve('dist/cli.bundle.cjs');
await build({
  input: 'dist/cli.js',
  platform: 'node',
  logLevel: 'warn',
  output: { file: bundle, format: 'cjs', sourcemap: true, minify: true },
});

// The code cache: compile and evaluate the bundle as bin/mayfly.js does (evaluating defines the
// modules; nothing starts), then keep what V8 compiled. A cache from another Node version is
// rejected by V8 at start-up and the source is compiled as usual.
const script = new vm.Script(wrapCommonJs(readFileSync(bundle, 'utf8')), { filename: bundle });
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
writeFileSync('dist/cli.bundle.cache', script.createCachedData());

/** A CommonJS module's source as Node wraps it. */
function wrapCommonJs(source) {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

// The command line as one file: `npm run build` compiles src/ to dist/ with tsc, then this
// bundles dist/cli.js with its dependencies (bson, pino, commander) into a minified
// dist/cli.bundle.js, which bin/mayfly.js runs. One file instead of ~150 modules roughly halves
// start-up time (module resolution and loading dominated it), and minifying cuts what V8 must
// parse (~1 MB to ~0.5 MB; see README, Performance). The embedding API (dist/index.js) is not
// bundled.
import { build } from 'rolldown';

await build({
  input: 'dist/cli.js',
  platform: 'node',
  logLevel: 'warn',
  output: { file: 'dist/cli.bundle.js', format: 'esm', sourcemap: true, minify: true },
});

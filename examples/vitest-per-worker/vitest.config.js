import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./test/mayfly.setup.js'], // one server per worker, on the test clock
    setupFiles: ['mayfly/worker'], // each worker's process.env.MONGODB_URI is its own server's
  },
});

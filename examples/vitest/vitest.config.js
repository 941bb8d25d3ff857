import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['mayfly/vitest'], // one Mayfly server for the run; its URI in process.env.MONGODB_URI
  },
});

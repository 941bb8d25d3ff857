module.exports = {
  globalSetup: './test/mayfly-setup.js', // one server per worker, on the test clock
  globalTeardown: 'mayfly/jest/global-teardown',
  setupFiles: ['mayfly/worker'], // each worker's process.env.MONGODB_URI is its own server's
};

module.exports = {
  require: ['mayfly/mocha'], // one Mayfly server for the run; its URI in process.env.MONGODB_URI
  spec: ['test/**/*.test.js'],
};

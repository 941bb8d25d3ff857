module.exports = {
  preset: 'mayfly', // one Mayfly server for the run; its URI in process.env.MONGODB_URI
};

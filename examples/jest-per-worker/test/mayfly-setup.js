const { mayflyGlobalSetup } = require('mayfly/jest');

module.exports = mayflyGlobalSetup({ perWorker: true, clock: 'manual' });

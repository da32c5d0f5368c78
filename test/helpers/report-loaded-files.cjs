// Preloaded into a spawned mk (NODE_OPTIONS=--require): at exit, writes the CommonJS files it loaded to MK_TEST_LOADED_FILES.
const { writeFileSync } = require('node:fs')

process.on('exit', () => writeFileSync(process.env.MK_TEST_LOADED_FILES, JSON.stringify(Object.keys(require.cache))))

// The configuration `npm run build` loads (build-tools/build.mjs): vite.config.ts, bundled in memory.
// Vite loads an ES module configuration from a temporary file it writes into node_modules/.vite-temp,
// which a read-only deployment refuses; a CommonJS one it compiles in memory.
module.exports = require("./vite.config.ts").default;

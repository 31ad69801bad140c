// Not the entry point: package.json's main names src/app.js.
throw new Error("index.ts ran although package.json names src/app.js as main");

#!/usr/bin/env node
// Thin entry: everything lives in dist/. A non-zero code from main() is a start-up failure;
// once connected, the server runs until the client closes standard input.
const { main } = await import('../dist/main.js');
const code = await main();
if (code !== 0) process.exitCode = code;

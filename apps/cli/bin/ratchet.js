#!/usr/bin/env node
// Thin entry: everything lives in dist/. Keep this file tiny: it runs on every agent call.
import { run } from '../dist/main.js';

process.exitCode = await run(process.argv.slice(2));

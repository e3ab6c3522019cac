#!/usr/bin/env node
// Entry point of the `sino` command: runs the compiled CLI (`npm run build:server` produces it).
import "../dist/node/cli/main.js";

#!/usr/bin/env node
// `iotdb-vectors`: the compiled checker (dist/vectors/cli.js). A file of the source tree, so that a workspace's
// install, which links the bin before anything is built, finds it.
import '../dist/vectors/cli.js';

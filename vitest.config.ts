import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

// Tests import the workspace packages from source, so the unit suite needs no build.
const alias = {
  '@iotdb/fast-serializer': src('fast-serializer'),
  '@iotdb/client': src('client'),
};

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          // one module cache a worker rather than one a file: half the suite's time, which was mostly imports (the
          // tests stub environment variables and timers only through vi, and undo them after each test)
          isolate: false,
          unstubEnvs: true,
          include: ['packages/*/src/**/*.test.ts'],
          // sessions read IOTDB_*: unit tests must not see the test server's (an empty variable is unset)
          env: { IOTDB_HOST: '', IOTDB_PORT: '', IOTDB_USER: '', IOTDB_PASSWORD: '', IOTDB_NODE_URLS: '' },
          exclude: ['packages/*/src/**/*.integration.test.ts', '**/node_modules/**', '**/dist/**'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['packages/*/src/**/*.integration.test.ts', 'packaging/**/*.integration.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**'],
          // starts a local IoTDB unless IOTDB_HOST is given, and stops what it started
          globalSetup: ['./scripts/iotdb-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // one server: test files run one after another so that they do not compete for it
          fileParallelism: false,
        },
      },
    ],
  },
});

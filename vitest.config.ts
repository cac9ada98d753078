import { mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// No test touches the real home directory: the tests, and every server and CLI run they start,
// get HOME and the XDG directories inside one test-owned directory (a test that needs its own
// passes it explicitly).
const TEST_HOME = path.join(os.tmpdir(), "scm-test-home");
mkdirSync(TEST_HOME, { recursive: true, mode: 0o700 });

// Behaviour tests start real processes and real servers: generous, bounded timeouts.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
    env: {
      HOME: TEST_HOME,
      XDG_CACHE_HOME: path.join(TEST_HOME, ".cache"),
      XDG_CONFIG_HOME: path.join(TEST_HOME, ".config"),
      XDG_DATA_HOME: path.join(TEST_HOME, ".local/share"),
      XDG_STATE_HOME: path.join(TEST_HOME, ".local/state"),
    },
  },
});

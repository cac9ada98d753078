import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Real hosts (Codex CLI, the DSH MCP client, the MCP Inspector CLI) against the built server.
// Each test starts real processes: generous, bounded timeouts; one file at a time per worker.
export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: ["test-hosts/**/*.test.ts"],
    exclude: ["test-hosts/node_modules/**", "node_modules/**"],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});

import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve("app"),
      "#db": path.resolve("db"),
      "#migrations": path.resolve("migrations"),
    },
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "scripts/**/*.test.ts", "tests/security/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { FAST_PASSWORD_HASH: "true", LOG_LEVEL: "silent", SESSION_SECRET: "test-secret-test-secret-test-secret-0123" },
  },
});

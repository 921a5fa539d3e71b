import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { cataloguePlugin } from "./app/i18n/catalogue-plugin";

export default defineConfig({
  plugins: [cataloguePlugin()],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: [
      "app/**/*.test.ts",
      "app/**/*.test.tsx",
      "scripts/**/*.test.ts",
      "server/**/*.test.ts",
      "tests/integration/**/*.test.ts",
    ],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

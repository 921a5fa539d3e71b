import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { cataloguePlugin } from "./app/i18n/catalogue-plugin";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  // The server bundle's entry is our Express app (server/app.ts), which mounts
  // React Router's request handler; React Router 8 reads it from environments.ssr.
  environments: {
    ssr: { build: { rollupOptions: { input: "./server/app.ts" } } },
  },
  ssr: {
    // Native or Node-only packages stay external to the server bundle.
    external: ["sharp", "pg", "pino"],
  },
  plugins: [cataloguePlugin(), tailwindcss(), reactRouter()],
});

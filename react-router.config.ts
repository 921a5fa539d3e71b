import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // A separate build directory lets parallel checkouts/tests build side by side.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;

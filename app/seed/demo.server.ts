import type { Services } from "../services.server";

export async function seedDemoIfEmpty(_services: Services): Promise<number> {
  return 0;
}

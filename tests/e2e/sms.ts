import fs from "node:fs";
import path from "node:path";
import type { GatewayText } from "../sms-gateway";

// Reads what the stand-in for Notify.lk (tests/sms-gateway.ts, a webServer in
// playwright.config.ts) was asked to text. Every test shares it: filter by a number of your own.

function gatewayDir(): string {
  const dir = process.env.SMS_GATEWAY_DIR;
  if (!dir) throw new Error("SMS_GATEWAY_DIR is not set (playwright.config.ts sets it)");
  return dir;
}

/** The 9-digit national number of a Sri Lankan number however it is written (0771234567, 94771234567, +94…). */
const national = (phone: string) => phone.replace(/\D/g, "").slice(-9);

/** Texts to the number, oldest first. */
export function readTexts(phone: string): GatewayText[] {
  const dir = gatewayDir();
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".json") && !name.startsWith("."))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as GatewayText)
    .filter((text) => national(text.to) === national(phone));
}

/** The 6-digit code of the `nth` text (1: the first) to the number, waiting up to `timeoutMs` for it. */
export async function waitForCode(phone: string, nth = 1, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = readTexts(phone)[nth - 1];
    const code = text ? /\b(\d{6})\b/.exec(text.text)?.[1] : undefined;
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`No text number ${nth} to ${phone} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

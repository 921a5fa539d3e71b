// A real local HTTP server that speaks two SMS gateways' protocols, for tests
// (like tests/smtp-sink.ts for mail): Notify.lk's send endpoint
// (POST /api/v1/send with user_id, api_key, sender_id, to, message, type=unicode;
// answers {"status":"success","data":"Sent"}) and Twilio Verify's
// Verifications and VerificationCheck (HTTP Basic; Twilio makes the code; a
// Locale it does not speak is a 404, as Twilio documents). Every text it would
// have sent is kept in `messages`. In-process for vitest (startSmsGateway);
// run as a program (SMS_GATEWAY_PORT, SMS_GATEWAY_DIR) it writes each text as
// JSON into the directory for browser tests.
import { randomInt } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type GatewayText = {
  gateway: "notifylk" | "twilio-verify";
  to: string;
  text: string;
  unicode: boolean;
  sender: string;
};

export const NOTIFY_USER = "1234";
export const NOTIFY_KEY = "test-key";
export const TWILIO_SID = "ACtest";
export const TWILIO_TOKEN = "test-token";
export const TWILIO_SERVICE = "VAtest";
/** The locales this stand-in for Twilio speaks; any other is a 404, like Twilio's answer to one it does not. */
const TWILIO_LOCALES = new Set(["en", "ta"]);

export type SmsGateway = {
  port: number;
  /** SMS_URL for Notify.lk through this server. */
  notifyLkUrl: string;
  /** SMS_URL for Twilio Verify through this server. */
  twilioVerifyUrl: string;
  messages: GatewayText[];
  /** Every request it answered, refused ones too. */
  requests: number;
  /** While true, every send fails as a gateway out of credit would. */
  failing: boolean;
  /** The 6-digit code in the latest text to `to` (E.164). */
  lastCode(to: string): string | undefined;
  close(): Promise<void>;
};

function readBody(request: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("error", reject);
    request.on("end", () => resolve(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
  });
}

function answer(response: http.ServerResponse, status: number, body: object) {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
}

export async function startSmsGateway(onText?: (text: GatewayText) => void, port = 0): Promise<SmsGateway> {
  const pending = new Map<string, { code: string; until: number }>();
  const gateway = {
    messages: [] as GatewayText[],
    requests: 0,
    failing: false,
  };
  const keep = (text: GatewayText) => {
    gateway.messages.push(text);
    onText?.(text);
  };

  async function notifyLk(request: http.IncomingMessage, response: http.ServerResponse) {
    const form = await readBody(request);
    if (form.get("user_id") !== NOTIFY_USER || form.get("api_key") !== NOTIFY_KEY)
      return answer(response, 401, { status: "error", message: "Invalid user_id or api_key" });
    const to = form.get("to") ?? "";
    const message = form.get("message") ?? "";
    if (!/^94\d{9}$/.test(to)) return answer(response, 400, { status: "error", message: "Invalid number" });
    if (!message || message.length > 621) return answer(response, 400, { status: "error", message: "Invalid message" });
    if (gateway.failing) return answer(response, 402, { status: "error", message: "Insufficient balance" });
    keep({
      gateway: "notifylk",
      to: `+${to}`,
      text: message,
      unicode: form.get("type") === "unicode",
      sender: form.get("sender_id") ?? "",
    });
    answer(response, 200, { status: "success", data: "Sent" });
  }

  async function twilio(request: http.IncomingMessage, response: http.ServerResponse, action: string) {
    const expected = `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString("base64")}`;
    if (request.headers.authorization !== expected)
      return answer(response, 401, { code: 20003, message: "Authenticate", status: 401 });
    const form = await readBody(request);
    const to = form.get("To") ?? "";
    if (action === "Verifications") {
      const locale = form.get("Locale");
      if (locale && !TWILIO_LOCALES.has(locale))
        return answer(response, 404, { code: 20404, message: "The requested resource was not found", status: 404 });
      if (gateway.failing) return answer(response, 429, { code: 60203, message: "Max send attempts reached" });
      const code = pending.get(to)?.code ?? String(randomInt(0, 1_000_000)).padStart(6, "0");
      pending.set(to, { code, until: Date.now() + 10 * 60_000 });
      keep({ gateway: "twilio-verify", to, text: `Your verification code is: ${code}`, unicode: false, sender: "" });
      return answer(response, 201, { sid: "VEtest", to, channel: "sms", status: "pending", valid: false });
    }
    const live = pending.get(to);
    if (!live || live.until < Date.now())
      return answer(response, 404, { code: 20404, message: "The requested resource was not found", status: 404 });
    if (form.get("Code") !== live.code) return answer(response, 200, { to, status: "pending", valid: false });
    pending.delete(to);
    answer(response, 200, { to, status: "approved", valid: true });
  }

  const server = http.createServer((request, response) => {
    gateway.requests++;
    const url = new URL(request.url ?? "/", "http://localhost");
    const verify = /^\/v2\/Services\/([^/]+)\/(Verifications|VerificationCheck)$/.exec(url.pathname);
    const route =
      request.method !== "POST"
        ? null
        : url.pathname === "/api/v1/send"
          ? notifyLk(request, response)
          : verify && verify[1] === TWILIO_SERVICE
            ? twilio(request, response, verify[2])
            : null;
    if (!route) return answer(response, 404, { status: "error", message: "Not found" });
    route.catch(() => answer(response, 500, { status: "error" }));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${bound}`;
  return Object.assign(gateway, {
    port: bound,
    notifyLkUrl: `notifylk://${NOTIFY_USER}:${NOTIFY_KEY}@Bodima?endpoint=${base}/api/v1/send`,
    twilioVerifyUrl: `twilio-verify://${TWILIO_SID}:${TWILIO_TOKEN}@${TWILIO_SERVICE}?endpoint=${base}`,
    lastCode(to: string) {
      const last = gateway.messages.findLast((message) => message.to === to);
      return last ? /\b(\d{6})\b/.exec(last.text)?.[1] : undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.SMS_GATEWAY_PORT);
  const dir = process.env.SMS_GATEWAY_DIR;
  if (!port || !dir) throw new Error("SMS_GATEWAY_PORT and SMS_GATEWAY_DIR are required");
  fs.mkdirSync(dir, { recursive: true });
  const gateway = await startSmsGateway((text) => {
    const name = `${Date.now()}-${randomInt(0, 1e9)}.json`;
    // Written then renamed, so a reader never sees half a file.
    fs.writeFileSync(path.join(dir, `.${name}`), JSON.stringify(text, null, 2));
    fs.renameSync(path.join(dir, `.${name}`), path.join(dir, name));
  }, port);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => gateway.close().then(() => process.exit(0)));
}

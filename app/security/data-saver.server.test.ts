import { describe, expect, it } from "vitest";
import { dataSaverOn, switchDataSaver } from "./data-saver.server";

// The footer switch's route (ADR 090): what a post gets back, and when data saver is on.

const env = { siteUrl: "https://bodima.lk", SITE_NAME: "Bodima" };

function post(fields: Record<string, string>, origin: string | null = "https://bodima.lk", referer?: string) {
  return new Request("https://bodima.lk/data-saver", {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      ...(origin ? { Origin: origin } : {}),
      ...(referer ? { Referer: referer } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("the data saver switch", () => {
  it("remembers the choice for a year and sends the reader back to the page, in its language", async () => {
    const from = "https://bodima.lk/si/listing/room-1?x=1";
    const answer = await switchDataSaver(post({ saver: "on" }, "https://bodima.lk", from), env);
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("https://bodima.lk/si/listing/room-1?x=1");
    expect(answer.headers.get("set-cookie")).toBe(
      "bodima_saver=on; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure",
    );
  });

  it("sends the reader home when the browser names no page of ours", async () => {
    for (const referer of [undefined, "https://evil.example/x"]) {
      const answer = await switchDataSaver(post({ saver: "off" }, "https://bodima.lk", referer), env);
      expect(answer.headers.get("location")).toBe("https://bodima.lk/");
    }
  });

  it("refuses a post from another site, or naming none, with words", async () => {
    for (const origin of ["https://evil.example", null]) {
      const answer = await switchDataSaver(post({ saver: "on" }, origin), env);
      expect(answer.status).toBe(403);
      expect(answer.headers.get("set-cookie")).toBeNull();
      expect(await answer.text()).toContain("sent from another website");
    }
  });

  it("refuses anything but on or off, with words", async () => {
    const answer = await switchDataSaver(post({ saver: "maybe" }), env);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toBe("Choose whether data saver is on or off.");
  });

  it("is on with Save-Data, unless the switch turned it off; the switch turned on wins too", () => {
    expect(dataSaverOn(undefined, "on")).toBe(true);
    expect(dataSaverOn(undefined, undefined)).toBe(false);
    expect(dataSaverOn("a=1; bodima_saver=off", "on")).toBe(false);
    expect(dataSaverOn("bodima_saver=on", undefined)).toBe(true);
    expect(dataSaverOn("bodima_saver=junk", "off")).toBe(false);
  });
});

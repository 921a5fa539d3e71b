import { expect, it } from "vitest";
import { checkBody } from "./body-limit.server";

// ADR 089: a browser's ping of a contact link is POST text/ping "PING"; nothing else may send that.
it("accepts a ping's text/ping body only on the contact links' tap counter", () => {
  const ping = { contentType: "text/ping", contentLength: "4" };
  expect(checkBody("POST", { ...ping, path: "/listing/room-1042/contact/call" })).toEqual({ ok: true });
  expect(checkBody("POST", { ...ping, path: "/si/listing/room-1042/contact/viber" })).toEqual({ ok: true });
  expect(checkBody("POST", { ...ping, path: "/shortlist" })).toMatchObject({ ok: false, status: 415 });
  expect(checkBody("POST", { ...ping, path: "/listing/room-1042/report" })).toMatchObject({ ok: false, status: 415 });
});

import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { describe, expect, it } from "vitest";
import { toFetchRequest } from "./web-adapter";

// The request React Router renders: its path is the path asked for, even one that starts with
// "//" (resolved as a URL, "//evil.example/language/en" named another host: ADR 062).

function expressRequest(url: string, host = "127.0.0.1:3999") {
  return {
    method: "GET",
    protocol: "http",
    originalUrl: url,
    headers: { host },
    get: (name: string) => (name.toLowerCase() === "host" ? host : undefined),
  } as unknown as ExpressRequest;
}
const expressResponse = { on: () => undefined } as unknown as ExpressResponse;

describe("toFetchRequest", () => {
  it("keeps a path that starts with // as a path on this host", () => {
    const request = toFetchRequest(
      expressRequest("//evil.example/language/en?next=/"),
      expressResponse,
      "//evil.example/language/en?next=/",
    );
    const url = new URL(request.url);
    expect(url.host).toBe("127.0.0.1:3999");
    expect(url.pathname).toBe("//evil.example/language/en");
    expect(url.search).toBe("?next=/");
  });

  it("renders an ordinary path and query as asked", () => {
    const request = toFetchRequest(expressRequest("/si/browse?x=1"), expressResponse, "/si/browse?x=1");
    expect(request.url).toBe("http://127.0.0.1:3999/si/browse?x=1");
  });
});

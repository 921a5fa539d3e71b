import { describe, expect, it } from "vitest";
import { isCrossSite, isForeignRequest, isSameOrigin, requestSource } from "./origin.server";

const SITE = "https://bodima.lk";

function post(headers: Record<string, string>, url = `${SITE}/contact`) {
  return new Request(url, { method: "POST", headers });
}

describe("the one origin check", () => {
  it("tells our pages, other sites and requests that name no origin apart", () => {
    const ours = [SITE];
    expect(requestSource({ origin: SITE }, ours)).toBe("same");
    expect(requestSource({ origin: "HTTPS://BODIMA.LK" }, ours)).toBe("same");
    expect(requestSource({ origin: "https://evil.example" }, ours)).toBe("foreign");
    expect(requestSource({ origin: "null" }, ours)).toBe("foreign");
    expect(requestSource({ origin: SITE, secFetchSite: "cross-site" }, ours)).toBe("foreign");
    expect(requestSource({ secFetchSite: "Cross-Site" }, ours)).toBe("foreign");
    expect(requestSource({}, ours)).toBe("unstated");
    expect(requestSource({ origin: "" }, ours)).toBe("unstated");
  });

  it("the middleware refuses foreign writes only; sessions need our own origin; the view counter refuses foreign ones", () => {
    expect(isForeignRequest("POST", { origin: "https://evil.example" }, [SITE])).toBe(true);
    expect(isForeignRequest("GET", { origin: "https://evil.example" }, [SITE])).toBe(false);
    expect(isForeignRequest("POST", {}, [SITE])).toBe(false);

    expect(isSameOrigin(post({ origin: SITE }), SITE)).toBe(true);
    // The origin the request was addressed to counts as ours too (a site reached by another name).
    expect(isSameOrigin(post({ origin: "http://127.0.0.1:3000" }, "http://127.0.0.1:3000/login"), SITE)).toBe(true);
    expect(isSameOrigin(post({}), SITE)).toBe(false);
    expect(isSameOrigin(post({ origin: "https://evil.example" }), SITE)).toBe(false);

    expect(isCrossSite(post({ origin: "https://evil.example" }), SITE)).toBe(true);
    expect(isCrossSite(post({ "sec-fetch-site": "cross-site" }), SITE)).toBe(true);
    expect(isCrossSite(post({}), SITE)).toBe(false);
    expect(isCrossSite(post({ origin: SITE }), SITE)).toBe(false);
  });
});

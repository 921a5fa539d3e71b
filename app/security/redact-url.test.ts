import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url";

describe("redactUrl", () => {
  it("hides the values of secret-looking query parameters and keeps everything else as sent", () => {
    expect(redactUrl("/reset-password?token=abcDEF123-_")).toBe("/reset-password?token=[redacted]");
    expect(redactUrl("/reset-password.data?token=abc&_routes=routes%2Freset-password")).toBe(
      "/reset-password.data?token=[redacted]&_routes=routes%2Freset-password",
    );
    expect(redactUrl("/x?access_token=a&refresh-token=b&ID_TOKEN=c&session=d&sessionToken=e")).toBe(
      "/x?access_token=[redacted]&refresh-token=[redacted]&ID_TOKEN=[redacted]&session=[redacted]&sessionToken=[redacted]",
    );
    expect(
      redactUrl("/login?password=hunter2&newPassword=x&pwd=y&code=123456&otp=1&api_key=k&sig=s&client_secret=z"),
    ).toBe(
      "/login?password=[redacted]&newPassword=[redacted]&pwd=[redacted]&code=[redacted]&otp=[redacted]&api_key=[redacted]&sig=[redacted]&client_secret=[redacted]",
    );
    // Encoded names are judged decoded; odd separators and fragments survive.
    expect(redactUrl("/x?tok%65n=abc;page=2#token=frag")).toBe("/x?tok%65n=[redacted];page=2#token=frag");
    expect(redactUrl("/x?%E0%A4%A=1&token=a")).toBe("/x?%E0%A4%A=1&token=[redacted]");
  });

  it("leaves ordinary addresses alone", () => {
    for (const url of [
      "/",
      "/browse?university=University%20of%20Moratuwa&minPrice=5000&sort=price_asc&page=3",
      "/login?redirectTo=%2Fdashboard",
      "/search/Kandy?q=room+near+campus",
      "/photos/abc123-token.webp",
      "/x?token",
      "/x?=token",
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe("redactUrl on link-signed pages (tokens in the path)", () => {
  it("hides the token of an alert, availability or shared-list link, in any language, page or data", () => {
    expect(redactUrl("/alerts/confirm/AbC123_-x.SiG-456")).toBe("/alerts/confirm/[redacted]");
    expect(redactUrl("/alerts/manage/Mng_Token-789")).toBe("/alerts/manage/[redacted]");
    expect(redactUrl("/si/alerts/stop/id1.sig2?x=1")).toBe("/si/alerts/stop/[redacted]?x=1");
    expect(redactUrl("/ta/alerts/unsubscribe/id1.sig2")).toBe("/ta/alerts/unsubscribe/[redacted]");
    expect(redactUrl("/availability/12.yes.1790000000.SiGnAtUrE")).toBe("/availability/[redacted]");
    expect(redactUrl("/s/abcd2345efgh")).toBe("/s/[redacted]");
    expect(redactUrl("/si/s/abcd2345efgh.data?_routes=routes%2Fshared-shortlist")).toBe(
      "/si/s/[redacted].data?_routes=routes%2Fshared-shortlist",
    );
    expect(redactUrl("/alerts/manage/Mng_Token-789?token=q")).toBe("/alerts/manage/[redacted]?token=[redacted]");
  });

  it("hides them in absolute links (emails), keeping a sentence's full stop", () => {
    expect(redactUrl("https://bodima.lk/si/alerts/confirm/id1.sig2.")).toBe(
      "https://bodima.lk/si/alerts/confirm/[redacted].",
    );
    expect(redactUrl("http://127.0.0.1:3999/availability/12.no.179.SIG")).toBe(
      "http://127.0.0.1:3999/availability/[redacted]",
    );
  });

  it("leaves other paths that merely look alike alone", () => {
    for (const url of [
      "/alerts/new",
      "/alerts/new?x=1",
      "/browse/s/x",
      "/listing/s-1001",
      "/shortlist",
      "/s",
      "/availability",
    ])
      expect(redactUrl(url)).toBe(url);
  });
});

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

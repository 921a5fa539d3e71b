import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import DevOutbox from "./dev.outbox";

type Props = Parameters<typeof DevOutbox>[0];

function render(text: string, status = "logged") {
  const loaderData = {
    siteName: "Bodima",
    siteUrl: "https://bodima.lk",
    messages: [
      {
        id: "m1",
        to: "kasun@example.com",
        replyTo: null,
        subject: "Reset <b>your</b> password",
        text,
        status,
        attempts: 1,
        lastError: null,
        createdAt: "2026-11-22T10:00:00.000Z",
      },
    ],
  };
  return renderToString(<DevOutbox {...({ loaderData } as unknown as Props)} />);
}

describe("/dev/outbox page", () => {
  it("makes links to our own site clickable and escapes everything else", () => {
    const html = render(
      "Open https://bodima.lk/reset-password?token=a&b=1 <script>alert(1)</script> or https://evil.example/x",
    );
    expect(html).toContain('<a href="https://bodima.lk/reset-password?token=a&amp;b=1"');
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain('href="https://evil.example');
    expect(html).toContain("Reset &lt;b&gt;your&lt;/b&gt; password");
    expect(html).toContain("Not sent (no SMTP_URL): printed to the server log");
  });

  it("shows a phone code the SMS outbox kept as a text message, not as an email", () => {
    const html = render("Bodima: 123456 is your code to confirm this phone number.", "sms");
    expect(html).toContain("Bodima: 123456 is your code");
    expect(html).toContain("Text message (SMS), not sent (SMS_URL is the outbox)");
    expect(html).not.toContain("no SMTP_URL");
  });
});

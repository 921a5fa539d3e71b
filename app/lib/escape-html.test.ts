import { describe, expect, it } from "vitest";
import { escapeHtml } from "./escape-html";

describe("escapeHtml", () => {
  it("turns the five HTML-special characters into numeric references", () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      "&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;Tom &#38; Jerry&#60;/a&#62;",
    );
  });

  it("leaves other text, Sinhala and Tamil included, as it is", () => {
    expect(escapeHtml("බෝඩිම் போர்டிங் 15,000/=")).toBe("බෝඩිම் போர்டிங் 15,000/=");
  });
});

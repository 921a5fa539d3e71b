import { describe, expect, it } from "vitest";
import { langAttribute, textLanguage } from "./text-language";

describe("textLanguage", () => {
  it("tells Sinhala, Tamil and English text apart by script", () => {
    expect(textLanguage("බෝඩිම කාමරය ශ්‍රී ජයවර්ධනපුර")).toBe("si");
    expect(textLanguage("யாழ்ப்பாணத்தில் அறை வாடகைக்கு")).toBe("ta");
    expect(textLanguage("Room near Moratuwa campus")).toBe("en");
  });

  it("goes by the script most of the text is in", () => {
    expect(textLanguage("A/C කාමරය, WiFi සහිතයි, කැම්පස් එකට ළඟයි")).toBe("si");
    expect(textLanguage("Single room for rent near the campus, அறை")).toBe("en");
    expect(textLanguage("Room அறை வாடகைக்கு யாழ்ப்பாணம்")).toBe("ta");
  });

  it("takes text with no letters, and other scripts, for English", () => {
    expect(textLanguage("")).toBe("en");
    expect(textLanguage("12345 !!!")).toBe("en");
    expect(textLanguage("Café résidence")).toBe("en");
  });
});

describe("langAttribute", () => {
  it("names the text's language only when it differs from the page's", () => {
    expect(langAttribute("බෝඩිම කාමරය", "en")).toBe("si");
    expect(langAttribute("அறை வாடகைக்கு", "en")).toBe("ta");
    expect(langAttribute("Room near campus", "en")).toBeNull();
    expect(langAttribute("බෝඩිම කාමරය", "si")).toBeNull();
    expect(langAttribute("Room near campus", "ta")).toBe("en");
  });
});

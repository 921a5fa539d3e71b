import { describe, expect, it } from "vitest";
import { markPhrases } from "./mark-phrases";

describe("markPhrases", () => {
  it("marks each phrase where it stands, whatever its case, and keeps the text between", () => {
    expect(markPhrases("Send Rs 10,000 by eZ Cash to reserve. Keys by post.", ["ez cash", "to reserve"])).toEqual([
      { text: "Send Rs 10,000 by ", marked: false },
      { text: "eZ Cash", marked: true },
      { text: " ", marked: false },
      { text: "to reserve", marked: true },
      { text: ". Keys by post.", marked: false },
    ]);
  });

  it("prefers the longer phrase, takes Sinhala and Tamil as written, and treats symbols literally", () => {
    expect(markPhrases("අත්තිකාරම් මුදල (Rs.) දැන්ම", ["අත්තිකාරම්", "අත්තිකාරම් මුදල", "(Rs.)"])).toEqual([
      { text: "අත්තිකාරම් මුදල", marked: true },
      { text: " ", marked: false },
      { text: "(Rs.)", marked: true },
      { text: " දැන්ම", marked: false },
    ]);
    expect(markPhrases("முன்பணம் அனுப்பவும்", ["முன்பணம்"])[0]).toEqual({ text: "முன்பணம்", marked: true });
  });

  it("marks nothing without phrases or matches", () => {
    expect(markPhrases("A quiet room", [])).toEqual([{ text: "A quiet room", marked: false }]);
    expect(markPhrases("A quiet room", ["advance"])).toEqual([{ text: "A quiet room", marked: false }]);
  });
});

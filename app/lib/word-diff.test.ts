import { describe, expect, it } from "vitest";
import { wordDiff } from "./word-diff";

describe("wordDiff", () => {
  it("marks the words only in the other text as removed and those only in this one as added", () => {
    expect(wordDiff("A quiet room near the gate, Rs 15000", "A quiet room near the main gate, Rs 9000")).toEqual([
      { kind: "same", text: "A quiet room near the" },
      { kind: "added", text: "main" },
      { kind: "same", text: "gate, Rs" },
      { kind: "added", text: "9000" },
      { kind: "removed", text: "15000" },
    ]);
  });

  it("keeps every word of both texts, in order", () => {
    const from = "Single room with attached bathroom and meals for girls";
    const to = "Large single room with bathroom, meals and WiFi for girls only";
    const parts = wordDiff(from, to);
    const words = (kinds: string[]) =>
      parts
        .filter((p) => kinds.includes(p.kind))
        .map((p) => p.text)
        .join(" ");
    expect(words(["same", "removed"])).toBe(from);
    expect(words(["same", "added"])).toBe(to);
  });

  it("finds nothing changed in the same text, and everything in unrelated ones", () => {
    expect(wordDiff("මල් ගෙවත්ත  සහිත කාමරය", "මල් ගෙවත්ත සහිත කාමරය")).toEqual([{ kind: "same", text: "මල් ගෙවත්ත සහිත කාමරය" }]);
    expect(wordDiff("one two", "three")).toEqual([
      { kind: "added", text: "three" },
      { kind: "removed", text: "one two" },
    ]);
  });
});

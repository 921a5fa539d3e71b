/**
 * A word diff for the moderators' side-by-side view of two descriptions
 * (ADR 078): the longest common sequence of words stays, words only in `from`
 * are 'removed', words only in `to` are 'added'. Whitespace is not compared.
 */
export type DiffPart = { kind: "same" | "added" | "removed"; text: string };

/** The texts are descriptions (at most a few thousand characters): a table of words × words is small. */
export function wordDiff(from: string, to: string): DiffPart[] {
  const a = from.split(/\s+/).filter(Boolean);
  const b = to.split(/\s+/).filter(Boolean);
  const width = b.length + 1;
  // lengths[i * width + j]: the longest common sequence of a[i..] and b[j..].
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart["kind"], word: string) => {
    const last = parts.at(-1);
    if (last?.kind === kind) last.text += ` ${word}`;
    else parts.push({ kind, text: word });
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push("same", a[i]!);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lengths[i * width + j + 1]! >= lengths[(i + 1) * width + j]!)) {
      push("added", b[j]!);
      j++;
    } else {
      push("removed", a[i]!);
      i++;
    }
  }
  return parts;
}

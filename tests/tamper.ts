/**
 * The text with its last `count` characters each replaced by a different one:
 * a signature or token altered for certain. Writing a fixed tail ("AA", "xx")
 * instead leaves the text unchanged whenever it already ended that way, about
 * once in a thousand runs for a base64url signature, and the test then fails
 * for no fault of the code.
 */
export function alterEnd(text: string, count = 2): string {
  const tail = [...text.slice(-count)].map((c) => (c === "A" ? "B" : "A")).join("");
  return `${text.slice(0, -count)}${tail}`;
}

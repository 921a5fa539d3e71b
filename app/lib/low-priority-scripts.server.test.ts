import { describe, expect, it } from "vitest";
import { lowPriorityScripts } from "./low-priority-scripts.server";

async function through(chunks: Buffer[]): Promise<string> {
  const stream = lowPriorityScripts();
  const out: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => stream.on("end", resolve));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await done;
  return Buffer.concat(out).toString("utf8");
}

const HTML =
  '<head><link rel="preload" href="/a.json" as="fetch"/><title>බෝඩිම தங்குமிடம்</title></head><body><p>කාමර</p>' +
  '<link rel="modulepreload" href="/assets/entry.js"/><link rel="modulepreload" href="/assets/root.js"/></body>';
const EXPECTED = HTML.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"');

describe("lowPriorityScripts", () => {
  it("marks every module preload low and leaves everything else as it was", async () => {
    expect(await through([Buffer.from(HTML)])).toBe(EXPECTED);
  });

  it("gives the same bytes whatever the chunk boundaries, inside a tag or a Sinhala or Tamil character", async () => {
    const bytes = Buffer.from(HTML);
    for (let cut = 1; cut < bytes.length; cut += 1) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(EXPECTED);
    }
    const oneByteAtATime = Array.from(bytes, (byte) => Buffer.from([byte]));
    expect(await through(oneByteAtATime)).toBe(EXPECTED);
  });

  it("keeps a page end that only looks like the start of a tag", async () => {
    expect(await through([Buffer.from("<p>x</p><link rel")])).toBe("<p>x</p><link rel");
  });
});

// A small MIME reader for the test SMTP sink: enough for what nodemailer
// writes (7bit, quoted-printable or base64 bodies; multipart/alternative;
// RFC 2047 encoded words). Not for mail from the outside world.

export type ReceivedMail = {
  from: string;
  to: string[];
  subject: string;
  replyTo: string;
  text: string;
  html: string;
  /** The message's own headers, names lower-cased, folded lines joined. */
  headers: Record<string, string>;
  raw: string;
};

type Part = { headers: Map<string, string>; body: string };

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, "\n");
  const end = normalized.indexOf("\n\n");
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? "" : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, " ").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function param(header: string | undefined, name: string): string | undefined {
  const match = header?.match(new RegExp(`${name}="?([^";]+)"?`, "i"));
  return match?.[1];
}

function decodeQuotedPrintable(text: string, underscoreIsSpace = false): Buffer {
  const bytes: number[] = [];
  const source = (underscoreIsSpace ? text.replace(/_/g, " ") : text).replace(/=\n/g, "");
  for (let i = 0; i < source.length; i++) {
    const hex = source.slice(i + 1, i + 3);
    if (source[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(source[i], "utf8"));
    }
  }
  return Buffer.from(bytes);
}

export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, data: string) =>
      (encoding.toUpperCase() === "B" ? Buffer.from(data, "base64") : decodeQuotedPrintable(data, true)).toString(
        "utf8",
      ),
    );
}

function decodeBody(part: Part): string {
  const encoding = part.headers.get("content-transfer-encoding")?.toLowerCase();
  if (encoding === "base64") return Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(part.body).toString("utf8");
  return part.body;
}

function collectBodies(part: Part, out: { text: string; html: string }) {
  const type = part.headers.get("content-type") ?? "text/plain";
  const boundary = param(type, "boundary");
  if (/^multipart\//i.test(type) && boundary) {
    const sections = part.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith("--")) break;
      collectBodies(splitPart(section.replace(/^\n/, "")), out);
    }
  } else if (/^text\/html/i.test(type)) {
    out.html ||= decodeBody(part);
  } else if (/^text\/plain/i.test(type)) {
    out.text ||= decodeBody(part).replace(/\n$/, "");
  }
}

/** `to` comes from the SMTP envelope (RCPT TO), the rest from the message. */
export function parseMail(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const message = splitPart(raw);
  const bodies = { text: "", html: "" };
  collectBodies(message, bodies);
  return {
    from: envelope.from,
    to: envelope.to,
    subject: decodeWords(message.headers.get("subject") ?? ""),
    replyTo: decodeWords(message.headers.get("reply-to") ?? ""),
    text: bodies.text,
    html: bodies.html,
    headers: Object.fromEntries(message.headers),
    raw,
  };
}

import { Fragment, type ReactNode } from "react";

type TagRenderers = Record<string, (children: string) => ReactNode>;

/**
 * Renders a translated message containing simple tags, e.g.
 * "Email <mail>{email}</mail>." with { mail: (text) => <a href=...>{text}</a> }.
 * Text outside known tags stays plain text (React escapes it).
 */
export function RichText({ message, tags }: { message: string; tags: TagRenderers }) {
  const parts: ReactNode[] = [];
  const pattern = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  for (const match of message.matchAll(pattern)) {
    const [whole, tag, inner] = match;
    const render = tags[tag];
    parts.push(message.slice(last, match.index));
    parts.push(render ? render(inner) : whole);
    last = match.index + whole.length;
  }
  parts.push(message.slice(last));
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed message never move
        <Fragment key={i}>{part}</Fragment>
      ))}
    </>
  );
}

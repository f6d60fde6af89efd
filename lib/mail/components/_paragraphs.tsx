/** How the email components show a block of editable copy (issue 13): as paragraphs. */
import type { CSSProperties, ReactNode } from "react";
import { Text } from "jsx-email";
import { paragraphs } from "../copy.ts";

/**
 * `text` with the first occurrence of `bold` set in `<strong>`. Some emails stress one value (the
 * balance, the firm's name); marking the value rather than a place in the words keeps it stressed
 * wherever an admin moves it, with no markup syntax in the copy. Text without it stays plain.
 */
export function emphasize(text: string, bold?: string): ReactNode {
  const at = bold ? text.indexOf(bold) : -1;
  if (!bold || at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <strong>{bold}</strong>
      {text.slice(at + bold.length)}
    </>
  );
}

/**
 * A block as paragraphs (blank lines separate them) in `style`, each with its first `bold`
 * stressed. An empty block shows nothing, so an admin can drop an optional paragraph.
 */
export function Paragraphs(
  { text, style, bold }: { text: string; style: CSSProperties; bold?: string },
) {
  return (
    <>
      {paragraphs(text).map((paragraph, i) => (
        <Text key={i} style={style}>{emphasize(paragraph, bold)}</Text>
      ))}
    </>
  );
}

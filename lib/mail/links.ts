/**
 * The links of an email, for the admin's view of an outbox message: an invitation's or a
 * reset's set-password link must be reachable when no mail server delivers it.
 */

/** One link of an email: the words it is on (empty when none) and where it goes. */
export interface EmailLink {
  text: string;
  href: string;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X"
        ? parseInt(name.slice(2), 16)
        : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function isWebUrl(href: string): boolean {
  try {
    const url = new URL(href);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * The http(s) links of an email, in order, each once: the anchors of `html` with their words,
 * then any URL of `text` the HTML did not have. Other schemes (mailto:, tel:) are left out.
 * The HTML is one of ours (lib/mail/render.tsx), so a plain scan of `<a href>` suffices.
 */
export function emailLinks({ html, text }: { html: string; text: string }): EmailLink[] {
  const links: EmailLink[] = [];
  const seen = new Set<string>();
  const anchor = /<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')[^>]*>([\s\S]*?)<\/a\s*>/gi;
  for (const m of html.matchAll(anchor)) {
    const href = decodeEntities((m[1] ?? m[2] ?? "").trim());
    if (!isWebUrl(href) || seen.has(href)) continue;
    seen.add(href);
    const words = decodeEntities(m[3].replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
    links.push({ text: words === href ? "" : words, href });
  }
  for (const m of text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) {
    const href = m[0].replace(/[.,;:!?]+$/, "");
    if (!isWebUrl(href) || seen.has(href)) continue;
    seen.add(href);
    links.push({ text: "", href });
  }
  return links;
}

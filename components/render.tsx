import type { ReactElement } from "react";
import { renderToString } from "./react_server.ts";
import type { AppDeps } from "../lib/deps.ts";
import type { SessionUser } from "../lib/roles.ts";
import { IslandCollector, IslandContext } from "./Island.tsx";
import { MapOutlineContext } from "./StatesOutline.tsx";
import { oneByteHtml } from "./one_byte_html.ts";

/** What a page says about itself in <head>. */
export interface PageMeta {
  title: string;
  description?: string;
  /** Path for the canonical link and og:url; omit for pages that should not be indexed. */
  path?: string;
  noindex?: boolean;
  /** Extra class on <body>, e.g. "app" for the signed-in layout. */
  bodyClass?: string;
  /**
   * The page's address carries a secret (a set-password, claim or lead link's token): no
   * third-party script (analytics, chat) is loaded, since any script on the page can read it.
   */
  hasSecretInUrl?: boolean;
}

const SITE_NAME = "Meridian";
const DEFAULT_DESCRIPTION =
  "Instant, free quotes for boundary, topographic, ALTA, elevation certificate, construction and subdivision surveys from licensed land surveyors near you.";

function escapeHtml(text: string): string {
  return oneByteHtml(text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  ));
}

/** The minimal context `renderPage` needs: the app deps (and optionally a user). */
export interface RenderContext {
  var: {
    deps: AppDeps;
    user?: SessionUser | null;
    session?: { impersonatorId: string | null } | null;
  };
}

/** Set by `deno task dev` for the server it starts (dev.ts); read once, not per page. */
const DEV_RELOAD = Deno.env.get("MERIDIAN_DEV_RELOAD") === "1";

/**
 * Renders a whole HTML document: `body` first (collecting the islands it uses), then the head
 * with the stylesheet and only those islands' scripts. No inline scripts.
 */
export function renderPage(c: RenderContext, meta: PageMeta, body: ReactElement): string {
  const { assets, config } = c.var.deps;
  const collector = new IslandCollector(assets.islands);
  const bodyHtml = renderToString(
    <IslandContext.Provider value={collector}>
      <MapOutlineContext.Provider value={assets.mapOutline}>{body}</MapOutlineContext.Provider>
    </IslandContext.Provider>,
  );
  const title = meta.title.includes(SITE_NAME) ? meta.title : `${meta.title} | ${SITE_NAME}`;
  const description = meta.description ?? DEFAULT_DESCRIPTION;
  const head: string[] = [
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(description)}">`,
    `<meta name="theme-color" content="#0f4c5c">`,
    `<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">`,
    `<link rel="stylesheet" href="${assets.css}">`,
  ];
  if (meta.noindex || !meta.path) head.push(`<meta name="robots" content="noindex">`);
  if (meta.path) {
    const url = new URL(meta.path, config.PUBLIC_URL).href;
    head.push(
      `<link rel="canonical" href="${escapeHtml(url)}">`,
      `<meta property="og:type" content="website">`,
      `<meta property="og:site_name" content="${SITE_NAME}">`,
      `<meta property="og:title" content="${escapeHtml(title)}">`,
      `<meta property="og:description" content="${escapeHtml(description)}">`,
      `<meta property="og:url" content="${escapeHtml(url)}">`,
      `<meta property="og:image" content="${
        escapeHtml(new URL("/static/og-image.png", config.PUBLIC_URL).href)
      }">`,
      `<meta name="twitter:card" content="summary_large_image">`,
    );
  }
  if (collector.names.size > 0) {
    // Only eager islands are preloaded, with React; `interaction` ones load when touched.
    const preload = new Set<string>(collector.eager.size > 0 ? assets.boot.preload : []);
    for (const name of collector.eager) {
      const island = assets.islands[name];
      if (!island) throw new Error(`Island ${name} is not in the build manifest`);
      preload.add(island.src);
      for (const p of island.preload) preload.add(p);
    }
    // A classic script, so it runs before the visitor can press anything (islands/_early.ts).
    head.push(`<script src="${assets.early}"></script>`);
    head.push(`<script type="module" src="${assets.boot.src}"></script>`);
    for (const src of preload) head.push(`<link rel="modulepreload" href="${src}">`);
  }
  if (config.ANALYTICS_SCRIPT_URL && config.ANALYTICS_SITE_ID && !meta.hasSecretInUrl) {
    head.push(
      `<script defer src="${escapeHtml(config.ANALYTICS_SCRIPT_URL)}" data-domain="${
        escapeHtml(config.ANALYTICS_SITE_ID)
      }" data-site-id="${escapeHtml(config.ANALYTICS_SITE_ID)}"></script>`,
    );
  }
  if (config.CHAT_WIDGET_APP_ID && !meta.hasSecretInUrl) {
    head.push(chatWidgetTag(c, config.CHAT_WIDGET_APP_ID));
  }
  if (DEV_RELOAD) {
    head.push(`<script type="module" src="/static/dev-reload.js"></script>`);
  }
  const bodyClass = meta.bodyClass ? ` class="${escapeHtml(meta.bodyClass)}"` : "";
  return `<!DOCTYPE html><html lang="en"><head>${
    head.join("")
  }</head><body${bodyClass}>${bodyHtml}</body></html>`;
}

/**
 * The customer-chat loader tag (static/chat-widget.js reads these data attributes). Signed-in
 * users are identified with id, email, name, role, company, phone, created_at and last_login;
 * signed-out visitors, and an admin impersonating someone (who must not chat as that user),
 * get an anonymous widget.
 */
function chatWidgetTag(c: RenderContext, appId: string): string {
  const attrs: Record<string, string | null | undefined> = { "data-app-id": appId };
  const user = c.var.user;
  if (user && !c.var.session?.impersonatorId) {
    Object.assign(attrs, {
      "data-user-id": user.id,
      "data-email": user.email,
      "data-name": user.fullName,
      "data-role": user.role,
      "data-company": user.companyName,
      "data-phone": user.phone,
      "data-created-at": user.createdAt,
      "data-last-login": user.lastLogin,
    });
  }
  const rendered = Object.entries(attrs)
    .filter(([, value]) => value)
    .map(([name, value]) => ` ${name}="${escapeHtml(String(value))}"`)
    .join("");
  return `<script defer src="/static/chat-widget.js"${rendered}></script>`;
}

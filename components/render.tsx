import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import type { AppDeps, SessionUser } from "../routes/_env.ts";
import { IslandCollector, IslandContext } from "./Island.tsx";

/** What a page says about itself in <head>. */
export interface PageMeta {
  title: string;
  description?: string;
  /** Path for the canonical link and og:url; omit for pages that should not be indexed. */
  path?: string;
  noindex?: boolean;
  /** Extra class on <body>, e.g. "app" for the signed-in layout. */
  bodyClass?: string;
}

const SITE_NAME = "Meridian";
const DEFAULT_DESCRIPTION =
  "Instant, free quotes for boundary, topographic, ALTA, elevation certificate, construction and subdivision surveys from licensed land surveyors near you.";

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );
}

/** The minimal context `renderPage` needs: the app deps (and optionally a user). */
export interface RenderContext {
  var: { deps: AppDeps; user?: SessionUser | null };
}

/**
 * Renders a whole HTML document: `body` first (collecting the islands it uses), then the head
 * with the stylesheet and only those islands' scripts. No inline scripts.
 */
export function renderPage(c: RenderContext, meta: PageMeta, body: ReactElement): string {
  const { assets, config } = c.var.deps;
  const collector = new IslandCollector(assets.islands);
  const bodyHtml = renderToString(
    <IslandContext.Provider value={collector}>{body}</IslandContext.Provider>,
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
    const preload = new Set<string>(assets.boot.preload);
    for (const name of collector.names) {
      const island = assets.islands[name];
      if (!island) throw new Error(`Island ${name} is not in the build manifest`);
      preload.add(island.src);
      for (const p of island.preload) preload.add(p);
    }
    head.push(`<script type="module" src="${assets.boot.src}"></script>`);
    for (const src of preload) head.push(`<link rel="modulepreload" href="${src}">`);
  }
  if (config.ANALYTICS_SCRIPT_URL && config.ANALYTICS_SITE_ID) {
    head.push(
      `<script defer src="${escapeHtml(config.ANALYTICS_SCRIPT_URL)}" data-domain="${
        escapeHtml(config.ANALYTICS_SITE_ID)
      }" data-site-id="${escapeHtml(config.ANALYTICS_SITE_ID)}"></script>`,
    );
  }
  if (Deno.env.get("MERIDIAN_DEV_RELOAD") === "1") {
    head.push(`<script type="module" src="/static/dev-reload.js"></script>`);
  }
  const bodyClass = meta.bodyClass ? ` class="${escapeHtml(meta.bodyClass)}"` : "";
  return `<!DOCTYPE html><html lang="en"><head>${
    head.join("")
  }</head><body${bodyClass}>${bodyHtml}</body></html>`;
}

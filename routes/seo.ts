import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { PUBLIC_PAGES } from "../lib/public_pages.ts";
import { listPublicFirmPaths } from "../db/firm_profiles.ts";

/**
 * /sitemap.xml and /robots.txt listing the public pages, and in the sitemap every active,
 * verified firm's profile (/firms/{slug}).
 */
export const seo = new Hono<AppEnv>()
  .get("/sitemap.xml", async (c) => {
    const base = c.var.deps.config.PUBLIC_URL;
    const urls = PUBLIC_PAGES.map((path) =>
      `<url><loc>${new URL(path, base).href}</loc><changefreq>${
        path === "/" ? "weekly" : "monthly"
      }</changefreq><priority>${path === "/" ? "1.0" : "0.8"}</priority></url>`
    ).join("");
    // Slugs are letters, digits and hyphens only: nothing to escape in the XML.
    const firmUrls = (await listPublicFirmPaths(c.var.db)).map((f) =>
      `<url><loc>${new URL(f.path, base).href}</loc><lastmod>${
        f.updatedAt.slice(0, 10)
      }</lastmod><changefreq>weekly</changefreq><priority>0.6</priority></url>`
    ).join("");
    c.header("Cache-Control", "public, max-age=3600");
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}${firmUrls}</urlset>\n`,
      200,
      { "Content-Type": "application/xml; charset=utf-8" },
    );
  })
  .get("/robots.txt", (c) => {
    const base = c.var.deps.config.PUBLIC_URL;
    const lines = [
      "User-agent: *",
      ...PUBLIC_PAGES.map((p) => `Allow: ${p === "/" ? "/$" : p}`),
      "Allow: /firms/",
      "Allow: /land-surveyors/",
      "Disallow: /api/",
      "Disallow: /auth",
      "Disallow: /dashboard",
      "Disallow: /admin",
      `Sitemap: ${new URL("/sitemap.xml", base).href}`,
      `Sitemap: ${new URL("/sitemap-local.xml", base).href}`,
      "",
    ];
    c.header("Cache-Control", "public, max-age=3600");
    return c.text(lines.join("\n"));
  });

import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { publicPage } from "./_pages.ts";
import { SERVICE_PAGES } from "../lib/service_content.ts";
import { ServicePage } from "../components/ServicePage.tsx";

/** Service pages for the six survey types, one per `SERVICE_PAGES` entry. */
export const services = new Hono<AppEnv>();

for (const content of SERVICE_PAGES) {
  const meta = { title: content.title, description: content.description, path: content.type.path };
  services.get(
    content.type.path,
    (c) => publicPage(c, meta, (user) => <ServicePage content={content} user={user} />),
  );
}

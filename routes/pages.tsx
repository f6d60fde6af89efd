import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { publicPage } from "./_pages.ts";
import { PublicLayout } from "../components/PublicLayout.tsx";

/** Public marketing pages. */
export const pages = new Hono<AppEnv>()
  .get(
    "/",
    (c) =>
      publicPage(
        c,
        { title: "Meridian — Instant Land Survey Quotes", path: "/" },
        (user) => (
          <PublicLayout user={user}>
            <section className="container">
              <h1>Land surveys, quoted instantly</h1>
              <a className="btn btn--primary" href="/create-survey">Get Free Quote Now</a>
            </section>
          </PublicLayout>
        ),
      ),
  );

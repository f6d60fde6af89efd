import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { dashboardPath } from "../lib/return_to.ts";
import { publicPage } from "./_pages.ts";
import { PublicLayout } from "../components/PublicLayout.tsx";
import { Hero } from "../components/home/Hero.tsx";
import { TrustStats } from "../components/home/TrustStats.tsx";
import { ValueCards } from "../components/home/ValueCards.tsx";
import { HowItWorks } from "../components/home/HowItWorks.tsx";
import { Testimonials } from "../components/home/Testimonials.tsx";
import { ServiceCards } from "../components/home/ServiceCards.tsx";
import { BottomCta } from "../components/home/BottomCta.tsx";

/** The landing page's head tags. */
export const LANDING_META = {
  title: "Meridian — Instant Free Land Survey Quotes from Licensed Surveyors",
  description:
    "Get an instant, free quote for a boundary, topographic, ALTA, elevation certificate, construction or subdivision survey. Licensed surveyors near you, no upfront payment.",
  path: "/",
};

/**
 * The landing page. Signed-in users go to their dashboard unless `surveyFlow=true` (they are
 * starting a survey request from the landing forms).
 */
export const pages = new Hono<AppEnv>()
  .get("/", (c) => {
    const user = c.var.user;
    if (user && c.req.query("surveyFlow") !== "true") {
      c.header("Cache-Control", "private, no-store");
      return c.redirect(dashboardPath(user.role), 302);
    }
    return publicPage(c, LANDING_META, (u) => (
      <PublicLayout user={u} isHome>
        <Hero />
        <TrustStats />
        <ValueCards />
        <HowItWorks />
        <ServiceCards />
        <Testimonials />
        <BottomCta />
      </PublicLayout>
    ));
  });

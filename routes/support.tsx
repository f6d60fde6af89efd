import type { ReactElement } from "react";
import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { publicPage } from "./_pages.ts";
import { ContentPage } from "../components/ContentPage.tsx";
import { HelpCenter } from "../components/support/HelpCenter.tsx";
import { Contact } from "../components/support/Contact.tsx";
import { PrivacyPolicy } from "../components/support/PrivacyPolicy.tsx";
import { GettingStarted } from "../components/support/GettingStarted.tsx";
import { QualityStandards } from "../components/support/QualityStandards.tsx";
import { TimelineScheduling } from "../components/support/TimelineScheduling.tsx";
import { About } from "../components/support/About.tsx";

/** A support or company page: its head tags, heading band and body. */
export interface SupportPage {
  path: string;
  title: string;
  description: string;
  eyebrow: string;
  heading: string;
  lead: string;
  body: () => ReactElement;
}

/** Every support page plus /about, each with its own title and description. */
export const SUPPORT_PAGES: SupportPage[] = [
  {
    path: "/support/help-center",
    title: "Help Center — Answers About Quotes, Scheduling and Surveys",
    description:
      "Answers about Meridian's instant survey quotes, pricing, scheduling, turnaround, deliverables and joining as a surveyor.",
    eyebrow: "Support",
    heading: "Help Center",
    lead: "Answers to the questions property owners and surveyors ask us most.",
    body: HelpCenter,
  },
  {
    path: "/support/contact",
    title: "Contact Us — Meridian Support",
    description:
      "Send Meridian's support team a message about a quote, a survey in progress or joining as a surveyor. We reply within one business day.",
    eyebrow: "Support",
    heading: "Contact Us",
    lead:
      "Send us a message and a real person on our support team will reply within one business day.",
    body: Contact,
  },
  {
    path: "/support/privacy-policy",
    title: "Privacy Policy",
    description:
      "How Meridian collects, uses, shares and keeps personal information, including our chat widget, analytics, cookies and your privacy rights.",
    eyebrow: "Legal",
    heading: "Privacy Policy",
    lead: "What we collect, why, who we share it with and how long we keep it, in plain language.",
    body: PrivacyPolicy,
  },
  {
    path: "/support/getting-started",
    title: "Getting Started — Choose and Order the Right Land Survey",
    description:
      "How to request a land survey on Meridian, which survey you need, what to have ready, and how licensed surveyors join and receive leads.",
    eyebrow: "Guide",
    heading: "Getting Started",
    lead: "Order the right survey in a few minutes, or join as a licensed surveyor.",
    body: GettingStarted,
  },
  {
    path: "/support/quality-standards",
    title: "Quality Standards — Licensed, Sealed, Rated Surveys",
    description:
      "How Meridian verifies every surveyor's state license and insurance, the standards each survey meets, and what happens if something is not right.",
    eyebrow: "Our promise",
    heading: "Quality Standards",
    lead:
      "Every survey on Meridian is done by a licensed professional and held to the same standards.",
    body: QualityStandards,
  },
  {
    path: "/support/timeline-scheduling",
    title: "Timeline & Scheduling — Survey Turnaround Times",
    description:
      "Survey turnaround: mostly 5-10 business days; elevation certificates 3-5 days; ALTA 7-14 days. How scheduling works and what can change it.",
    eyebrow: "Support",
    heading: "Timeline & Scheduling",
    lead: "How long each survey takes, how your visit is booked and what can move the dates.",
    body: TimelineScheduling,
  },
  {
    path: "/about",
    title: "About Meridian — The Nationwide Land Survey Marketplace",
    description:
      "Meridian connects property owners with licensed land surveyors nationwide: instant free quotes, no upfront payment, 1,200+ surveyors and a 4.9 average rating.",
    eyebrow: "About us",
    heading: "About Meridian",
    lead:
      "We make ordering a land survey as simple as it should be, without cutting professional corners.",
    body: About,
  },
];

/** Support pages and /about, each served from memory for signed-out visitors. */
export const support = new Hono<AppEnv>();

for (const page of SUPPORT_PAGES) {
  const meta = { title: page.title, description: page.description, path: page.path };
  const Body = page.body;
  support.get(page.path, (c) =>
    publicPage(c, meta, (user) => (
      <ContentPage
        path={page.path}
        eyebrow={page.eyebrow}
        heading={page.heading}
        lead={page.lead}
        user={user}
      >
        <Body />
      </ContentPage>
    )));
}

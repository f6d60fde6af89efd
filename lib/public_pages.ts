/** Every public, indexable page: listed in the sitemap and checked end to end. */
export const PUBLIC_PAGES = [
  "/",
  "/services/boundary-surveys",
  "/services/topographic-surveys",
  "/services/alta-surveys",
  "/services/elevation-certificates",
  "/services/construction-surveys",
  "/services/subdivision-surveys",
  "/support/help-center",
  "/support/contact",
  "/support/privacy-policy",
  "/support/getting-started",
  "/support/quality-standards",
  "/support/timeline-scheduling",
  "/about",
  "/for-surveyors",
] as const;

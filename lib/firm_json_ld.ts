/**
 * schema.org data for a public firm profile (/firms/{slug}): a `LocalBusiness` with its
 * address (town and state only), area served (the verified licence states), and, only when
 * clients have reviewed it on Meridian, an `AggregateRating` and the reviews on the page.
 */
import type { PublicFirm, PublicReview } from "../db/firm_profiles.ts";

/** The JSON-LD object for `firm` at `url` with the `reviews` shown on the page. */
export function firmJsonLd(
  firm: PublicFirm,
  reviews: readonly PublicReview[],
  url: string,
): Record<string, unknown> {
  const data: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": url,
    name: firm.companyName,
    url,
    description: `Licensed land surveyor${
      firm.city ? ` in ${firm.city}` : ""
    }, verified by Meridian.`,
  };
  if (firm.principalName) {
    data.founder = { "@type": "Person", name: firm.principalName };
  }
  if (firm.city || firm.state) {
    data.address = {
      "@type": "PostalAddress",
      ...(firm.city ? { addressLocality: firm.city } : {}),
      ...(firm.state ? { addressRegion: firm.state } : {}),
      addressCountry: "US",
    };
  }
  if (firm.licenseStates.length) {
    data.areaServed = firm.licenseStates.map((s) => ({ "@type": "State", name: s }));
  }
  if (firm.rating !== null && firm.reviewCount > 0) {
    data.aggregateRating = {
      "@type": "AggregateRating",
      ratingValue: firm.rating,
      reviewCount: firm.reviewCount,
      bestRating: 5,
      worstRating: 1,
    };
    data.review = reviews.map((r) => ({
      "@type": "Review",
      author: { "@type": "Person", name: r.firstName },
      datePublished: r.createdAt.slice(0, 10),
      reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
      ...(r.text ? { reviewBody: r.text } : {}),
    }));
  }
  return data;
}

/**
 * `data` as the text of a `<script type="application/ld+json">`: `<`, `>` and `&` escaped as
 * JSON unicode escapes, so no text a client or firm typed can close the element.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

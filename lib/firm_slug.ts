/**
 * Public firm addresses (issue 22, "Public firm profiles"): `/firms/{slug}`, the slug made from
 * the company name and the record's id, so two firms of the same name never share one and a
 * renamed firm's old link can still be recognised by its id part. Browser-safe.
 */
import { remembered } from "./remembered.ts";

/** Characters of the record id kept at the end of the slug. */
export const FIRM_SLUG_ID_LENGTH = 8;
const NAME_MAX = 60;

/**
 * "ortiz-land-surveying-3f1c2a9e" for "Ortiz Land Surveying, LLC" ("llc" kept: the name as the
 * firm spells it, lower-cased, accents dropped, anything but letters and digits a hyphen) and
 * id 3f1c2a9e-…: the same input always gives the same slug. A name with no letters or digits
 * gives "firm-3f1c2a9e".
 */
export function firmSlug(companyName: string, id: string): string {
  return slugs(`${id} ${companyName}`);
}

// Remembered: the directory's map and table make one for each of up to 125 firms a page, and
// the Unicode normalisation was 1.3 % of /surveyors' CPU (bench/signed_in_pages.ts --profile).
const slugs = remembered((key: string) => {
  const at = key.indexOf(" ");
  const [id, companyName] = [key.slice(0, at), key.slice(at + 1)];
  const name = companyName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, NAME_MAX)
    .replace(/-+$/g, "");
  const tail = id.replace(/-/g, "").slice(0, FIRM_SLUG_ID_LENGTH).toLowerCase();
  return `${name || "firm"}-${tail}`;
});

/** The firm's public page: `/firms/{firmSlug}`. */
export function firmProfilePath(companyName: string, id: string): string {
  return `/firms/${firmSlug(companyName, id)}`;
}

/** The id prefix a slug ends with (what the firm page looks the record up by), or null. */
export function firmSlugIdPrefix(slug: string): string | null {
  const match = /-([0-9a-f]{8})$/.exec(slug);
  return match ? match[1] : null;
}

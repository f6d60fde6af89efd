import { Icon } from "../Icon.tsx";

/** Spec section 1: the landing page's marketing claims, word for word. */
export const TRUST_STATS = [
  { value: "50,000+", label: "properties" },
  { value: "1,200+", label: "surveyors" },
  { value: "4.9", label: "average rating" },
  { value: "48 hrs", label: "average response" },
] as const;

/** The four trust statistics; each reads as one phrase ("50,000+ properties"). */
export function TrustStats() {
  return (
    <section className="stats" aria-label="Meridian in numbers">
      <ul className="container stats__list" role="list">
        {TRUST_STATS.map((s) => (
          <li key={s.label} className="stats__item">
            <span className="stats__value">
              {s.value}
              {s.value === "4.9"
                ? <Icon name="star" size={22} filled className="stats__star" />
                : null}
            </span>{" "}
            <span className="stats__label">{s.label}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

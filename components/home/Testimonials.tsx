import { Icon } from "../Icon.tsx";

const TESTIMONIALS = [
  {
    quote:
      "Our neighbor insisted the old fence was on his side. Meridian quoted the boundary survey on the spot, the surveyor called the next morning, and the corners were flagged within a week. The new fence went up without an argument.",
    name: "Karen M.",
    place: "Asheville, NC",
    survey: "Boundary Survey",
  },
  {
    quote:
      "Our lender wanted an ALTA survey with a long Table A list on a 2.3-acre retail lot, and closing was three weeks out. The surveyor we were matched with delivered the certified plat in nine business days.",
    name: "David R.",
    place: "Mesa, AZ",
    survey: "ALTA/NSPS Survey",
  },
  {
    quote:
      "When our flood insurance renewal arrived, the agent asked for an elevation certificate. We had it four days after requesting it, and it showed our lowest floor sits two feet above the base flood elevation.",
    name: "Ana P.",
    place: "Cape Coral, FL",
    survey: "Elevation Certificate",
  },
] as const;

/** Three client testimonials with their rating. */
export function Testimonials() {
  return (
    <section className="section" aria-labelledby="testimonials-title">
      <div className="container">
        <div className="section__intro">
          <p className="eyebrow">Client stories</p>
          <h2 id="testimonials-title">Trusted by property owners across the country</h2>
        </div>
        <ul className="grid-3 testimonials" role="list">
          {TESTIMONIALS.map((t) => (
            <li key={t.name} className="card testimonial">
              <figure className="card__body stack">
                <span className="testimonial__stars" role="img" aria-label="Rated 5 out of 5">
                  {[1, 2, 3, 4, 5].map((n) => <Icon key={n} name="star" size={18} filled />)}
                </span>
                <blockquote className="testimonial__quote">
                  <p>{t.quote}</p>
                </blockquote>
                <figcaption className="testimonial__author">
                  <strong>{t.name}</strong>
                  <span className="muted">{t.place} · {t.survey}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

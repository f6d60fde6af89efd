import type { Faq } from "../lib/service_content.ts";

/** Questions as <details> disclosures: accessible and interactive with no JavaScript. */
export function Faqs({ faqs, headingLevel = 3 }: { faqs: readonly Faq[]; headingLevel?: 3 | 4 }) {
  const Heading = headingLevel === 3 ? "h3" : "h4";
  return (
    <div className="faqs">
      {faqs.map((f) => (
        <details key={f.q} className="faq">
          <summary className="faq__question">
            <Heading className="faq__heading">{f.q}</Heading>
          </summary>
          <div className="faq__answer">
            <p>{f.a}</p>
          </div>
        </details>
      ))}
    </div>
  );
}

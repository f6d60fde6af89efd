import { Logo } from "./Logo.tsx";

/** Spec section 2: exactly these footer links. */
export const FOOTER_LINKS = [
  { href: "/services/boundary-surveys", label: "Boundary Surveys" },
  { href: "/services/topographic-surveys", label: "Topographic Surveys" },
  { href: "/services/alta-surveys", label: "ALTA Surveys" },
  { href: "/services/elevation-certificates", label: "Elevation Certificates" },
  { href: "/support/help-center", label: "Help Center" },
  { href: "/support/contact", label: "Contact Us" },
  { href: "/auth", label: "Surveyor Login" },
  { href: "/support/privacy-policy", label: "Privacy Policy" },
] as const;

/** Site footer: the spec's eight links and nothing else clickable, so it stays exact. */
export function SiteFooter() {
  const services = FOOTER_LINKS.slice(0, 4);
  const support = FOOTER_LINKS.slice(4);
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__brand">
          <Logo />
          <p className="site-footer__tagline">
            Instant, free quotes from licensed land surveyors near you. No upfront payment.
          </p>
        </div>
        <nav aria-label="Services">
          <h2 className="site-footer__heading">Services</h2>
          <ul role="list">
            {services.map((l) => (
              <li key={l.href}>
                <a href={l.href}>{l.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label="Support">
          <h2 className="site-footer__heading">Support</h2>
          <ul role="list">
            {support.map((l) => (
              <li key={l.href}>
                <a href={l.href}>{l.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="container site-footer__legal">
        <p>© {new Date().getFullYear()} Meridian Survey Marketplace, Inc.</p>
        <p>
          Surveys are performed and sealed by independent surveyors licensed in the property's
          state.
        </p>
      </div>
    </footer>
  );
}

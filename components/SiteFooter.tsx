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

/** The way in for surveyors who are not on Meridian yet (issue 22), beside the spec's links. */
export const FOR_SURVEYORS_LINK = { href: "/for-surveyors", label: "For Surveyors" } as const;

/** One titled column of footer links. */
function FooterNav(
  { title, links }: { title: string; links: readonly { href: string; label: string }[] },
) {
  return (
    <nav aria-label={title}>
      <h2 className="site-footer__heading">{title}</h2>
      <ul role="list">
        {links.map((l) => (
          <li key={l.href}>
            <a href={l.href}>{l.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Site footer: the spec's eight links, word for word, and the way in for surveyors. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__brand">
          <Logo />
          <p className="site-footer__tagline">
            Instant, free quotes from licensed land surveyors near you. No upfront payment.
          </p>
        </div>
        <FooterNav title="Services" links={FOOTER_LINKS.slice(0, 4)} />
        <FooterNav title="Support" links={[...FOOTER_LINKS.slice(4), FOR_SURVEYORS_LINK]} />
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

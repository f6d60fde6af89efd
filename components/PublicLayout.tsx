import type { ReactNode } from "react";
import type { SessionUser } from "../lib/roles.ts";
import { SiteFooter } from "./SiteFooter.tsx";
import { SiteHeader } from "./SiteHeader.tsx";

/**
 * Layout of public pages: skip link, sticky header, main, footer. `isHome` marks the landing
 * page (see `SiteHeader`).
 */
export function PublicLayout(
  { children, user, isHome }: { children: ReactNode; user?: SessionUser | null; isHome?: boolean },
) {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <SiteHeader user={user} isHome={isHome} />
      <main id="main">{children}</main>
      <SiteFooter />
    </>
  );
}

import type { ReactNode } from "react";
import type { SessionUser } from "../routes/_env.ts";
import { SiteFooter } from "./SiteFooter.tsx";
import { SiteHeader } from "./SiteHeader.tsx";

/** Layout of public pages: skip link, sticky header, main, footer. */
export function PublicLayout(
  { children, user }: { children: ReactNode; user?: SessionUser | null },
) {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <SiteHeader user={user} />
      <main id="main">{children}</main>
      <SiteFooter />
    </>
  );
}

/**
 * The public header (components/SiteHeader.tsx) is server HTML that no island owns. A visitor
 * who signs in without leaving the page (the request flow's contact step) would otherwise see
 * 'Login / Register' there until a reload, so the sign-in forms re-render just that link.
 */

/** Class that marks the public header's account link. */
export const ACCOUNT_LINK_CLASS = "site-header__account";

/** The signed-in state of the public header's account link. */
export const SIGNED_IN_LINK = { href: "/dashboard", text: "My Dashboard" } as const;

/**
 * Turns the public header's 'Login / Register' link into 'My Dashboard'. Does nothing on pages
 * without that header (the signed-in layout already shows the account).
 */
export function showSignedInHeader(): void {
  const link = document.querySelector<HTMLAnchorElement>(`a.${ACCOUNT_LINK_CLASS}`);
  if (!link) return;
  link.href = SIGNED_IN_LINK.href;
  link.textContent = SIGNED_IN_LINK.text;
}

/**
 * Takes the `token` query parameter out of the address bar (issue 20): a set-password or
 * claim link's token is a credential, and once the island holds it in memory it should not
 * stay where the history, a shared screen or a copied address would give it away. Other
 * parameters and the fragment are kept. Browser-only: call it from an effect.
 */
export function forgetUrlToken(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has("token")) return;
  url.searchParams.delete("token");
  history.replaceState(history.state, "", `${url.pathname}${url.search}${url.hash}`);
}

import { assert, assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { renderToString } from "react-dom/server";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { default: SiteMenu } = await import("../../islands/SiteMenu.tsx");

const LINKS = [
  { href: "/#services", label: "Services" },
  { href: "/#how-it-works", label: "How It Works" },
  { href: "/about", label: "About" },
];

/** The menu, opened the way the browser opens a <details> when its summary is tapped. */
function openMenu() {
  render(
    <>
      <SiteMenu links={LINKS} />
      <section id="how-it-works">How it works</section>
    </>,
  );
  const details = document.querySelector("details.site-menu") as HTMLDetailsElement;
  details.open = true;
  return details;
}

test("[site menu] without JavaScript it is a plain <details> with the links", () => {
  const html = renderToString(<SiteMenu links={LINKS} />);
  assert(html.startsWith('<details class="site-menu"'), html);
  assert(!html.includes(" open"), "closed in the server HTML");
  for (const link of LINKS) assert(html.includes(`href="${link.href}"`), link.href);
  assert(html.includes('aria-label="Main menu"'), html);
});

test("[site menu] tapping an in-page link (How It Works) closes the menu over the section", () => {
  const details = openMenu();
  try {
    const link = screen.getByRole("link", { name: "How It Works" });
    link.addEventListener("click", (event) => event.preventDefault()); // happy-dom stays put
    act(() => void fireEvent.click(link));
    assertEquals(details.open, false);
  } finally {
    cleanup();
  }
});

test("[site menu] Escape closes it and focuses the toggle; when closed, Escape leaves focus be", () => {
  const details = openMenu();
  try {
    act(() => void fireEvent.keyDown(document, { key: "Escape" }));
    assertEquals(details.open, false);
    assert(document.activeElement === details.querySelector("summary"), "focus on the toggle");
    const section = screen.getByText("How it works");
    section.tabIndex = -1;
    section.focus();
    act(() => void fireEvent.keyDown(document, { key: "Escape" }));
    assert(document.activeElement === section, "focus stays where it was");
  } finally {
    cleanup();
  }
});

test("[site menu] a press outside closes it; one inside does not", () => {
  const details = openMenu();
  try {
    act(() => void fireEvent.pointerDown(screen.getByRole("link", { name: "About" })));
    assertEquals(details.open, true);
    act(() => void fireEvent.pointerDown(screen.getByText("How it works")));
    assertEquals(details.open, false);
  } finally {
    cleanup();
  }
});

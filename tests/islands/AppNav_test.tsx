import { assert, assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { renderToString } from "react-dom/server";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { default: AppNav } = await import("../../islands/AppNav.tsx");

const ITEMS = [
  { label: "Dashboard", href: "/admin-dashboard", isCurrent: false },
  { label: "Pricing", href: "/pricing-algorithm", isCurrent: true },
  { label: "Parcel test", href: "/regrid-api-test", isCurrent: false },
];

function setup() {
  render(
    <>
      <AppNav label="Admin navigation" items={ITEMS} />
      <p>Page content</p>
    </>,
  );
  const toggle = screen.getByRole("button", { name: "Menu" });
  return {
    toggle,
    isOpen: () => toggle.getAttribute("aria-expanded") === "true",
    open: () => act(() => void fireEvent.click(toggle)),
  };
}

test("[app nav] every link is in the server HTML, the current page marked, the menu closed", () => {
  const html = renderToString(<AppNav label="Admin navigation" items={ITEMS} />);
  for (const item of ITEMS) assert(html.includes(`href="${item.href}"`), item.href);
  assert(html.includes('href="/pricing-algorithm" aria-current="page"'), html);
  assert(html.includes('aria-label="Admin navigation"'), html);
  assert(html.includes('aria-expanded="false"'), html);
});

test("[app nav] the phone menu toggle controls the list of links", () => {
  const ui = setup();
  try {
    const list = document.getElementById(ui.toggle.getAttribute("aria-controls")!)!;
    assertEquals(
      Array.from(list.querySelectorAll("a"), (a) => a.textContent),
      ["Dashboard", "Pricing", "Parcel test"],
    );
    ui.open();
    assert(ui.isOpen());
    assert(document.querySelector(".app-nav--open"), "the open class shows the list on phones");
    ui.open();
    assertEquals(ui.isOpen(), false);
  } finally {
    cleanup();
  }
});

test("[app nav] Escape closes the menu and gives focus back to its toggle", () => {
  const ui = setup();
  try {
    ui.open();
    screen.getByRole("link", { name: "Parcel test" }).focus();
    act(() => void fireEvent.keyDown(document, { key: "Escape" }));
    assertEquals(ui.isOpen(), false);
    assert(document.activeElement === ui.toggle, "focus is back on the toggle");
  } finally {
    cleanup();
  }
});

test("[app nav] a press outside the menu closes it; one inside does not", () => {
  const ui = setup();
  try {
    ui.open();
    act(() => void fireEvent.pointerDown(screen.getByRole("link", { name: "Pricing" })));
    assert(ui.isOpen());
    act(() => void fireEvent.pointerDown(screen.getByText("Page content")));
    assertEquals(ui.isOpen(), false);
  } finally {
    cleanup();
  }
});

test("[app nav] following a link closes the menu", () => {
  const ui = setup();
  try {
    ui.open();
    const link = screen.getByRole("link", { name: "Dashboard" });
    link.addEventListener("click", (event) => event.preventDefault()); // happy-dom stays put
    act(() => void fireEvent.click(link));
    assertEquals(ui.isOpen(), false);
  } finally {
    cleanup();
  }
});

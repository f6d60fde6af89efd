import { setupDom } from "./_dom.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { renderToString } from "react-dom/server";
import { createTestApp, type TestApp } from "../_helpers.ts";
import { type Answer, deferred, useAppFetch } from "./_fetch.ts";
import ContactForm from "../../islands/ContactForm.tsx";
import { CONTACT_MESSAGES } from "../../lib/contact.ts";

setupDom();
const { act, cleanup, fireEvent, render, screen, waitFor } = await import("@testing-library/react");

/**
 * An island test whose fetch reaches a fresh app (`canned` answers only what the app cannot
 * produce on demand); `fn` gets the app and the recorded calls.
 */
function islandTest(
  name: string,
  fn: (t: TestApp, api: ReturnType<typeof useAppFetch>) => Promise<void> | void,
  canned: Record<string, Answer> = {},
) {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const t = await createTestApp();
      const api = useAppFetch(t, { canned });
      try {
        await fn(t, api);
      } finally {
        cleanup();
        api.restore();
        t.close();
      }
    },
  });
}

async function storedMessages(t: TestApp) {
  return [
    ...await t.sql<{ name: string; email: string; topic: string; message: string }[]>`
    select name, email, topic, message from contact_messages`,
  ];
}

function field(label: RegExp) {
  return screen.getByLabelText(label) as HTMLInputElement;
}

function fillValid() {
  fireEvent.change(field(/your name/i), { target: { value: "  Karen Mitchell " } });
  fireEvent.change(field(/^email/i), { target: { value: "karen@example.com" } });
  fireEvent.change(field(/topic/i), { target: { value: "scheduling" } });
  fireEvent.change(field(/message/i), {
    target: { value: "Can my survey be scheduled before the 14th? Closing is on the 18th." },
  });
}

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "Send message" }));
    await Promise.resolve();
  });
}

islandTest("[contact form] the server render keeps the button disabled until hydrated", () => {
  const html = renderToString(<ContactForm id="contact" />);
  assertStringIncludes(html, 'disabled=""');
  assertStringIncludes(html, 'id="contact-name"');
  assertMatch(html, /<option value=""( selected="")?>Choose a topic<\/option>/);
});

islandTest(
  "[contact form] an empty submit shows a message next to each required field and sends nothing",
  async (_t, api) => {
    render(<ContactForm id="contact" />);
    await submit();
    assertEquals(api.calls.length, 0);
    const expected: [RegExp, string][] = [
      [/your name/i, "Please enter your name"],
      [/^email/i, "Please enter a valid email address"],
      [/topic/i, "Please choose a topic"],
      [/message/i, "Message must be at least 10 characters"],
    ];
    for (const [label, message] of expected) {
      const input = field(label);
      assertEquals(input.getAttribute("aria-invalid"), "true", message);
      const described = (input.getAttribute("aria-describedby") ?? "").split(" ");
      const error = described.map((id) => document.getElementById(id)).find((el) =>
        el?.classList.contains("field__error")
      );
      assertEquals(error?.textContent, message);
    }
    assertEquals(field(/phone/i).getAttribute("aria-invalid"), null, "phone is optional");
    assertEquals(document.activeElement, field(/your name/i), "focus moves to the first error");
  },
);

islandTest("[contact form] fixing a field clears its message", async () => {
  render(<ContactForm />);
  await submit();
  assert(screen.queryByText("Please enter your name"));
  fireEvent.change(field(/your name/i), { target: { value: "Karen" } });
  assertEquals(screen.queryByText("Please enter your name"), null);
  fireEvent.change(field(/^email/i), { target: { value: "karen@" } });
  assert(screen.queryByText("Please enter a valid email address"), "still invalid");
  fireEvent.change(field(/^email/i), { target: { value: "karen@example.com" } });
  assertEquals(screen.queryByText("Please enter a valid email address"), null);
});

islandTest(
  "[contact form] a valid message is posted as JSON, stored, and the success state shows",
  async (t, api) => {
    render(<ContactForm />);
    fillValid();
    await submit();
    assertEquals(api.calls.length, 1);
    assertEquals(api.calls[0].path, "/api/contact");
    assertEquals(api.calls[0].method, "POST");
    assertEquals(api.calls[0].headers.get("content-type"), "application/json");
    assertEquals(api.calls[0].body, {
      name: "Karen Mitchell",
      email: "karen@example.com",
      topic: "scheduling",
      message: "Can my survey be scheduled before the 14th? Closing is on the 18th.",
    });
    const status = await screen.findByRole("status");
    assertStringIncludes(status.textContent ?? "", CONTACT_MESSAGES.sent);
    assertEquals(await storedMessages(t), [{
      name: "Karen Mitchell",
      email: "karen@example.com",
      topic: "scheduling",
      message: "Can my survey be scheduled before the 14th? Closing is on the 18th.",
    }]);
    assertEquals(screen.queryByRole("button", { name: "Send message" }), null);
    fireEvent.click(screen.getByRole("button", { name: "Send another message" }));
    assertEquals(field(/your name/i).value, "", "a fresh, empty form");
  },
);

const held = deferred<void>();
islandTest(
  "[contact form] the button reads 'Sending...' while the request is pending",
  async () => {
    render(<ContactForm />);
    fillValid();
    await submit();
    const button = screen.getByRole("button", { name: "Sending..." }) as HTMLButtonElement;
    assert(button.disabled);
    await act(async () => {
      held.resolve();
      await held.promise;
    });
    await screen.findByText(CONTACT_MESSAGES.sent);
  },
  {
    // The real answer, held back until the test has seen the pending state.
    "POST /api/contact": async (_call, app) => {
      await held.promise;
      return await app();
    },
  },
);

islandTest("[contact form] the server's field errors and message show inline", async (t) => {
  render(<ContactForm />);
  fillValid();
  // A control character passes the form's own checks; the server refuses it for the name.
  fireEvent.change(field(/your name/i), { target: { value: "Karen\u0007 Mitchell" } });
  await submit();
  const alert = await screen.findByRole("alert");
  assertEquals(alert.textContent, "Name contains characters that are not allowed");
  assertEquals(field(/your name/i).getAttribute("aria-invalid"), "true");
  assertEquals(field(/^email/i).value, "karen@example.com", "typed text is kept");
  assertEquals(document.activeElement, field(/your name/i));
  assertEquals(await storedMessages(t), []);
});

islandTest("[contact form] past the hourly limit the server's message shows", async (t) => {
  // Five messages an hour per IP; this browser has sent them already.
  for (let i = 0; i < 5; i++) {
    const res = await t.request("POST", "/api/contact", {
      body: { name: "K", email: "k@example.com", topic: "other", message: "x".repeat(20) },
    });
    await res.body?.cancel();
  }
  render(<ContactForm />);
  fillValid();
  await submit();
  const alert = await screen.findByRole("alert");
  assertEquals(alert.textContent, CONTACT_MESSAGES.rateLimited);
  const button = screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement;
  assertEquals(button.disabled, false, "the visitor can try again");
});

islandTest(
  "[contact form] a network failure shows an inline error",
  async () => {
    render(<ContactForm />);
    fillValid();
    await submit();
    await waitFor(() => assert(screen.queryByRole("alert")));
    assertEquals(
      screen.getByRole("alert").textContent,
      "We couldn't send your message. Check your connection and try again.",
    );
  },
  // Canned: a network failure.
  { "POST /api/contact": () => Promise.reject(new TypeError("Failed to fetch")) },
);

islandTest(
  "[contact form] an error without a JSON body falls back to a generic message",
  async () => {
    render(<ContactForm />);
    fillValid();
    await submit();
    const alert = await screen.findByRole("alert");
    assertEquals(alert.textContent, "Something went wrong sending your message. Please try again.");
  },
  // Canned: a proxy's plain-text 502 never comes from the app.
  { "POST /api/contact": new Response("Bad gateway", { status: 502 }) },
);

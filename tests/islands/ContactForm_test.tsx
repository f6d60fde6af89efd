import { setupDom } from "./_dom.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { renderToString } from "react-dom/server";
import ContactForm from "../../islands/ContactForm.tsx";

setupDom();
const { act, cleanup, fireEvent, render, screen, waitFor } = await import("@testing-library/react");

const realFetch = globalThis.fetch;

interface Call {
  url: string;
  init: RequestInit;
}

/** Replaces fetch with `respond`; returns the recorded calls. */
function mockFetch(respond: () => Promise<Response>): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = ((url: string, init: RequestInit) => {
    calls.push({ url: String(url), init });
    return respond();
  }) as typeof fetch;
  return calls;
}

function json(status: number, body: unknown): Promise<Response> {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
  );
}

function islandTest(name: string, fn: () => Promise<void> | void) {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      try {
        await fn();
      } finally {
        cleanup();
        globalThis.fetch = realFetch;
      }
    },
  });
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
  async () => {
    const calls = mockFetch(() => json(201, {}));
    render(<ContactForm id="contact" />);
    await submit();
    assertEquals(calls.length, 0);
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
  mockFetch(() => json(201, {}));
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
  "[contact form] a valid message is posted as JSON and the success state shows",
  async () => {
    const calls = mockFetch(() =>
      json(201, { message: "Thanks — we'll reply within one business day." })
    );
    render(<ContactForm />);
    fillValid();
    await submit();
    assertEquals(calls.length, 1);
    assertEquals(calls[0].url, "/api/contact");
    assertEquals(calls[0].init.method, "POST");
    assertEquals(
      (calls[0].init.headers as Record<string, string>)["content-type"],
      "application/json",
    );
    assertEquals(JSON.parse(String(calls[0].init.body)), {
      name: "Karen Mitchell",
      email: "karen@example.com",
      topic: "scheduling",
      message: "Can my survey be scheduled before the 14th? Closing is on the 18th.",
    });
    const status = await screen.findByRole("status");
    assertStringIncludes(status.textContent ?? "", "Thanks — we'll reply within one business day.");
    assertEquals(screen.queryByRole("button", { name: "Send message" }), null);
    fireEvent.click(screen.getByRole("button", { name: "Send another message" }));
    assertEquals(field(/your name/i).value, "", "a fresh, empty form");
  },
);

islandTest(
  "[contact form] the button reads 'Sending...' while the request is pending",
  async () => {
    let finish: (r: Response) => void = () => {};
    mockFetch(() => new Promise<Response>((resolve) => finish = resolve));
    render(<ContactForm />);
    fillValid();
    await submit();
    const button = screen.getByRole("button", { name: "Sending..." }) as HTMLButtonElement;
    assert(button.disabled);
    await act(async () => {
      finish(new Response(JSON.stringify({ message: "Sent" }), { status: 201 }));
      await Promise.resolve();
    });
    await screen.findByText("Sent");
  },
);

islandTest("[contact form] server field errors and message show inline", async () => {
  mockFetch(() =>
    json(400, {
      message: "Please enter a valid email address",
      errors: { email: "Please enter a valid email address" },
    })
  );
  render(<ContactForm />);
  fillValid();
  await submit();
  const alert = await screen.findByRole("alert");
  assertEquals(alert.textContent, "Please enter a valid email address");
  assertEquals(field(/^email/i).getAttribute("aria-invalid"), "true");
  assertEquals(field(/your name/i).value, "  Karen Mitchell ", "typed text is kept");
  assertEquals(document.activeElement, field(/^email/i));
});

islandTest("[contact form] a rate-limit response shows the server's message", async () => {
  mockFetch(() =>
    json(429, { message: "You've sent several messages in the last hour. Please try again later." })
  );
  render(<ContactForm />);
  fillValid();
  await submit();
  const alert = await screen.findByRole("alert");
  assertEquals(
    alert.textContent,
    "You've sent several messages in the last hour. Please try again later.",
  );
  const button = screen.getByRole("button", { name: "Send message" }) as HTMLButtonElement;
  assertEquals(button.disabled, false, "the visitor can try again");
});

islandTest("[contact form] a network failure shows an inline error", async () => {
  mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
  render(<ContactForm />);
  fillValid();
  await submit();
  await waitFor(() => assert(screen.queryByRole("alert")));
  assertEquals(
    screen.getByRole("alert").textContent,
    "We couldn't send your message. Check your connection and try again.",
  );
});

islandTest(
  "[contact form] an error without a JSON body falls back to a generic message",
  async () => {
    mockFetch(() => Promise.resolve(new Response("Bad gateway", { status: 502 })));
    render(<ContactForm />);
    fillValid();
    await submit();
    const alert = await screen.findByRole("alert");
    assertEquals(alert.textContent, "Something went wrong sending your message. Please try again.");
  },
);

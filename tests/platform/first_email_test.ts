/**
 * The first email after start-up reaches the mail server: the email components and jsx-email's
 * renderer are not loaded at start (lib/mail/render.tsx imports them on the first email
 * rendered), so the real server, started as in production, is asked for a password reset right
 * after it listens and the message must arrive, with its subject, link and both bodies.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { decodeQuotedPrintable, startSmtp } from "../_smtp_fake.ts";
import { startServer } from "./_server.ts";

Deno.test({
  name: "[mail] the first email a freshly started server renders is delivered over SMTP",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const smtp = await startSmtp();
  const server = await startServer({ SMTP_URL: smtp.url, NODE_ENV: "production" });
  try {
    const { origin } = server;
    const email = `first-email-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const register = await fetch(`${origin}/api/register`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ email, password: "a long enough password", fullName: "Ada First" }),
    });
    await register.body?.cancel();
    assertEquals(register.status, 201);

    const forgot = await fetch(`${origin}/api/forgot-password`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    await forgot.body?.cancel();
    assertEquals(forgot.status, 200);

    // The sender polls every 5 s; a server that failed to render would never send anything.
    await smtp.waitFor(1, 60_000).catch((error) => {
      throw new Error(`${error.message}; server output:\n${server.output()}`);
    });
    assertEquals(smtp.received.length, 1);
    const [message] = smtp.received;
    assertEquals(message.to, [email]);
    const raw = decodeQuotedPrintable(message.raw);
    assertStringIncludes(raw, "Subject: Reset your Meridian password");
    // The HTML part (jsx-email's document) and the plain-text part both carry the link.
    assertStringIncludes(raw, "<!DOCTYPE html PUBLIC");
    assertStringIncludes(raw, "Hi Ada First,");
    const links = raw.match(/https?:\/\/[^\s"<>]*reset-password\?token=[\w-]+/g) ?? [];
    assert(links.length >= 2, `the reset link in both parts:\n${raw}`);
    assert(links.every((link) => link.startsWith(`${origin}/reset-password?token=`)));
  } finally {
    await server.cleanUp();
    await smtp.close();
  }
});

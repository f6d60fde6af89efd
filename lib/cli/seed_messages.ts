/**
 * Messages for `deno task seed --demo` (issue 22): a short conversation between a demo client
 * and the firm that bought or took their request, and one between the firm's technician on the
 * job and the client, written through the app's own `postMessage` (so the bell notifications,
 * unread counts and emails are the real ones).
 */
import type { Sql } from "../../db/client.ts";
import { getMessageAccess } from "../../db/messages.ts";
import { postMessage } from "../messages.ts";
import type { Role } from "../roles.ts";

/** Who says what, in order. */
const CONVERSATION: readonly { from: "firm" | "client"; body: string }[] = [
  {
    from: "firm",
    body:
      "Hello, thanks for the request. Could you send a copy of your deed or the last survey, if you have one? It saves a trip to the county.",
  },
  {
    from: "client",
    body:
      "Sure, the county has the deed online: https://example.com/records/deed.pdf — the gate code is 4512.",
  },
  {
    from: "firm",
    body: "Got it, thank you. We'll confirm the visit date once we've read the deed.",
  },
];

/** The technician's exchange with the client on the day of the visit. */
const ON_SITE: readonly { from: "firm" | "client"; body: string }[] = [
  {
    from: "firm",
    body:
      "Hi, I'm the crew member on your survey. I'll be on site tomorrow from 9. Is the side gate unlocked, or should I call when I arrive?",
  },
  { from: "client", body: "Please call when you arrive; I'll open it for you." },
];

/**
 * Plays CONVERSATION (or `lines`) on survey `surveyId` between its client and `firmUserId`
 * (the firm's account, or its technician on the job, who writes in the working firm's thread).
 * Throws when either is not in the thread (the firm must have bought or taken the lead).
 */
export async function seedConversation(
  sql: Sql,
  { surveyId, clientId, firmUserId, publicUrl, lines = CONVERSATION }: {
    surveyId: string;
    clientId: string;
    firmUserId: string;
    publicUrl: string;
    lines?: readonly { from: "firm" | "client"; body: string }[];
  },
): Promise<void> {
  const people = await sql<{ id: string; fullName: string; role: Role }[]>`
    select id, full_name, role from users where id in (${clientId}, ${firmUserId})`;
  for (const line of lines) {
    const user = people.find((p) => p.id === (line.from === "client" ? clientId : firmUserId));
    if (!user) throw new Error(`demo conversation on ${surveyId}: no ${line.from} account`);
    await sql.begin(async (tx) => {
      const access = await getMessageAccess(tx, { surveyId, user, lock: true });
      const thread = access?.threads[0];
      if (!access || !thread) {
        throw new Error(`demo conversation on ${surveyId}: the ${line.from} is in no thread`);
      }
      await postMessage(tx, { access, thread, user, body: line.body, publicUrl });
    });
  }
}

/** The technician on the job `surveyId` and its client exchange ON_SITE. */
export async function seedTechnicianConversation(
  sql: Sql,
  input: { surveyId: string; clientId: string; technicianId: string; publicUrl: string },
): Promise<void> {
  await seedConversation(sql, {
    surveyId: input.surveyId,
    clientId: input.clientId,
    firmUserId: input.technicianId,
    publicUrl: input.publicUrl,
    lines: ON_SITE,
  });
}

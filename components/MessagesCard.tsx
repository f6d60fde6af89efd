import { Card } from "./AppPage.tsx";
import { Island } from "./Island.tsx";
import MessageThread from "../islands/MessageThread.tsx";
import type { MessagesCardData } from "../lib/messages.ts";

/**
 * A survey's conversations on a page (issue 22): the MessageThread island, one for all of the
 * viewer's threads and their messages, in a card the bell's links reach as `#messages`.
 * Nothing when the viewer is in no thread; a client whose lead nobody bought yet is told
 * what will come.
 */
export function MessagesCard({ data }: { data: MessagesCardData | undefined }) {
  if (!data) return null;
  return (
    <Card id="messages" title="Messages" bodyClass="stack">
      {data.initial
        ? (
          <Island
            component={MessageThread}
            props={{ surveyId: data.surveyId, viewerRole: data.viewerRole, initial: data.initial }}
            hydrate="visible"
            // Its markup is its props' alone: times in UTC on the server, local once hydrated.
            isPure
          />
        )
        : (
          <p className="muted">
            {data.viewerRole === "admin"
              ? "No firm bought this lead or works this job, so there is no conversation yet."
              : "Once a surveyor buys your request's lead or takes the job, you can message them here."}
          </p>
        )}
    </Card>
  );
}

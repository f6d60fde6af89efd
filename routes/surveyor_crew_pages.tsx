import { Hono } from "hono";
import type { AppEnv } from "./_env.ts";
import { requirePageRole } from "./_auth.ts";
import { appPage } from "./_app_page.tsx";
import { Card, EmptyState, PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import TechnicianTeam from "../islands/TechnicianTeam.tsx";
import { getSurveyorByUserId } from "../db/surveyors.ts";
import { listTechnicians } from "../db/technicians.ts";
import { toTeamMember } from "../lib/technicians.ts";
import { mailDelivery } from "../lib/mail/delivery.ts";

/** The surveyor's crew page, linked from the dashboard and the navigation. */
export const SURVEYOR_CREW_PATH = "/surveyor/crew";

/**
 * /surveyor/crew (surveyors only): the firm's field crew, invited, listed and removed here
 * (issue 12), on a page of its own so the dashboard keeps to what changed. An account without a
 * surveyor record has no crew yet and is told where to start.
 */
export const surveyorCrewPages = new Hono<AppEnv>()
  .get(SURVEYOR_CREW_PATH, requirePageRole("surveyor"), async (c) => {
    const db = c.var.db;
    const surveyor = await getSurveyorByUserId(db, { userId: c.var.user!.id });
    const crew = surveyor
      ? await listTechnicians(db, { scope: { surveyorId: surveyor.id } })
      : undefined;
    return appPage(
      c,
      { title: "Your crew", active: SURVEYOR_CREW_PATH },
      <div className="surveyor-crew stack">
        <PageHeader
          title="Your crew"
          intro="The technicians who do your fieldwork. Assign them jobs from each job's page; they see the address, visit day, access notes and checklist on their phone."
        />
        {crew
          ? (
            <Card id="crew-title" title="Technicians">
              <Island
                component={TechnicianTeam}
                props={{
                  members: crew.technicians.map(toTeamMember),
                  total: crew.total,
                  crewName: "your crew",
                  mailDelivery: mailDelivery(c.var.deps.config),
                }}
                hydrate="idle"
              />
            </Card>
          )
          : (
            <EmptyState
              title="No firm record yet"
              action={<a className="btn btn--primary" href="/profile">Complete your profile</a>}
            >
              Your crew can be invited once your firm's profile is set up.
            </EmptyState>
          )}
      </div>,
    );
  });

/**
 * The editable part of /surveyor-detail/{id} (admins): the profile and coverage form, the
 * contacts editor and the contact-history log with its form. The leads sent to the surveyor,
 * their surveys and the account panel are server-rendered around it by the page.
 */
import { useEffect, useState } from "react";
import { SurveyorProfileForm } from "./_surveyor_profile.tsx";
import { ContactsEditor } from "./_surveyor_contacts.tsx";
import { HistoryLog } from "./_surveyor_history.tsx";
import type { ContactHistoryEntry, Surveyor } from "../lib/surveyor_schema.ts";

/** Props of the record's editors: the record and its latest history entries. */
export interface SurveyorDetailProps {
  surveyor: Surveyor;
  history: ContactHistoryEntry[];
  /** The most history entries the page loads. */
  historyLimit: number;
}

/** The record's editors. */
export default function SurveyorDetail({ surveyor, history, historyLimit }: SurveyorDetailProps) {
  const [contacts, setContacts] = useState(surveyor.contacts);
  // Marks the editors as interactive (tests wait for it; until then the SSR copy is inert).
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  function onChanged(next: Surveyor) {
    setContacts(next.contacts);
  }

  return (
    <div className="surveyor-detail" data-hydrated={isHydrated || undefined}>
      <SurveyorProfileForm surveyor={surveyor} onSaved={onChanged} />
      <div className="stack">
        <ContactsEditor surveyorId={surveyor.id} contacts={contacts} onChanged={onChanged} />
        <HistoryLog surveyorId={surveyor.id} entries={history} limit={historyLimit} />
      </div>
    </div>
  );
}

"use client";
// Meridian's own islands (islands/*.tsx) as client components: the one client boundary of the
// page. Next hydrates every client component when the page loads (it has no idle/visible
// directives); the server renders them into the HTML and their props into the RSC payload.
export { default as NotificationsBell } from "@meridian/islands/NotificationsBell.tsx";
export { default as SignOutButton } from "@meridian/islands/SignOutButton.tsx";
export { default as AppNav } from "@meridian/islands/AppNav.tsx";
export { default as Toaster } from "@meridian/islands/Toaster.tsx";
export { default as CancelSurveyButton } from "@meridian/islands/CancelSurveyButton.tsx";
export { default as SurveyProposals } from "@meridian/islands/SurveyProposals.tsx";

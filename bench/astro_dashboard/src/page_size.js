// Surveys per dashboard page: routes/survey_pages.tsx's CLIENT_PAGE_SIZE, passed by the bench
// (that module is the whole app's routes, not something to load here).
export const CLIENT_PAGE_SIZE = Number(process.env.MERIDIAN_CLIENT_PAGE_SIZE ?? 10);

// What the bench waits for before measuring.
export const dynamic = "force-dynamic";
export const GET = () => new Response("ok");

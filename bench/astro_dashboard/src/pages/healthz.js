// What the bench waits for before measuring.
export const GET = () => new Response("ok");

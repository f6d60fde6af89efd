-- Messages sent through the public contact form; admins read them in the console.
create table contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  email text not null,
  phone text,
  topic text not null,
  message text not null,
  ip text,
  created_at timestamptz not null default now(),
  read_at timestamptz
);
create index contact_messages_created_at_idx on contact_messages (created_at desc);

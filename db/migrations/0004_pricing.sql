-- Pricing: versioned configurations and discount codes.

-- Each admin save is a new row; the highest version is active. Versions are never rewritten,
-- so a stored quote's config_version always names the factors it was priced with. The
-- defaults live in TypeScript (lib/pricing.ts) and are inserted as version 1 on first read.
create table pricing_configs (
  version integer primary key check (version > 0),
  config jsonb not null,
  created_by uuid references users (id) on delete set null,
  note text not null default '' check (length(note) <= 500),
  created_at timestamptz not null default now()
);

create table discount_codes (
  id uuid primary key default gen_random_uuid(),
  code text not null check (code ~ '^[A-Za-z0-9_-]{3,40}$'),
  kind text not null check (kind in ('percent', 'fixed')),
  -- Percent (1-100) or cents.
  value integer not null check (
    value > 0 and (kind <> 'percent' or value <= 100) and value <= 10000000
  ),
  valid_from timestamptz,
  valid_until timestamptz,
  max_uses integer check (max_uses is null or max_uses > 0),
  uses integer not null default 0 check (uses >= 0),
  once_per_client boolean not null default true,
  active boolean not null default true,
  note text not null default '' check (length(note) <= 500),
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  check (valid_until is null or valid_from is null or valid_until > valid_from),
  -- The redeem statement's condition; the check makes an over-use impossible even for a bug.
  check (max_uses is null or uses <= max_uses)
);
-- Codes are case-insensitive: SPRING25 and spring25 are the same code.
create unique index discount_codes_code_lower_key on discount_codes (lower(code));
create index discount_codes_created_at_idx on discount_codes (created_at desc, id);

-- One row per redemption. once_per_client is copied from the code at redemption so the
-- partial unique index below can enforce "once per client" in SQL, race-free.
create table discount_code_uses (
  id uuid primary key default gen_random_uuid(),
  code_id uuid not null references discount_codes (id) on delete cascade,
  client_id uuid not null references users (id) on delete cascade,
  -- The surveys table comes in a later migration; no foreign key to it here.
  survey_id uuid,
  once_per_client boolean not null,
  used_at timestamptz not null default now()
);
create unique index discount_code_uses_once_per_client_key
  on discount_code_uses (code_id, client_id) where once_per_client;
create index discount_code_uses_code_id_idx on discount_code_uses (code_id, client_id);
create index discount_code_uses_client_id_idx on discount_code_uses (client_id);

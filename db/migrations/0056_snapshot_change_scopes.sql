-- Scoped change records (issue 23): which part of a table a transaction wrote, beside the table
-- itself, so that a remembered page (db/snapshot_cache.ts) is read again when a row it shows (or
-- could come to show) was written, not after any write to its tables: another client's request,
-- a lead in a state the surveyor does not serve, another user's sign-in.
--
-- `scope` '' is the record of migration 0055: the table was written (every statement, as before).
-- The triggers below add, for each row a statement inserts, updates or deletes, its scopes, from
-- its old and its new version both (a request moved from one client or state to another is
-- recorded under each):
-- - `client:<id>`: a request's client: `surveys` (`client_id`), the tables of a request's parts
--   (by `survey_id`), and the leads' (by `lead_id`, through the lead's request);
-- - `state:<code>`: the request's state: `surveys`, `leads` and the leads' purchases and
--   recipients (what the available leads read, by the states a surveyor is licensed in);
-- - `surveyor:<id>`: `surveyors` (`id`), `surveyor_licence_states` and `lead_dismissals`
--   (`surveyor_id`);
-- - on `users`, for any write but one that changes only `last_login` (a sign-in): `user:<id>`
--   per row, and `profile` (some user): a page that shows users but not when they last signed
--   in depends on these instead of ''.
-- A truncate has no rows to tell: it moves the records' horizon (`snapshot_prune.pruned_below`)
-- past its own transaction, so every page remembered in a snapshot that might not see it is
-- read again (a truncate is an operator's act, or a test's). A page names the scopes it depends
-- on per table (its `SnapshotRead.scopes`); a table it names none for is checked by '' (any
-- write), as before.
alter table snapshot_changes add column scope text not null default '';
alter table snapshot_changes drop constraint snapshot_changes_pkey;
alter table snapshot_changes add primary key (tbl, scope, xid);

-- The '' record, as in 0055, with the key's new column (the old check below reads it alone).
create or replace function snapshot_tables_unchanged(snapshot pg_snapshot, tables text[])
  returns boolean
  language plpgsql stable
  set enable_seqscan = off
  set jit = off
  as $$
  begin
    return snapshot_scopes_unchanged(snapshot, tables,
      array_fill(''::text, array[cardinality(tables)]));
  end
  $$;

-- Whether no pair (tables[i], scopes[i]) has a record of a transaction `snapshot` does not see,
-- and `snapshot` is not older than the last pruning: the check of db/snapshot_cache.ts
-- `unchangedSince`. Planned as 0055's: the key's range per pair, from the snapshot's xmin.
create function snapshot_scopes_unchanged(snapshot pg_snapshot, tables text[], scopes text[])
  returns boolean
  language plpgsql stable
  set enable_seqscan = off
  set jit = off
  as $$
  begin
    return coalesce((select pg_snapshot_xmin(snapshot) >= pruned_below
        from snapshot_prune where one), false)
      and not exists (
        select from unnest(tables, scopes) as t(name, scope)
        cross join lateral (
          select from snapshot_changes c
          where c.tbl = t.name and c.scope = t.scope and c.xid >= pg_snapshot_xmin(snapshot)
            and not pg_visible_in_snapshot(c.xid, snapshot)
          limit 1) as written);
  end
  $$;

-- The scopes of the rows `rows_json` (a JSON array of a statement's old or new rows' keys), of
-- the kind `kind`, recorded for the table `tbl` in the current transaction.
create function snapshot_scopes_record(tbl text, kind text, rows_json jsonb) returns void
  language plpgsql
  as $$
  begin
    if kind = 'survey' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tbl, s.scope, pg_current_xact_id()
      from jsonb_to_recordset(rows_json) as r(client_id uuid, state text)
      cross join lateral (values ('client:' || r.client_id), ('state:' || r.state)) as s(scope)
      where s.scope is not null
      on conflict do nothing;
    elsif kind = 'survey_part' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tbl, 'client:' || s.client_id, pg_current_xact_id()
      from jsonb_to_recordset(rows_json) as r(survey_id uuid)
      join surveys s on s.id = r.survey_id
      on conflict do nothing;
    elsif kind = 'lead' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tbl, x.scope, pg_current_xact_id()
      from jsonb_to_recordset(rows_json) as r(survey_id uuid)
      join surveys s on s.id = r.survey_id
      cross join lateral (values ('client:' || s.client_id), ('state:' || s.state)) as x(scope)
      where x.scope is not null
      on conflict do nothing;
    elsif kind = 'lead_part' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tbl, x.scope, pg_current_xact_id()
      from jsonb_to_recordset(rows_json) as r(lead_id uuid)
      join leads l on l.id = r.lead_id
      join surveys s on s.id = l.survey_id
      cross join lateral (values ('client:' || s.client_id), ('state:' || s.state)) as x(scope)
      where x.scope is not null
      on conflict do nothing;
    elsif kind = 'surveyor' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tbl, 'surveyor:' || r.id, pg_current_xact_id()
      from jsonb_to_recordset(rows_json) as r(id uuid)
      on conflict do nothing;
    elsif kind = 'surveyor_part' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tbl, 'surveyor:' || r.surveyor_id, pg_current_xact_id()
      from jsonb_to_recordset(rows_json) as r(surveyor_id uuid)
      on conflict do nothing;
    else
      raise exception 'snapshot_scopes_record: unknown kind %', kind;
    end if;
  end
  $$;

-- The row triggers' one function: TG_ARGV[0] is the table's kind (above). Statement-level with
-- transition tables: one insert per statement, however many rows it wrote, of the key columns
-- alone (a request's row holds its quote, parcel and nearby firms: made whole into JSON, they
-- cost the embedded database's submissions a tenth more CPU). Each statement names only columns
-- its table has: PL/pgSQL parses a statement when it first runs, per table. A part whose
-- request is gone in the same statement (a cascade) finds no client: the request's own row
-- records it.
create function snapshot_scopes_note() returns trigger
  language plpgsql
  as $$
  declare
    kind text := tg_argv[0];
    old_keys jsonb;
    new_keys jsonb;
  begin
    if kind = 'survey' then
      if tg_op <> 'INSERT' then
        old_keys := (select jsonb_agg(
            jsonb_build_object('client_id', r.client_id, 'state', r.state)) from old_rows r);
      end if;
      if tg_op <> 'DELETE' then
        new_keys := (select jsonb_agg(
            jsonb_build_object('client_id', r.client_id, 'state', r.state)) from new_rows r);
      end if;
    elsif kind in ('survey_part', 'lead') then
      if tg_op <> 'INSERT' then
        old_keys := (select jsonb_agg(jsonb_build_object('survey_id', r.survey_id))
          from old_rows r);
      end if;
      if tg_op <> 'DELETE' then
        new_keys := (select jsonb_agg(jsonb_build_object('survey_id', r.survey_id))
          from new_rows r);
      end if;
    elsif kind = 'lead_part' then
      if tg_op <> 'INSERT' then
        old_keys := (select jsonb_agg(jsonb_build_object('lead_id', r.lead_id)) from old_rows r);
      end if;
      if tg_op <> 'DELETE' then
        new_keys := (select jsonb_agg(jsonb_build_object('lead_id', r.lead_id)) from new_rows r);
      end if;
    elsif kind = 'surveyor' then
      if tg_op <> 'INSERT' then
        old_keys := (select jsonb_agg(jsonb_build_object('id', r.id)) from old_rows r);
      end if;
      if tg_op <> 'DELETE' then
        new_keys := (select jsonb_agg(jsonb_build_object('id', r.id)) from new_rows r);
      end if;
    elsif kind = 'surveyor_part' then
      if tg_op <> 'INSERT' then
        old_keys := (select jsonb_agg(jsonb_build_object('surveyor_id', r.surveyor_id))
          from old_rows r);
      end if;
      if tg_op <> 'DELETE' then
        new_keys := (select jsonb_agg(jsonb_build_object('surveyor_id', r.surveyor_id))
          from new_rows r);
      end if;
    else
      raise exception 'snapshot_scopes_note: unknown kind %', kind;
    end if;
    if old_keys is not null then
      perform snapshot_scopes_record(tg_table_name, kind, old_keys);
    end if;
    if new_keys is not null then
      perform snapshot_scopes_record(tg_table_name, kind, new_keys);
    end if;
    return null;
  end
  $$;

-- `users`: `user:<id>` for each row the statement changed in more than `last_login`, and
-- `profile` once if there was one.
create function snapshot_users_note() returns trigger
  language plpgsql
  as $$
  begin
    -- Each branch names only the transition tables its trigger has.
    if tg_op = 'UPDATE' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tg_table_name, x.scope, pg_current_xact_id()
      from new_rows n full join old_rows o on o.id = n.id
      cross join lateral (values ('profile'), ('user:' || coalesce(n.id, o.id))) as x(scope)
      where n.id is null or o.id is null
        or (to_jsonb(n) - 'last_login') <> (to_jsonb(o) - 'last_login')
      on conflict do nothing;
    elsif tg_op = 'INSERT' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tg_table_name, x.scope, pg_current_xact_id()
      from new_rows n cross join lateral (values ('profile'), ('user:' || n.id)) as x(scope)
      on conflict do nothing;
    else
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tg_table_name, x.scope, pg_current_xact_id()
      from old_rows o cross join lateral (values ('profile'), ('user:' || o.id)) as x(scope)
      on conflict do nothing;
    end if;
    return null;
  end
  $$;

-- A snapshot taken while the truncate ran has its xmin at or below the truncate's transaction:
-- the horizon goes one past it. Pruning never moves it back (db/snapshot_cache.ts
-- `pruneSnapshotChanges` takes the greater).
create function snapshot_truncate_note() returns trigger
  language plpgsql
  as $$
  begin
    update snapshot_prune
    set pruned_below = greatest(pruned_below,
      (pg_current_xact_id()::text::bigint + 1)::text::xid8)
    where one;
    return null;
  end
  $$;

do $$
declare
  t record;
  fn text;
begin
  for t in
    select * from (values
      ('surveys', 'survey'),
      ('leads', 'lead'),
      ('lead_purchases', 'lead_part'),
      ('lead_recipients', 'lead_part'),
      ('survey_assignments', 'survey_part'),
      ('survey_checklist_items', 'survey_part'),
      ('survey_checklists', 'survey_part'),
      ('survey_events', 'survey_part'),
      ('survey_files', 'survey_part'),
      ('survey_message_reads', 'survey_part'),
      ('survey_messages', 'survey_part'),
      ('survey_proposals', 'survey_part'),
      ('surveyor_reviews', 'survey_part'),
      ('surveyors', 'surveyor'),
      ('surveyor_licence_states', 'surveyor_part'),
      ('lead_dismissals', 'surveyor_part'),
      ('users', 'users')
    ) as v(name, kind)
  loop
    fn := case when t.kind = 'users' then 'snapshot_users_note()'
      else format('snapshot_scopes_note(%L)', t.kind) end;
    execute format(
      'create trigger %I after insert on %I referencing new table as new_rows '
        'for each statement execute function %s',
      t.name || '_snapshot_scopes_insert', t.name, fn);
    execute format(
      'create trigger %I after update on %I referencing old table as old_rows '
        'new table as new_rows for each statement execute function %s',
      t.name || '_snapshot_scopes_update', t.name, fn);
    execute format(
      'create trigger %I after delete on %I referencing old table as old_rows '
        'for each statement execute function %s',
      t.name || '_snapshot_scopes_delete', t.name, fn);
    execute format(
      'create trigger %I after truncate on %I for each statement '
        'execute function snapshot_truncate_note()',
      t.name || '_snapshot_scopes_truncate', t.name);
  end loop;
end
$$;

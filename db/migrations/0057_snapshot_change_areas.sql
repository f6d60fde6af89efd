-- Requests' writes by area (issue 23): beside 0056's `state:<code>`, a request's row, its lead and
-- the lead's purchases and recipients record `area:<state>:<lat>:<lng>`, the request's state and
-- the whole-degree cell its property lies in (the floor of its latitude and of its longitude;
-- lib/geo/cells.ts). A surveyor's available leads (db/lead_market.ts) are the open leads within
-- their radius of their office in the states they are licensed in: they depend on the areas of
-- those states whose cells the radius reaches, so a new lead in El Paso no longer reads again the
-- page of a surveyor in Houston. A request without a location records no area (no surveyor's
-- list shows it; once located, its new version records one). Both functions of 0056 are
-- replaced whole; only the kinds `survey`, `lead` and `lead_part` change, now through one
-- function of a request's scopes, and the triggers stay.

-- A request's scopes: its client, its state and its area (the cell is `cellOf` in
-- lib/geo/cells.ts: the floor of the latitude and of the longitude). Nulls record nothing: a
-- request without a location has no area.
create function snapshot_request_scopes(client_id uuid, state text, lat float8, lng float8)
  returns table (scope text)
  language sql immutable
  as $$
    select x.scope
    from (values ('client:' || client_id), ('state:' || state),
      ('area:' || state || ':' || floor(lat)::int || ':' || floor(lng)::int)) as x(scope)
    where x.scope is not null
  $$;

create or replace function snapshot_scopes_record(tbl text, kind text, rows_json jsonb) returns void
  language plpgsql
  as $$
  begin
    if kind = 'survey' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tbl, x.scope, pg_current_xact_id()
      from jsonb_to_recordset(rows_json) as r(client_id uuid, state text, lat float8, lng float8)
      cross join lateral snapshot_request_scopes(r.client_id, r.state, r.lat, r.lng) as x
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
      cross join lateral snapshot_request_scopes(s.client_id, s.state, s.lat, s.lng) as x
      on conflict do nothing;
    elsif kind = 'lead_part' then
      insert into snapshot_changes (tbl, scope, xid)
      select distinct tbl, x.scope, pg_current_xact_id()
      from jsonb_to_recordset(rows_json) as r(lead_id uuid)
      join leads l on l.id = r.lead_id
      join surveys s on s.id = l.survey_id
      cross join lateral snapshot_request_scopes(s.client_id, s.state, s.lat, s.lng) as x
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

create or replace function snapshot_scopes_note() returns trigger
  language plpgsql
  as $$
  declare
    kind text := tg_argv[0];
    old_keys jsonb;
    new_keys jsonb;
  begin
    if kind = 'survey' then
      if tg_op <> 'INSERT' then
        old_keys := (select jsonb_agg(jsonb_build_object(
            'client_id', r.client_id, 'state', r.state, 'lat', r.lat, 'lng', r.lng)) from old_rows r);
      end if;
      if tg_op <> 'DELETE' then
        new_keys := (select jsonb_agg(jsonb_build_object(
            'client_id', r.client_id, 'state', r.state, 'lat', r.lat, 'lng', r.lng)) from new_rows r);
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

-- Which transactions wrote which tables (issue 23), so that a page remembered with the snapshot
-- it was read in (db/snapshot_cache.ts) is read again only when a table it reads has changed
-- since, not after any commit anywhere on the database server (a sign-in elsewhere, a job, a
-- write to another database of the same cluster).
--
-- A statement-level trigger on each table a remembered page reads adds (table, transaction) once
-- per writing transaction. The row commits or rolls back with the write it records, so in any
-- snapshot a table's writes and its rows here are visible together. A page read in snapshot S is
-- unchanged while no row of its tables belongs to a transaction S does not see
-- (`pg_visible_in_snapshot`): one still running when S was taken, or begun after it, that has
-- committed since. Each transaction writes its own rows: writers never wait for one another here
-- (unlike a counter per table, whose row every writer would lock).
create table snapshot_changes (
  tbl text not null,
  xid xid8 not null,
  primary key (tbl, xid)
);

-- Rows below `pruned_below` have been deleted (db/snapshot_cache.ts `pruneSnapshotChanges`, run
-- by the job worker): a snapshot whose oldest running transaction is below it can no longer be
-- checked, and its pages are read again. Every transaction below a snapshot's xmin had ended
-- when it was taken, so a page read in any later snapshot misses nothing that was deleted.
-- `next_below` is the xmin of a snapshot taken at `next_at`: what the next pruning deletes below,
-- once that is a few minutes old, so that a page is read again for being older than the
-- pruning only after that long (correctness does not depend on the wait, but on the check's comparison with `pruned_below`).
create table snapshot_prune (
  one boolean primary key default true check (one),
  pruned_below xid8 not null,
  next_below xid8 not null,
  next_at timestamptz not null
);
insert into snapshot_prune (pruned_below, next_below, next_at)
values (
  pg_snapshot_xmin(pg_current_snapshot()),
  pg_snapshot_xmin(pg_current_snapshot()),
  now()
);

-- Whether no table of `tables` has been written by a transaction `snapshot` does not see, and
-- `snapshot` is not older than the last pruning: the check of db/snapshot_cache.ts
-- `unchangedSince`. A function for its plan alone: a page's statement is prepared, and a plan
-- made while this table was nearly empty would go on scanning all of it once it has grown
-- (seen: 25 ms a view under a write a millisecond, every row's snapshot parsed again); with
-- sequential scans off, the plan is always the primary key's range from the snapshot's xmin,
-- per table, stopping at the first record found. JIT off: a plan priced with sequential scans
-- off looks dear enough to be compiled at every call (seen: LLVM most of a view's time).
create function snapshot_tables_unchanged(snapshot pg_snapshot, tables text[]) returns boolean
  language plpgsql stable
  set enable_seqscan = off
  set jit = off
  as $$
  begin
    return coalesce((select pg_snapshot_xmin(snapshot) >= pruned_below
        from snapshot_prune where one), false)
      and not exists (
        select from unnest(tables) as t(name)
        cross join lateral (
          select from snapshot_changes c
          where c.tbl = t.name and c.xid >= pg_snapshot_xmin(snapshot)
            and not pg_visible_in_snapshot(c.xid, snapshot)
          limit 1) as written);
  end
  $$;

create function snapshot_changes_note() returns trigger
  language plpgsql
  as $$
  begin
    insert into snapshot_changes (tbl, xid) values (tg_table_name, pg_current_xact_id())
    on conflict do nothing;
    return null;
  end
  $$;

-- The tables the remembered pages read (each page's list is its SnapshotCache's `tables`;
-- tests/db/snapshot_tables_test.ts reads every page statement's plan and fails if it reads a
-- table that is not in its list or has no trigger here). A table a remembered page comes to
-- read gets its trigger in a migration of its own, with this statement.
do $$
declare
  t text;
begin
  foreach t in array array[
    'lead_dismissals', 'lead_purchases', 'lead_recipients', 'lead_refund_requests', 'leads',
    'pricing_configs', 'survey_assignments', 'survey_checklist_items', 'survey_checklists',
    'survey_counts', 'survey_events', 'survey_files', 'survey_message_reads', 'survey_messages',
    'survey_proposals', 'surveyor_counts', 'surveyor_licence_states', 'surveyor_reviews',
    'surveyors', 'surveys', 'technicians', 'users'
  ] loop
    execute format(
      'create trigger %I after insert or update or delete or truncate on %I '
        'for each statement execute function snapshot_changes_note()',
      t || '_snapshot_changes', t);
  end loop;
end
$$;

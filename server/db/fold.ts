/**
 * bo_unaccent(text): a text without its accents, for searches that ignore them ('telefonica' finds 'Telefónica').
 * Declared IMMUTABLE so that trigram indexes can be built on bo_unaccent(column) and serve `bo_unaccent(column) ILIKE
 * bo_unaccent(pattern)`: the unaccent extension's own unaccent(text) is only STABLE (it reads its dictionary by name
 * through the search path), so it is called here with its dictionary named in full, the usual way to index it.
 * Where the extension cannot be had (a PostgreSQL server without its contrib package, or without the right to
 * create it), the function folds the Latin letters with translate() instead, the same for one-letter folds.
 *
 * One statement, idempotent, run at start on the app database and with the embedded ERP's schema: the function is
 * replaced only when its body changes (the extension installed later), and then every index built on it is rebuilt,
 * since PostgreSQL does not notice that an index's function now answers otherwise.
 */
import { singleLetterFolds } from '../../shared/domain/search';

export const FOLD_FUNCTION = 'bo_unaccent';

function translateBody(): string {
  const { from, to } = singleLetterFolds();
  // Letters only, no quotes: safe inside the SQL string literals below.
  return `SELECT translate($1, ''${from}'', ''${to}'')`;
}

export const FOLD_FUNCTION_SQL = `
DO $fold$
DECLARE
  ns text;
  body text;
  existing text;
  dependent record;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS unaccent;
  EXCEPTION WHEN OTHERS THEN
    NULL;
  END;
  SELECT n.nspname INTO ns FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent';
  IF ns IS NOT NULL THEN
    body := format('SELECT %I.unaccent(%L::regdictionary, $1)', ns, quote_ident(ns) || '.unaccent');
  ELSE
    body := '${translateBody()}';
  END IF;
  SELECT p.prosrc INTO existing FROM pg_proc p
    WHERE p.proname = '${FOLD_FUNCTION}' AND p.pronamespace = current_schema()::text::regnamespace AND p.pronargs = 1;
  IF existing IS DISTINCT FROM body THEN
    EXECUTE format('CREATE OR REPLACE FUNCTION ${FOLD_FUNCTION}(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS %L', body);
    IF existing IS NOT NULL THEN
      FOR dependent IN
        SELECT DISTINCT d.objid::regclass AS index FROM pg_depend d
        WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_proc'::regclass AND d.refobjid = '${FOLD_FUNCTION}(text)'::regprocedure
      LOOP
        EXECUTE format('REINDEX INDEX %s', dependent.index);
      END LOOP;
    END IF;
  END IF;
END
$fold$`;

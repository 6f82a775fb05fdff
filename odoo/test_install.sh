#!/usr/bin/env bash
# Developer check of the backoffice_connector addon against a real Odoo (not for CI: CI has no Odoo).
#
#   ODOO_SRC=/path/to/odoo ODOO_CONF=/path/to/odoo.conf odoo/test_install.sh
#
# The conf's addons_path must include this folder (odoo/). The script creates a throwaway
# database (without demo data) with the connector's CE dependencies, installs and upgrades
# backoffice_connector (failing on any warning or error logged meanwhile), runs the module's
# Odoo tests (odoo/backoffice_connector/tests, with --test-enable --test-tags /backoffice_connector:
# failing on a failed or erroring test, an error logged, or no test run), starts a server on a
# spare port, checks the fields, models, menus and views over JSON-RPC, then stops the server
# and drops the database (KEEP_DB=1 keeps it). About 3 minutes on 2 cores.
#
# Optional: RUN_AS=odoo runs Odoo as that user (via su, needs root); PYTHON (default
# /usr/bin/python3); PORT (default 18169); DB (default bo_connector_test_<timestamp>).
#
# Run on each series from public Community source (README, "On a company's Odoo", Versions): 16.0 from
# albferna/Odoo-16.0.20231208 (git archive HEAD -- odoo-bin odoo), 17.0 from Clyde1030/odoo17, 18.0 from
# Mshakkir/odoo18 (git archive HEAD -- odoo-bin odoo), 19.0 from the Community part of jnvdx6/skymedic-odoo
# (git archive HEAD -- odoo-bin addons odoo ':(exclude)odoo/enterprise'; its conf needs http_interface, or 19 warns).
# Connector 1.3.0: 41 tests, each series.
set -euo pipefail

: "${ODOO_SRC:?set ODOO_SRC to the Odoo source folder (the one holding odoo-bin)}"
: "${ODOO_CONF:?set ODOO_CONF to an odoo.conf whose addons_path includes $(cd "$(dirname "$0")" && pwd)}"
PYTHON=${PYTHON:-/usr/bin/python3}
PORT=${PORT:-18169}
DB=${DB:-bo_connector_test_$(date +%s)}
LOG=${LOG:-/tmp/$DB.log}
PIDFILE=/tmp/$DB.pid
HERE=$(cd "$(dirname "$0")" && pwd)

run() {
  if [ -n "${RUN_AS:-}" ]; then su "$RUN_AS" -s /bin/bash -c "$(printf '%q ' "$@")"; else "$@"; fi
}
ODOO=("$PYTHON" "$ODOO_SRC/odoo-bin" -c "$ODOO_CONF" -d "$DB" --logfile="$LOG")

grep -q "$HERE" "$ODOO_CONF" || echo "warning: $HERE is not in $ODOO_CONF's addons_path" >&2
run touch "$LOG"

SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ]; then
    # Stop Odoo itself (its pid file), not the su wrapper, then reap the wrapper.
    if [ -s "$PIDFILE" ]; then kill "$(cat "$PIDFILE")" 2>/dev/null || true; else kill "$SERVER_PID" 2>/dev/null || true; fi
    wait "$SERVER_PID" 2>/dev/null || true
    rm -f "$PIDFILE" 2>/dev/null || true
  fi
  if [ -z "${KEEP_DB:-}" ]; then
    "$PYTHON" - "$ODOO_CONF" "$DB" <<'PY' || echo "could not drop $DB" >&2
import configparser, sys, psycopg2
c = configparser.ConfigParser(); c.read(sys.argv[1]); o = c['options']
kw = {k: o.get('db_' + k) for k in ('host', 'port', 'user', 'password') if o.get('db_' + k) not in (None, '', 'False')}
conn = psycopg2.connect(dbname='postgres', **kw); conn.autocommit = True
conn.cursor().execute('DROP DATABASE IF EXISTS "%s"' % sys.argv[2])
PY
  fi
}
trap cleanup EXIT

DEPS=account,sale_management,sale_margin,hr,event,contacts,project
# No demo data: 16 to 18 take the modules (`all`); 19 takes a boolean and warns of `all` (a warning fails the check).
MAJOR=$(sed -n 's/^version_info = (\([0-9]*\),.*/\1/p' "$ODOO_SRC/odoo/release.py")
if [ "${MAJOR:-0}" -ge 19 ]; then NO_DEMO=--without-demo=True; else NO_DEMO=--without-demo=all; fi
# 16 loads a chart of accounts only for a company with a country (demo data gives company 1 one): without demo it has
# no purchase journal, and the journal checks below would be skipped. 17 and later load the generic chart themselves.
if [ "${MAJOR:-0}" -le 16 ]; then DEPS=$DEPS,l10n_generic_coa; fi
echo "== creating $DB with the connector's dependencies (log: $LOG)"
run "${ODOO[@]}" -i "$DEPS" "$NO_DEMO" --stop-after-init
start=$(wc -l < "$LOG")
echo "== installing backoffice_connector"
run "${ODOO[@]}" -i backoffice_connector "$NO_DEMO" --stop-after-init
echo "== upgrading it (-u)"
run "${ODOO[@]}" -u backoffice_connector --stop-after-init
# Any warning or error while installing or upgrading the connector alone counts.
problems=$(tail -n +"$((start + 1))" "$LOG" | grep -E " (WARNING|ERROR|CRITICAL) " || true)
if [ -n "$problems" ]; then echo "$problems"; echo "FAIL: warnings or errors while installing/upgrading the connector (see $LOG)"; exit 1; fi
echo "ok   install and upgrade logged no warning or error"

# The module's own tests (odoo/backoffice_connector/tests, post_install): Odoo exits non-zero on a failed test,
# logs each one as "ERROR ... FAIL: Class.test" / "ERROR: ...", and ends with "N failed, M error(s) of K tests".
echo "== running the module's tests (-u backoffice_connector --test-enable --test-tags /backoffice_connector)"
tstart=$(wc -l < "$LOG")
trc=0
# Odoo's tests start its HTTP server: on the spare port, not the conf's (a server of the same conf may be running).
run "${ODOO[@]}" -u backoffice_connector --test-enable --test-tags /backoffice_connector --http-interface=127.0.0.1 --http-port="$PORT" --stop-after-init || trc=$?
tlog=$(tail -n +"$((tstart + 1))" "$LOG")
summary=$(grep -oE "[0-9]+ failed, [0-9]+ error\(s\) of [0-9]+ tests" <<<"$tlog" | tail -n 1 || true)
errors=$(grep -E -A 12 " (ERROR|CRITICAL) " <<<"$tlog" || true)  # with the start of their tracebacks
grep -oE "[0-9]+ post-tests in .*" <<<"$tlog" | sed 's/^/     /' || true
if [ -n "$errors" ]; then echo "$errors"; fi
read -r failed _ errs _ _ ran _ <<<"${summary:-x x x x x 0 x}"
if [ "$trc" -ne 0 ] || [ -n "$errors" ] || [ -z "$summary" ] || [ "$failed" != 0 ] || [ "$errs" != 0 ] || [ "$ran" -eq 0 ]; then
  echo "FAIL: the module's tests (${summary:-no test summary in the log}, exit code $trc; see $LOG)"; exit 1
fi
echo "ok   module tests: $summary"

echo "== starting a server on 127.0.0.1:$PORT"
if [ -n "${RUN_AS:-}" ]; then
  su "$RUN_AS" -s /bin/bash -c "exec $(printf '%q ' "${ODOO[@]}") --http-interface=127.0.0.1 --http-port=$PORT --db-filter='^$DB\$' --max-cron-threads=0 --pidfile=$PIDFILE" &
else
  "${ODOO[@]}" --http-interface=127.0.0.1 --http-port="$PORT" --db-filter="^$DB\$" --max-cron-threads=0 --pidfile="$PIDFILE" &
fi
SERVER_PID=$!

"$PYTHON" - "$PORT" "$DB" <<'PY'
import json, sys, time, urllib.request

port, db = sys.argv[1], sys.argv[2]
url = 'http://127.0.0.1:%s/jsonrpc' % port

def call(service, method, *args):
    body = json.dumps({'jsonrpc': '2.0', 'method': 'call', 'params': {'service': service, 'method': method, 'args': args}, 'id': 1})
    req = urllib.request.Request(url, body.encode(), {'Content-Type': 'application/json'})
    with urllib.request.urlopen(req, timeout=120) as r:
        res = json.load(r)
    if 'error' in res:
        raise RuntimeError(res['error'].get('data', {}).get('message') or res['error'])
    return res['result']

for _ in range(120):
    try:
        call('common', 'version'); break
    except Exception:
        time.sleep(1)
else:
    sys.exit('server did not answer on %s' % url)

uid = call('common', 'authenticate', db, 'admin', 'admin', {})
assert uid, 'authenticate failed'
def x(model, method, *args, **kw):
    return call('object', 'execute_kw', db, uid, 'admin', model, method, list(args), kw)

failures = []
def check(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond: failures.append(what)

journal = {'x_facturas_journal_id': ('many2one', 'account.journal'), 'x_facturas_account': ('char', None),
           'x_gastos_journal_id': ('many2one', 'account.journal'), 'x_gastos_account': ('char', None)}
expected = {
    'res.company': journal,
    'project.project': journal,
    'account.move': {'pnt_account_move_team_manager_validate': ('boolean', None), 'pnt_account_move_team_manager_deny': ('boolean', None),
                     'project_id': ('many2one', 'project.project'), 'x_uploaded_by': ('char', None),
                     'x_payment_method': ('selection', None), 'x_payment_status': ('selection', None)},
    'sale.order': {'x_uploaded_by': ('char', None)},
    'res.partner': {'x_studio_owner_employee': ('many2one', 'hr.employee'), 'x_studio_tipo_inversor': ('many2many', 'x_tipo_inversor'),
                    'from_event_assistant': ('many2one', 'x_evento_contactos'), 'x_notes': ('text', None)},
    'x_tipo_inversor': {'x_name': ('char', None), 'x_studio_tipo_inversor_descripcion': ('char', None)},
    'x_evento_contactos': {'x_name': ('char', None), 'event_id': ('many2one', 'event.event'), 'x_tag_ids': ('many2many', 'res.partner.category')},
}
for model, fields in expected.items():
    got = x(model, 'fields_get', list(fields), attributes=['type', 'relation', 'selection', 'required'])
    for name, (ftype, rel) in fields.items():
        f = got.get(name)
        check(f is not None and f['type'] == ftype and (rel is None or f.get('relation') == rel),
              '%s.%s is a %s%s' % (model, name, ftype, ' to ' + rel if rel else ''))

sel = x('account.move', 'fields_get', ['x_payment_method', 'x_payment_status'], attributes=['selection'])
check([k for k, _ in sel['x_payment_method']['selection']] == ['corporate_card', 'personal_card', 'direct_debit'], 'x_payment_method keys')
check([k for k, _ in sel['x_payment_status']['selection']] == ['paid', 'unpaid'], 'x_payment_status keys')

rels = x('ir.model.fields', 'search_read', [('model', 'in', ['res.partner', 'x_evento_contactos']),
         ('name', 'in', ['x_studio_tipo_inversor', 'x_tag_ids'])], fields=['name', 'relation_table', 'column1', 'column2'])
rels = {r['name']: (r['relation_table'], r['column1'], r['column2']) for r in rels}
check(rels.get('x_studio_tipo_inversor') == ('x_res_partner_x_tipo_inversor_rel', 'res_partner_id', 'x_tipo_inversor_id'), 'x_studio_tipo_inversor relation table')
check(rels.get('x_tag_ids') == ('x_evento_contactos_category_rel', 'evento_id', 'category_id'), 'x_tag_ids relation table')

# Round trip through the new models and fields.
b = x('x_tipo_inversor', 'create', {'x_name': 'Business angel', 'x_studio_tipo_inversor_descripcion': 'Individual'})
a = x('x_tipo_inversor', 'create', {'x_name': 'Aceleradora'})
names = [r['x_name'] for r in x('x_tipo_inversor', 'search_read', [], fields=['x_name'], order='x_name')]
check(names[:2] == ['Aceleradora', 'Business angel'], 'x_tipo_inversor search_read sorted by x_name')
check(x('x_tipo_inversor', 'read', [b], ['display_name'])[0]['display_name'] == 'Business angel', 'x_tipo_inversor display name is x_name')
event = x('event.event', 'create', {'name': 'Connector test event', 'date_begin': '2030-01-01 09:00:00', 'date_end': '2030-01-01 18:00:00'})
tag = x('res.partner.category', 'create', {'name': 'Connector test tag'})
lst = x('x_evento_contactos', 'create', {'x_name': 'Connector test list', 'event_id': event, 'x_tag_ids': [(6, 0, [tag])]})
employee = x('hr.employee', 'create', {'name': 'Connector test employee'})
partner = x('res.partner', 'create', {'name': 'Connector test partner', 'x_studio_owner_employee': employee,
          'x_studio_tipo_inversor': [(6, 0, [a, b])], 'from_event_assistant': lst, 'x_notes': 'met at the stand'})
p = x('res.partner', 'read', [partner], ['x_studio_owner_employee', 'x_studio_tipo_inversor', 'from_event_assistant', 'x_notes'])[0]
check(p['x_studio_owner_employee'][0] == employee and sorted(p['x_studio_tipo_inversor']) == sorted([a, b])
      and p['from_event_assistant'][0] == lst and p['x_notes'] == 'met at the stand', 'res.partner fields round trip')

company = x('res.users', 'read', [uid], ['company_id'])[0]['company_id'][0]
journals = x('account.journal', 'search_read', [('type', '=', 'purchase'), ('company_id', '=', company)], fields=['name'], limit=1)
if journals:
    jid = journals[0]['id']
    x('res.company', 'write', [company], {'x_facturas_journal_id': jid, 'x_facturas_account': '400000', 'x_gastos_journal_id': jid, 'x_gastos_account': '629000'})
    c = x('res.company', 'read', [company], ['x_facturas_journal_id', 'x_gastos_account'])[0]
    check(c['x_facturas_journal_id'][0] == jid and c['x_gastos_account'] == '629000', 'res.company journal settings round trip')
    project = x('project.project', 'create', {'name': 'Connector test project', 'x_gastos_journal_id': jid, 'x_gastos_account': '629100'})
    check(x('project.project', 'read', [project], ['x_gastos_journal_id'])[0]['x_gastos_journal_id'][0] == jid, 'project.project journal settings round trip')
    partner_vendor = x('res.partner', 'create', {'name': 'Connector test vendor'})
    move = x('account.move', 'create', {'move_type': 'in_invoice', 'partner_id': partner_vendor, 'journal_id': jid,
             'invoice_date': '2030-01-01', 'project_id': project, 'x_uploaded_by': 'staff@demo.example',
             'x_payment_method': 'corporate_card', 'x_payment_status': 'paid'})
    m = x('account.move', 'read', [move], ['pnt_account_move_team_manager_validate', 'pnt_account_move_team_manager_deny', 'project_id', 'x_payment_status', 'payment_state'])[0]
    check(m['pnt_account_move_team_manager_validate'] is False and m['pnt_account_move_team_manager_deny'] is False, 'validate/deny default to False')
    check(m['project_id'][0] == project and m['x_payment_status'] == 'paid', 'account.move fields round trip')
    x('account.move', 'write', [move], {'pnt_account_move_team_manager_validate': True})
    copy = x('account.move', 'copy', [move])
    copy = copy[0] if isinstance(copy, list) else copy  # a list of the copies' ids on Odoo 19 (copy is multi-record)
    check(x('account.move', 'read', [copy], ['pnt_account_move_team_manager_validate'])[0]['pnt_account_move_team_manager_validate'] is False, 'validation is not copied')
    order = x('sale.order', 'create', {'partner_id': partner_vendor, 'x_uploaded_by': 'sales@demo.example'})
    check(x('sale.order', 'read', [order], ['x_uploaded_by'])[0]['x_uploaded_by'] == 'sales@demo.example', 'sale.order.x_uploaded_by round trip')
else:
    print('skip journal checks: no purchase journal in company %s (no chart of accounts?)' % company)

for xmlid in ('x_tipo_inversor_action', 'x_evento_contactos_action'):
    act = x('ir.model.data', 'search_read', [('module', '=', 'backoffice_connector'), ('name', '=', xmlid)], fields=['res_id'])
    res = x('ir.actions.server', 'run', [act[0]['res_id']]) if act else None
    check(bool(res) and res.get('type') == 'ir.actions.act_window', 'menu action %s opens a window' % xmlid)
for model in ('x_tipo_inversor', 'x_evento_contactos'):
    views = x(model, 'get_views', [[False, 'list' if res and 'list' in res['view_mode'] else 'tree'], [False, 'form'], [False, 'search']])
    check(len(views['views']) == 3, '%s views load' % model)

if failures:
    sys.exit('%d check(s) failed' % len(failures))
print('all checks passed')
PY
echo "== done"

from odoo.tests import tagged

from .common import BackofficeCase

JOURNAL = {
    "x_facturas_journal_id": ("many2one", "account.journal"),
    "x_facturas_account": ("char", None),
    "x_gastos_journal_id": ("many2one", "account.journal"),
    "x_gastos_account": ("char", None),
}

# What the console reads with fields_get: (type, relation) per field and model.
EXPECTED = {
    "res.company": JOURNAL,
    "project.project": JOURNAL,
    "account.move": {
        "pnt_account_move_team_manager_validate": ("boolean", None),
        "pnt_account_move_team_manager_deny": ("boolean", None),
        "project_id": ("many2one", "project.project"),
        "x_uploaded_by": ("char", None),
        "x_payment_method": ("selection", None),
        "x_payment_status": ("selection", None),
        "x_backoffice_key": ("char", None),
        "x_backoffice_one_call": ("boolean", None),
        "x_backoffice_journeys": ("boolean", None),
    },
    "sale.order": {"x_uploaded_by": ("char", None), "x_backoffice_key": ("char", None)},
    "res.partner": {
        "x_studio_owner_employee": ("many2one", "hr.employee"),
        "x_studio_tipo_inversor": ("many2many", "x_tipo_inversor"),
        "from_event_assistant": ("many2one", "x_evento_contactos"),
        "x_notes": ("text", None),
        "x_backoffice_key": ("char", None),
    },
    "x_tipo_inversor": {"x_name": ("char", None), "x_studio_tipo_inversor_descripcion": ("char", None)},
    "x_evento_contactos": {
        "x_name": ("char", None),
        "event_id": ("many2one", "event.event"),
        "x_tag_ids": ("many2many", "res.partner.category"),
    },
}


@tagged("post_install", "-at_install")
class TestFields(BackofficeCase):

    def test_fields_get(self):
        """Every field the console uses is there, with its type and relation."""
        for model, fields in EXPECTED.items():
            got = self.env[model].fields_get(list(fields), attributes=["type", "relation"])
            for name, (ftype, relation) in fields.items():
                with self.subTest(field="%s.%s" % (model, name)):
                    self.assertIn(name, got)
                    self.assertEqual(got[name]["type"], ftype)
                    if relation:
                        self.assertEqual(got[name]["relation"], relation)

    def test_selection_keys(self):
        sel = self.env["account.move"].fields_get(["x_payment_method", "x_payment_status"], attributes=["selection"])
        self.assertEqual([k for k, _label in sel["x_payment_method"]["selection"]],
                         ["corporate_card", "personal_card", "direct_debit"])
        self.assertEqual([k for k, _label in sel["x_payment_status"]["selection"]], ["paid", "unpaid"])

    def test_relation_tables(self):
        """The many2many tables keep the names of the former Studio setup."""
        expected = {
            ("res.partner", "x_studio_tipo_inversor"):
                ("x_res_partner_x_tipo_inversor_rel", "res_partner_id", "x_tipo_inversor_id"),
            ("x_evento_contactos", "x_tag_ids"): ("x_evento_contactos_category_rel", "evento_id", "category_id"),
        }
        for (model, name), (table, col1, col2) in expected.items():
            field = self.env[model]._fields[name]
            self.assertEqual((field.relation, field.column1, field.column2), (table, col1, col2))
            row = self.env["ir.model.fields"].search([("model", "=", model), ("name", "=", name)])
            self.assertEqual((row.relation_table, row.column1, row.column2), (table, col1, col2))
            self.env.cr.execute("SELECT 1 FROM information_schema.tables WHERE table_name = %s", [table])
            self.assertTrue(self.env.cr.fetchone(), "table %s exists" % table)

    def test_copy_flags(self):
        """Fields that belong to one upload or one decision are not copied."""
        not_copied = {
            "account.move": ("pnt_account_move_team_manager_validate", "pnt_account_move_team_manager_deny",
                             "x_uploaded_by", "x_payment_status", "x_backoffice_key"),
            "sale.order": ("x_uploaded_by", "x_backoffice_key"),
            "res.partner": ("x_backoffice_key",),
        }
        for model, names in not_copied.items():
            for name in names:
                with self.subTest(field="%s.%s" % (model, name)):
                    self.assertFalse(self.env[model]._fields[name].copy)
        self.assertTrue(self.env["account.move"]._fields["x_payment_method"].copy)

    def test_journal_fields_domain(self):
        """The journal choice is limited to purchase journals (client-side domain)."""
        for model in ("res.company", "project.project"):
            for name in ("x_facturas_journal_id", "x_gastos_journal_id"):
                domain = self.env[model]._fields[name].domain
                self.assertIn("('type', '=', 'purchase')", domain)
                self.assertIn("company_id", domain)

    def test_submission_key_indexes(self):
        """init() made one partial unique index per table holding x_backoffice_key."""
        for table in ("account_move", "sale_order", "res_partner"):
            self.env.cr.execute("SELECT indexdef FROM pg_indexes WHERE tablename = %s AND indexname = %s",
                                [table, "%s_x_backoffice_key_uniq" % table])
            row = self.env.cr.fetchone()
            self.assertTrue(row, "unique index on %s.x_backoffice_key" % table)
            self.assertIn("UNIQUE", row[0])
            self.assertIn("x_backoffice_key IS NOT NULL", row[0])
